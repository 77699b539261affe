package jsonc

import (
	"bytes"
	"strings"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// defaultUnit is the indentation unit for files that show none.
const defaultUnit = "  "

// style detects, once, the document's line ending and indentation unit.
// The line ending is that of the first line. The unit is the indentation
// of the root object's members relative to the root's own line.
func (d *Doc) style() {
	if d.styled {
		return
	}
	d.styled = true
	d.nl = "\n"
	if i := bigbuf.IndexByte(d.data, '\n'); i > 0 && d.data[i-1] == '\r' {
		d.nl = "\r\n"
	}
	d.unit = defaultUnit
	o := d.rootObject()
	if o == nil {
		return
	}
	for k := range o.members {
		if lastBreak(o.members[k].before) < 0 {
			continue
		}
		ind := o.memberIndent(k)
		if strings.HasPrefix(ind, o.indent) && len(ind) > len(o.indent) {
			d.unit = ind[len(o.indent):]
		}
		break
	}
}

// layout tells how a new member of o is written: on its own line with the
// given indentation (multiline), or on the line of the others.
func (d *Doc) layout(o *object) (multiline bool, indent string) {
	d.style()
	if w := o.window; w != nil {
		// as below, over the members' text (a window is never empty): the caller
		// holds the index of the member the window is open on
		for k := len(w.spans) - 1; k >= 0; k-- {
			if b := w.before(k); lastBreak(b) >= 0 {
				return true, leadingSpace(b[lastBreak(b)+1:])
			}
		}
		return false, o.indent
	}
	if o.lay == nil || len(o.members) == 0 {
		o.lay = &layout{}
		o.lay.multiline, o.lay.indent = d.scanLayout(o)
	}
	return o.lay.multiline, o.lay.indent
}

// scanLayout is layout over the members of an object that is not windowed.
func (d *Doc) scanLayout(o *object) (multiline bool, indent string) {
	for k := len(o.members) - 1; k >= 0; k-- {
		countStep()
		if lastBreak(o.members[k].before) >= 0 {
			return true, o.memberIndent(k)
		}
	}
	if len(o.members) > 0 || (o.inlineParent && bytes.IndexByte(o.tail, '\n') < 0) {
		return false, o.indent
	}
	return true, o.indent + d.unit
}

// format renders the standard JSON value for insertion: indented with the
// document's unit, continuation lines starting with indent and using the
// document's line ending (multiline), or on one line, with a space after
// each ':' and ',' if spaced. Key order, string escapes and number
// spellings are kept; nothing is re-marshalled. value is valid (reformat
// checked it).
func (d *Doc) format(value []byte, indent string, multiline, spaced bool) []byte {
	d.style()
	st := valueStyle{multiline: multiline, spaced: spaced, nl: d.nl, indent: indent, unit: d.unit}
	size := len(value)
	if spaced || multiline {
		size += size / 4
	}
	out, _ := reformat(make([]byte, 0, size), value, &st)
	return out
}

// simpleMid reports whether mid (between a key and its value) holds only
// blanks around the colon, so that it can be copied for a new member.
func simpleMid(mid []byte) bool {
	return len(mid) > 0 && len(mid) <= 8 && bytes.Count(mid, []byte{':'}) == 1 &&
		len(bytes.Trim(mid, " \t:")) == 0
}
