package policy

// resetWarnings forgets which warnings were printed, so each test sees its own.
func resetWarnings() {
	warned.Lock()
	warned.seen = nil
	warned.Unlock()
}
