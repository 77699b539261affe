package jsonc

import "github.com/mcpwire/mcpwire/internal/bigbuf"

// window makes an object whose members ParseOpen noted without building them: the
// projects map of a 50 MB ~/.claude.json has tens of thousands of members, and an
// edit of one project's servers needs one of them. Until a member is looked up the
// object is its text; the first lookup that finds one opens the window on it:
// members then holds the text before it as one opaque member (no key), the member
// itself, and the text after it as another opaque member. find, child, replace,
// layout and emit work on that (none of them moves the member's index); any other
// use builds the whole object first (full), keeping the member as it was edited. Either way the bytes written are those the
// whole object would give.
type window struct {
	src        []byte
	start, end int    // the object is src[start:end]
	spans      []span // its members, as spans into src
	at         int    // the member the window is open on, or -1
}

// windowed returns the object src[start:end] with the members spans, not built.
func windowed(src []byte, start, end int, spans []span, indent string, inlineParent bool) *object {
	return &object{window: &window{src: src, start: start, end: end, spans: spans, at: -1},
		indent: indent, inlineParent: inlineParent}
}

// open opens the window on member j: the member is built as newObject builds it,
// and the text on either side of it becomes one opaque member each.
func (o *object) open(j int) {
	w := o.window
	closing := w.end - 1
	region := w.regionStart(j)
	m, aend := memberAt(w.src, w.spans, j, region, closing)
	last := aend
	if j+1 < len(w.spans) {
		last, _ = splitAfter(w.src, w.spans[len(w.spans)-1].valEnd, closing)
	}
	o.members = []member{
		{before: sub(w.src, w.start+1, region), comma: -1},
		m,
		{before: sub(w.src, aend, last), comma: -1},
	}
	o.tail = sub(w.src, last, closing)
	o.byName, o.lay = nil, nil
	w.at = j
}

// regionStart returns where the text of member k starts: after the previous
// member's region, or after '{'.
func (w *window) regionStart(k int) int {
	if k == 0 {
		return w.start + 1
	}
	end, _ := splitAfter(w.src, w.spans[k-1].valEnd, w.spans[k].keyStart)
	return end
}

// full builds the whole of a windowed object, keeping the member the window is
// open on as it was edited.
func (o *object) full() {
	w := o.window
	if w == nil {
		return
	}
	f := newObject(w.src, w.start, w.end, w.spans, o.indent, o.inlineParent)
	if w.at >= 0 {
		f.members[w.at] = o.members[1]
	}
	o.members, o.tail, o.window, o.byName, o.lay = f.members, f.tail, nil, nil, nil
}

// findWindowed is find for a windowed object: the member the window is open on,
// or the last member called name, on which the window opens when it is not open
// yet. Any other name builds the whole object (full) and is looked up there.
func (o *object) findWindowed(name string) (int, bool) {
	w := o.window
	if w.at >= 0 {
		if keyIs(o.members[1].key, name) {
			return 1, true // the last one called name: found from the end
		}
		o.full()
		return 0, false
	}
	// the keys lie all over the file (a project's key every kilobyte or so): in a
	// mapped file their pages are dropped behind, a Chunk at a time, and a key
	// shorter than name is never read (an escape only lengthens a key)
	mapped, hi := bigbuf.IsMapped(w.src), w.end
	for k := len(w.spans) - 1; k >= 0; k-- {
		sp := w.spans[k]
		if sp.keyEnd-sp.keyStart-2 < len(name) {
			continue
		}
		if keyIs(w.src[sp.keyStart:sp.keyEnd], name) {
			o.open(k)
			return 1, true
		}
		if mapped && hi-sp.keyStart >= bigbuf.Chunk {
			bigbuf.Release(w.src[sp.keyStart:hi])
			hi = sp.keyStart
		}
	}
	o.full()
	return 0, false
}

// before returns the before piece of member k, as newObject would build it.
func (w *window) before(k int) []byte {
	return w.src[w.regionStart(k):w.spans[k].keyStart]
}
