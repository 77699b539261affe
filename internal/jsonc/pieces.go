package jsonc

// smallPiece is the length under which Pieces copies a piece into a shared buffer
// instead of keeping it as a slice of its own: an edited object gives many pieces of
// a few bytes (a colon, a comma, an indent), and a write per piece would cost more
// than the copy.
const smallPiece = 4 << 10

// Pieces returns the bytes Bytes would return as consecutive pieces, without
// building them in one buffer: the untouched stretches of the input (all but the
// edited region of a large file) are slices of it, the rest is copied into small
// buffers. The pieces must not be changed, nor the input while they are in use.
func (d *Doc) Pieces() [][]byte {
	var out [][]byte
	var small []byte // pieces shorter than smallPiece, copied together
	d.emit(func(p []byte) {
		if len(p) == 0 {
			return
		}
		if len(p) < smallPiece {
			if small == nil {
				small = make([]byte, 0, smallPiece)
			}
			if len(small)+len(p) <= cap(small) {
				small = append(small, p...)
				return
			}
		}
		if len(small) > 0 {
			out = append(out, small)
			small = nil
		}
		if len(p) < smallPiece {
			small = append(make([]byte, 0, smallPiece), p...)
			return
		}
		out = append(out, p)
	})
	if len(small) > 0 {
		out = append(out, small)
	}
	return out
}
