package jsonc

// Locate finds the member at path (member names from the top level) in data, a
// JSONC document, without building it: key is the offset of its key (of the root
// value for an empty path), and [start, end) its value's. A name held twice is the
// last one's, as decoders take it. ok is false when a member on the way is missing
// or not an object, or what is scanned is not valid. Each step scans only the value
// it enters (`mcpwire explain` names the line of a rule).
func Locate(data []byte, path ...string) (key, start, end int, ok bool) {
	start, serr := skipSpace(data, 0, nil)
	if serr != nil || start >= len(data) {
		return 0, 0, 0, false
	}
	key = start
	for _, name := range path {
		if data[start] != '{' {
			return 0, 0, 0, false
		}
		var rec record
		if _, _, serr := scan(data, start, &rec); serr != nil {
			return 0, 0, 0, false
		}
		found := false
		for _, sp := range rec.members {
			if unquote(data[sp.keyStart:sp.keyEnd]) == name {
				key, start, found = sp.keyStart, sp.valStart, true
			}
		}
		if !found {
			return 0, 0, 0, false
		}
	}
	if _, end, serr = scan(data, start, nil); serr != nil {
		return 0, 0, 0, false
	}
	return key, start, end, true
}
