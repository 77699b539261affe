package jsonc

import "bytes"

// object is a materialised object: the one structure this package builds,
// and only for the root and for objects on an edit path. Its pieces are
// slices of the original input (or of inserted fragments); nothing below
// the object's own members is parsed, so a member holding 50 MB stays one
// slice.
//
// The object's text is '{', then each member's pieces in order, then tail,
// then '}'. The members' pieces tile the text between the braces without
// gaps, so writing them back reproduces the input exactly.
type object struct {
	members []member
	tail    []byte // after the last member's region, before '}'

	indent       string // indentation of the line the object starts on
	inlineParent bool   // the enclosing object is written on one line

	window *window // members not built yet, or only one of them (window.go)

	// byName indexes the members of a large object by name (the last of a name),
	// built by the first find that needs it and dropped by any change of the
	// members' order: a lookup of each of n entries then costs n, not n² (K7).
	byName map[string]int
	// lay is what layout found, kept until a member's text before its key changes
	// otherwise than by an insertion in that layout: an object written on one line
	// has no line break to find, and n insertions would each scan all members.
	lay *layout
}

// layout is how an object's members are laid out (Doc.layout).
type layout struct {
	multiline bool
	indent    string
}

// indexMin is the number of members from which find builds an index: below it a scan
// is as fast.
const indexMin = 32

// steps counts the members find and layout look at, when a test sets it (K7: n
// look-ups or insertions into an object of n members look at O(n) of them).
var steps *int

func countStep() {
	if steps != nil {
		*steps++
	}
}

// member is one object member, split into pieces.
//
//   - before: whitespace and comments from the end of the previous member's
//     region (or '{') to the key. Comment lines directly above the key are
//     the member's leading comments.
//   - key: the key token, quotes included.
//   - mid: from the key to the value, holding the ':'.
//   - val: the value.
//   - after: from the value up to and including its ',' (if any) and the
//     comments that follow on the same line, such as "// note".
type member struct {
	before, key, mid []byte
	val              Value
	after            []byte
	comma            int // offset of ',' in after, or -1
}

// newObject builds the object whose text is src[start:end], from the spans
// of its members found by scan.
func newObject(src []byte, start, end int, spans []span, indent string, inlineParent bool) *object {
	o := &object{members: make([]member, len(spans)), indent: indent, inlineParent: inlineParent}
	closing := end - 1
	region := start + 1
	for k := range spans {
		o.members[k], region = memberAt(src, spans, k, region, closing)
	}
	o.tail = sub(src, region, closing)
	return o
}

// memberAt builds member k of spans, whose region starts at region in src (after the
// previous member's, or after '{'), in an object whose '}' is at closing; it returns
// the member and where its region ends.
func memberAt(src []byte, spans []span, k, region, closing int) (member, int) {
	sp := spans[k]
	limit := closing
	if k+1 < len(spans) {
		limit = spans[k+1].keyStart
	}
	aend, comma := splitAfter(src, sp.valEnd, limit)
	if comma >= 0 {
		comma -= sp.valEnd
	}
	return member{
		before: sub(src, region, sp.keyStart),
		key:    sub(src, sp.keyStart, sp.keyEnd),
		mid:    sub(src, sp.keyEnd, sp.valStart),
		val:    Value{raw: sub(src, sp.valStart, sp.valEnd)},
		after:  sub(src, sp.valEnd, aend),
		comma:  comma,
	}, aend
}

// sub returns src[i:j] with its capacity capped, so that appending to it
// can never overwrite the caller's buffer.
func sub(src []byte, i, j int) []byte { return src[i:j:j] }

// splitAfter finds the end of the region of a member whose value ends at
// src[from], where src[from:limit] holds only whitespace, comments and at
// most one comma. The region takes the comma and the comments that follow
// it on the same line (for a member without a comma: the comments on the
// same line as the value). It returns the region's end and the offset of
// the comma, or -1.
func splitAfter(src []byte, from, limit int) (end, comma int) {
	p := from
	comma = -1
	for p < limit {
		c := src[p]
		if c == ',' {
			comma = p
			p++
			break
		}
		if c == '/' {
			p = commentEnd(src, p)
			continue
		}
		p++
	}
	if comma < 0 {
		p = from
	}
	end = p
	for p < limit {
		switch src[p] {
		case ' ', '\t':
			p++
		case '/':
			ce := commentEnd(src, p)
			if src[p+1] == '/' {
				if ce > p+2 && src[ce-1] == '\r' {
					ce--
				}
				return ce, comma
			}
			end, p = ce, ce
		default:
			return end, comma
		}
	}
	return end, comma
}

var openBrace, closeBrace = []byte{'{'}, []byte{'}'}

// find returns the index of the last member called name, or -1.
func (o *object) find(name string) int {
	if o.window != nil {
		if k, ok := o.findWindowed(name); ok {
			return k
		}
	}
	if len(o.members) < indexMin {
		for k := len(o.members) - 1; k >= 0; k-- {
			countStep()
			if keyIs(o.members[k].key, name) {
				return k
			}
		}
		return -1
	}
	o.index(0)
	if k, ok := o.byName[name]; ok {
		return k
	}
	return -1
}

// index builds byName, with room for more members, unless the object has it or is
// too small to need one (indexMin, with them).
func (o *object) index(more int) {
	if o.byName != nil || len(o.members)+more < indexMin {
		return
	}
	o.byName = make(map[string]int, len(o.members)+more)
	for k := range o.members {
		countStep()
		o.byName[unquote(o.members[k].key)] = k
	}
}

// emit passes the object's bytes, in order, to fn.
func (o *object) emit(fn func([]byte)) {
	if w := o.window; w != nil && w.at < 0 {
		fn(w.src[w.start:w.end])
		return
	}
	fn(openBrace)
	for k := range o.members {
		m := &o.members[k]
		fn(m.before)
		fn(m.key)
		fn(m.mid)
		m.val.emit(fn)
		fn(m.after)
	}
	fn(o.tail)
	fn(closeBrace)
}

// lineBreaks returns the offsets of the '\n' bytes of b (whitespace and
// comments only) that are not inside a block comment.
func lineBreaks(b []byte) []int {
	var out []int
	for i := 0; i < len(b); {
		switch b[i] {
		case '\n':
			out = append(out, i)
			i++
		case '/':
			i = commentEnd(b, i)
		default:
			i++
		}
	}
	return out
}

// lastBreak returns the offset of the last line break of b outside
// comments, or -1.
func lastBreak(b []byte) int {
	lb := lineBreaks(b)
	if len(lb) == 0 {
		return -1
	}
	return lb[len(lb)-1]
}

// leadingSpace returns the spaces and tabs that start b.
func leadingSpace(b []byte) string {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return string(b[:i])
}

// memberIndent returns the indentation of the line holding member k's key.
func (o *object) memberIndent(k int) string {
	b := o.members[k].before
	if lb := lastBreak(b); lb >= 0 {
		return leadingSpace(b[lb+1:])
	}
	return o.indent
}

// ownStart returns where the text that belongs to a member starts in its
// before piece: at the line break above the comment lines directly above
// the key (no blank line between), or at the line break above the key. The
// text before it (the rest of the previous line, blank lines, comments
// separated by a blank line) belongs to no member and stays on delete.
func ownStart(before []byte) int {
	breaks := lineBreaks(before)
	if len(breaks) == 0 {
		return 0
	}
	j := len(breaks) - 1
	for j > 0 && bytes.IndexByte(before[breaks[j-1]:breaks[j]], '/') >= 0 {
		j--
	}
	own := breaks[j]
	if own > 0 && before[own-1] == '\r' {
		own--
	}
	return own
}

// isSpace reports whether b holds only whitespace.
func isSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// concat returns a new slice holding a followed by b.
func concat(a, b []byte) []byte {
	out := make([]byte, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}
