package jsonc

import (
	"bytes"
	"iter"
)

// Members returns the members of an object in document order, duplicates
// included, as name and value pairs; nothing when v is not an object. Like
// Member, it materialises and copies nothing: each value is a view of the
// document, and walking a 50 MB document allocates only the names.
func (v Value) Members() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) { v.members(yield) }
}

// Elements returns the elements of an array in order; nothing when v is not
// an array. Each element is a view of the document, as with Members.
func (v Value) Elements() iter.Seq[Value] {
	return func(yield func(Value) bool) { v.elements(yield) }
}

func (v Value) members(yield func(string, Value) bool) {
	if v.obj != nil {
		v.obj.full()
		for k := range v.obj.members {
			m := &v.obj.members[k]
			if !yield(unquote(m.key), m.val) {
				return
			}
		}
		return
	}
	if v.Kind() != Object {
		return
	}
	raw := v.raw
	for i := next(raw, 1); raw[i] == '"'; {
		ks := i
		i, _ = scanString(raw, i)
		ke := i
		i = next(raw, i) + 1 // past ':'
		vs, ve, _ := scan(raw, i, nil)
		if !yield(unquote(raw[ks:ke]), Value{raw: raw[vs:ve:ve]}) {
			return
		}
		i = after(raw, ve)
	}
}

func (v Value) elements(yield func(Value) bool) {
	if v.Kind() != Array {
		return
	}
	raw := v.raw
	for i := next(raw, 1); raw[i] != ']'; {
		vs, ve, _ := scan(raw, i, nil)
		if !yield(Value{raw: raw[vs:ve:ve]}) {
			return
		}
		i = after(raw, ve)
	}
}

// next returns the offset of the first byte at or after i of validated text
// that is not whitespace or part of a comment.
func next(raw []byte, i int) int {
	i, _ = skipSpace(raw, i, nil)
	return i
}

// after returns the offset of the next member or element after a value that
// ends at i in validated text, or of the closing bracket.
func after(raw []byte, i int) int {
	if i = next(raw, i); raw[i] == ',' {
		i = next(raw, i+1)
	}
	return i
}

// Equal reports whether v and w are written the same, byte for byte (comments
// and spacing included), without copying either: a value read from an old and a
// new version of a document is unchanged when Equal.
func (v Value) Equal(w Value) bool {
	var a, b [][]byte
	v.emit(func(p []byte) { a = append(a, p) })
	w.emit(func(p []byte) { b = append(b, p) })
	var x, y []byte
	for {
		for len(x) == 0 && len(a) > 0 {
			x, a = a[0], a[1:]
		}
		for len(y) == 0 && len(b) > 0 {
			y, b = b[0], b[1:]
		}
		if len(x) == 0 || len(y) == 0 {
			return len(x) == len(y)
		}
		n := min(len(x), len(y))
		if !bytes.Equal(x[:n], y[:n]) {
			return false
		}
		x, y = x[n:], y[n:]
	}
}
