package jsonc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// errEmptyPath is returned by Set and Delete for an empty path.
var errEmptyPath = errors.New("empty path: the root cannot be set or deleted")

// Set sets the member at path to value, which must be standard JSON (as
// encoding/json produces). Each element of path is a member name, as is.
//
// Objects missing on the way are created. If the root or a value on the
// way is not an object, Set returns a *NotObjectError (which matches
// ErrNotObject), e.g. `"mcpServers" must be an object, not an array`, and
// changes nothing.
//
// If value is not valid JSON (or nests deeper than the 1,000 levels a document
// may, limits.Depth), Set returns an error and changes nothing.
//
// An existing member keeps its place, its key and the comments around it;
// only its value is replaced. If the new value equals the old one (as
// compact JSON), nothing changes at all. A new member is appended at the
// end of its object: on its own line, indented like its siblings (or one
// unit deeper than the object when it has none), or on the same line in an
// object written on one line. Inserted values are pretty-printed with the
// document's indentation unit and line ending (kept on one line in a
// one-line object), keeping the caller's member order and string escapes
// (HTML characters are not escaped). The
// object's trailing-comma style is kept. With duplicate names the last
// member is used.
func (d *Doc) Set(path []string, value []byte) error {
	if len(path) == 0 {
		return errEmptyPath
	}
	if !Valid(value) {
		return errors.New("invalid JSON value")
	}
	return d.walk(path, func(o *object, k int) error {
		d.replace(o, k, value)
		return nil
	}, func(o *object, i int) error {
		d.insert(o, path[i], nest(path[i+1:], value))
		return nil
	})
}

// SetMembers sets members of the object at path, names[i] to values[i], as Set sets
// path+names[i] to each in turn (a missing object at path is created first), with the
// object found once and the values checked before anything changes: an import writes
// 200,000 servers into one object (K7). A member that holds a value for which
// unchanged (when not nil) reports true, given its value as it is and the new one,
// is left as it is.
func (d *Doc) SetMembers(path []string, names []string, values [][]byte, unchanged func(cur, value []byte) bool) error {
	if len(names) != len(values) {
		return errors.New("as many values as names are needed")
	}
	for _, v := range values {
		if !Valid(v) {
			return errors.New("invalid JSON value")
		}
	}
	o := d.rootObject()
	if o == nil {
		return NotObject(d.Root().Kind())
	}
	if len(path) > 0 {
		if _, ok := d.Lookup(path...); !ok {
			if err := d.Set(path, []byte("{}")); err != nil {
				return err
			}
		}
		err := d.walk(path, func(p *object, k int) error {
			if o = d.child(p, k); o == nil {
				return NotObject(p.members[k].val.Kind(), path...)
			}
			return nil
		}, func(*object, int) error { panic("unreachable: the object was created") })
		if err != nil {
			return err
		}
	}
	o.full()
	o.index(len(names))
	o.members = slices.Grow(o.members, len(names)) // room for the new members, once
	for i, name := range names {
		if k := o.find(name); k >= 0 {
			if unchanged == nil || !unchanged(o.members[k].val.JSON(), values[i]) {
				d.replace(o, k, values[i])
			}
			continue
		}
		d.insert(o, name, values[i])
	}
	return nil
}

// walk finds the member at path, materialising the objects on the way: found gets
// the object holding it and its index there; absent gets the deepest object on the way
// that exists and the index in path of the first name it does not hold. A value on
// the way that is not an object is a *NotObjectError.
func (d *Doc) walk(path []string, found func(o *object, k int) error, absent func(o *object, i int) error) error {
	o := d.rootObject()
	if o == nil {
		return NotObject(d.Root().Kind())
	}
	for i, name := range path {
		k := o.find(name)
		if k < 0 {
			return absent(o, i)
		}
		if i == len(path)-1 {
			return found(o, k)
		}
		c := d.child(o, k)
		if c == nil {
			return NotObject(o.members[k].val.Kind(), path[:i+1]...)
		}
		o = c
	}
	panic("unreachable")
}

// Delete removes the member at path, with its leading comment lines and
// the comment on the rest of its line, and reports whether it existed.
// Commas are fixed up: the new last member keeps a comma only if the
// object used trailing commas. An object left empty becomes {} (unless it
// holds comments that belong to no member). If the name occurs more than
// once in its object, every occurrence is removed. If the root or a value
// on the way is not an object, Delete returns a *NotObjectError and changes
// nothing.
func (d *Doc) Delete(path []string) (bool, error) {
	if len(path) == 0 {
		return false, errEmptyPath
	}
	o := d.rootObject()
	if o == nil {
		return false, NotObject(d.Root().Kind())
	}
	for i, name := range path[:len(path)-1] {
		k := o.find(name)
		if k < 0 {
			return false, nil
		}
		if c := d.child(o, k); c != nil {
			o = c
		} else {
			return false, NotObject(o.members[k].val.Kind(), path[:i+1]...)
		}
	}
	found := false
	name := path[len(path)-1]
	o.full()
	for k := len(o.members) - 1; k >= 0; k-- {
		if keyIs(o.members[k].key, name) {
			d.style()
			o.remove(k, d.nl)
			found = true
		}
	}
	return found, nil
}

// child returns the object value of member k of o, materialising it, or nil
// if the value is not an object.
func (d *Doc) child(o *object, k int) *object {
	m := &o.members[k]
	if m.val.obj != nil {
		return m.val.obj
	}
	if m.val.Kind() != Object {
		return nil
	}
	multiline, _ := d.layout(o)
	var c *object
	if d.noted != nil && o == d.root && len(m.val.raw) > 0 && &m.val.raw[0] == &d.data[d.notedAt] {
		// noted by ParseOpen, and the value is still the one parsed: built only as
		// far as the edit needs (window.go)
		c = windowed(d.data, d.notedAt, d.notedAt+len(m.val.raw), d.noted, o.memberIndent(k), !multiline)
		d.noted = nil
	} else {
		spans, _ := m.val.spans()
		c = newObject(m.val.raw, 0, len(m.val.raw), spans, o.memberIndent(k), !multiline)
	}
	m.val = Value{obj: c}
	return c
}

// nest wraps value in one object per name: nest([a b], v) is {"a":{"b":v}}.
func nest(names []string, value []byte) []byte {
	if len(names) == 0 {
		return value
	}
	var b []byte
	for _, name := range names {
		b = append(b, '{')
		b = append(b, quote(name)...)
		b = append(b, ':')
	}
	b = append(b, bytes.TrimSpace(value)...)
	for range names {
		b = append(b, '}')
	}
	return b
}

// replace sets the value of member k of o.
func (d *Doc) replace(o *object, k int, value []byte) {
	var want bytes.Buffer
	_ = json.Compact(&want, value) // value is valid
	m := &o.members[k]
	if bytes.Equal(m.val.JSON(), want.Bytes()) {
		return
	}
	multiline, _ := d.layout(o)
	m.val = Value{raw: d.format(value, o.memberIndent(k), multiline, bytes.HasSuffix(m.mid, []byte(" ")))}
}

// commaOnly is the text after a member that is a comma alone. A member's pieces of
// text are never changed in place (an edit makes new ones), so members share it, as
// they share lineBreak's (K7: an import inserts 200,000 members).
var commaOnly = []byte{','}[:1:1]

// lineBreak is the document's line ending and indent, the text before a member on a
// line of its own: the same slice for every member inserted at that indent.
func (d *Doc) lineBreak(indent string) []byte {
	if b := d.brk; len(b) == len(d.nl)+len(indent) && string(b[:len(d.nl)]) == d.nl && string(b[len(d.nl):]) == indent {
		return b
	}
	b := []byte(d.nl + indent)
	d.brk = b[:len(b):len(b)]
	return d.brk
}

// insert appends a member to o.
func (d *Doc) insert(o *object, name string, value []byte) {
	o.full()
	multiline, indent := d.layout(o)
	m := member{key: quote(name), mid: []byte(": "), comma: -1}
	if n := len(o.members); n > 0 {
		last := &o.members[n-1]
		if simpleMid(last.mid) {
			m.mid = last.mid
		}
		if last.comma >= 0 {
			m.after, m.comma = commaOnly, 0 // trailing-comma style
		} else if len(last.after) == 0 {
			last.after, last.comma = commaOnly, 0
		} else {
			last.after, last.comma = concat(commaOnly, last.after), 0
		}
		switch {
		case multiline:
			m.before = d.lineBreak(indent)
		case endsInLineComment(last.after):
			m.before = []byte(d.nl + o.memberIndent(n-1)) // a line comment ends the line
			o.lay = nil                                   // the object now has a line break
		case n > 1 && lastBreak(last.before) < 0 && isSpace(last.before):
			m.before = last.before // the spacing after the previous comma
		case bytes.HasSuffix(m.mid, []byte(" ")):
			m.before = []byte{' '}
		}
	} else if multiline {
		// Keep what the empty object held (comments) above the new member,
		// and put '}' on its own line.
		keep, rest := o.tail, []byte(nil)
		if lb := lastBreak(o.tail); lb >= 0 {
			cut := lb
			if cut > 0 && o.tail[cut-1] == '\r' {
				cut--
			}
			keep, rest = o.tail[:cut], o.tail[cut:]
		}
		keep = bytes.TrimRight(keep, " \t")
		if rest == nil {
			rest = []byte(d.nl + o.indent)
		}
		m.before = concat(keep, []byte(d.nl+indent))
		o.tail = rest
	}
	m.val = Value{raw: d.format(value, indent, multiline, bytes.HasSuffix(m.mid, []byte(" ")))}
	o.members = append(o.members, m)
	if o.byName != nil {
		o.byName[name] = len(o.members) - 1
	}
}

// remove deletes member k of o, with the text that belongs to it. nl is
// the document's line ending.
func (o *object) remove(k int, nl string) {
	o.full()
	m := o.members[k]
	own := ownStart(m.before)
	rest := sub(m.before, 0, own) // text above the member that stays
	last := k == len(o.members)-1
	if isSpace(rest) && (k == 0 || last) {
		rest = nil // no blank line after '{' or before '}'
	}
	// What stays before the removed text ends with rest, or else with
	// the previous member's after piece. If that is a line comment, the
	// text that follows must still start on a new line.
	lineComment := endsInLineComment(rest) || (len(rest) == 0 && k > 0 && endsInLineComment(o.members[k-1].after))
	o.members = slices.Delete(o.members, k, k+1)
	o.byName, o.lay = nil, nil // the members after k moved, and their text
	switch {
	case !last:
		next := &o.members[k]
		before := next.before
		if k == 0 && rest == nil {
			before = trimBlankLines(before)
		}
		if lineComment && !startsLine(before) {
			rest = concat(rest, []byte(nl))
		}
		next.before = concat(rest, before)
	default:
		if lineComment && !startsLine(o.tail) {
			rest = concat(rest, []byte(nl))
		}
		o.tail = concat(rest, o.tail)
		if k > 0 && m.comma < 0 {
			// The new last member loses its comma, unless the object
			// used trailing commas.
			p := &o.members[k-1]
			if p.comma >= 0 {
				p.after = concat(p.after[:p.comma], p.after[p.comma+1:])
				p.comma = -1
			}
		}
	}
	if len(o.members) == 0 && isSpace(o.tail) {
		o.tail = nil
	}
}

// trimBlankLines removes the blank lines at the start of a member's before
// piece, for a member that becomes the first of its object.
func trimBlankLines(before []byte) []byte {
	breaks := lineBreaks(before)
	i := 0
	for i+1 < len(breaks) && isSpace(before[breaks[i]:breaks[i+1]]) {
		i++
	}
	if i == 0 {
		return before
	}
	return concat(before[:breaks[0]], before[breaks[i]:])
}

// endsInLineComment reports whether b (whitespace and comments) ends with
// a line comment, which the next byte would continue unless it is a line
// break.
func endsInLineComment(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] != '/' {
			i++
			continue
		}
		end := commentEnd(b, i)
		if end == len(b) && b[i+1] == '/' {
			return true
		}
		i = end
	}
	return false
}

// startsLine reports whether b starts with a line break.
func startsLine(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\n")) || bytes.HasPrefix(b, []byte("\r\n"))
}

// SetText sets the value of the existing member at path to text, one JSONC value
// kept byte for byte: its comments, spacing and line breaks as they are (a value
// taken earlier with Value.Text, put back where it was). The member keeps its key and
// the comments around it. It is an error when the member does not exist, or when text
// is not exactly one valid JSONC value.
func (d *Doc) SetText(path []string, text []byte) error {
	if len(path) == 0 {
		return errEmptyPath
	}
	var rec record
	start, end, err := scanDocument(text, &rec)
	if err != nil {
		return err
	}
	return d.walk(path, func(o *object, k int) error {
		o.members[k].val = Value{raw: bytes.Clone(text[start:end])}
		return nil
	}, func(_ *object, i int) error {
		return fmt.Errorf("no member %q to set", strings.Join(path[:i+1], "."))
	})
}
