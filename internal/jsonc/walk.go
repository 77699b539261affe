package jsonc

// Visitor is told of the tokens of a JSONC document as Walk validates it, in
// document order, by their [start, end) offsets in the data walked: comments, white
// space and commas are not tokens.
type Visitor interface {
	// Key is an object member's name, its quotes included (Unquote decodes it).
	Key(start, end int)
	// Open is an object or array opening at offset at.
	Open(at int, array bool)
	// Close is the innermost open object or array closing; end is just after it.
	Close(end int)
	// Scalar is a string (its quotes included), a number, true, false or null.
	Scalar(start, end int)
}

// Walk validates data as one JSONC document, as Parse does (the same errors), and
// tells v of its tokens in order. It records nothing: reading a 50 MB file this way
// allocates what v does (policy/redact learns the credentials of a file so).
func Walk(data []byte, v Visitor) error {
	_, _, err := scanDocument(data, &record{visit: v})
	return err
}

// WalkValue validates the one JSONC value that starts at offset i of data (after
// white space and comments), telling v of its tokens as Walk does, and returns the
// offset just after it. It does not look past the value's end.
func WalkValue(data []byte, i int, v Visitor) (end int, err error) {
	_, end, serr := scan(data, i, &record{visit: v})
	if serr != nil {
		return 0, syntaxError(data, serr)
	}
	return end, nil
}

// Unquote decodes a string token of a validated document, quotes included.
func Unquote(tok []byte) string { return unquote(tok) }
