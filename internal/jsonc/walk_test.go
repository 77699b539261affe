package jsonc

import (
	"bytes"
	"testing"
)

// rebuild writes a document's standard JSON back from the tokens Walk tells of.
type rebuild struct {
	data  []byte
	out   bytes.Buffer
	first []bool // no member or element yet in each open container
	key   bool   // a key was just written
}

func (r *rebuild) value() {
	if r.key {
		r.key = false
		return
	}
	if n := len(r.first); n > 0 {
		if !r.first[n-1] {
			r.out.WriteByte(',')
		}
		r.first[n-1] = false
	}
}

func (r *rebuild) Key(start, end int) {
	r.value()
	r.out.Write(r.data[start:end])
	r.out.WriteByte(':')
	r.key = true
}

func (r *rebuild) Open(at int, array bool) {
	r.value()
	r.out.WriteByte(r.data[at])
	r.first = append(r.first, true)
}

func (r *rebuild) Close(end int) {
	r.out.WriteByte(r.data[end-1])
	r.first = r.first[:len(r.first)-1]
}

func (r *rebuild) Scalar(start, end int) {
	r.value()
	r.out.Write(r.data[start:end])
}

// FuzzWalk: Walk accepts what Parse accepts, with its error, and tells of every token
// in order: the tokens make the document's standard JSON.
//
// spec: K7
func FuzzWalk(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	for _, s := range seedSnippets {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, perr := Parse(b)
		r := &rebuild{data: b}
		werr := Walk(b, r)
		if (perr == nil) != (werr == nil) || perr != nil && perr.Error() != werr.Error() {
			t.Fatalf("%q: Parse %v, Walk %v", b, perr, werr)
		}
		if perr != nil {
			return
		}
		if want := doc.Root().JSON(); !bytes.Equal(r.out.Bytes(), want) {
			t.Fatalf("%q: tokens make %s, want %s", b, r.out.Bytes(), want)
		}
		end, err := WalkValue(b, 0, &rebuild{data: b})
		if err != nil || end != doc.end {
			t.Fatalf("%q: WalkValue ends at %d (%v), the root at %d", b, end, err, doc.end)
		}
	})
}
