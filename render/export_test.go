package render

// CountEntrySteps makes ClientFile.Entry count the entries it looks at into n, until
// the returned function is called (K7).
func CountEntrySteps(n *int) (stop func()) {
	entrySteps = n
	return func() { entrySteps = nil }
}
