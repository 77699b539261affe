package yamledit

import "bytes"

// lineTable is where each line of the source starts.
type lineTable struct {
	src    []byte
	starts []int // starts[i] is the offset of line i+1; a final entry is len(src)
}

func newLineTable(src []byte) lineTable {
	if len(src) == 0 {
		return lineTable{src: src, starts: []int{0}}
	}
	starts := make([]int, 1, bytes.Count(src, []byte("\n"))+2) // allocated once (K7)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 || i+j+1 == len(src) {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return lineTable{src: src, starts: append(starts, len(src))}
}

// count is the number of lines.
func (t lineTable) count() int { return len(t.starts) - 1 }

// start is the offset where 1-based line l starts (len(src) past the last line).
func (t lineTable) start(l int) int {
	if l < 1 {
		return 0
	}
	if l > t.count() {
		return len(t.src)
	}
	return t.starts[l-1]
}

// text is line l without its line terminator.
func (t lineTable) text(l int) []byte {
	b := t.src[t.start(l):t.start(l+1)]
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// lineKind says what a line holds.
type lineKind int

const (
	blankLine lineKind = iota
	commentLine
	contentLine
)

// classify returns what line l holds and, for content, its indentation (spaces
// before the first character).
func (t lineTable) classify(l int) (lineKind, int) {
	b := t.text(l)
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	switch {
	case i == len(b):
		return blankLine, 0
	case b[i] == '#':
		return commentLine, i
	}
	return contentLine, i
}

// seqItem reports whether line l's content is a sequence entry ("-" then a space or
// the end of the line) at indentation col.
func (t lineTable) seqItem(l, col int) bool {
	b := t.text(l)
	return len(b) > col && b[col] == '-' && (len(b) == col+1 || b[col+1] == ' ')
}

// lastContent returns the last line in [from, to) with content, or from-1 when none
// has: the lines after it (blank lines, comments) are not an entry's own.
func (t lineTable) lastContent(from, to int) int {
	for l := to - 1; l >= from; l-- {
		if k, _ := t.classify(l); k == contentLine {
			return l
		}
	}
	return from - 1
}

// blockEnd returns the line after the block that starts on line first at indentation
// indent: the first later line with content at indentation indent or less (a
// sequence entry at indent itself continues the block when seqAtIndent is set: a
// mapping member whose value is a sequence written at the key's own indentation).
func (t lineTable) blockEnd(first, indent int, seqAtIndent bool) int {
	for l := first + 1; l <= t.count(); l++ {
		k, ind := t.classify(l)
		if k != contentLine || ind > indent {
			continue
		}
		if ind == indent && seqAtIndent && t.seqItem(l, indent) {
			continue
		}
		return l
	}
	return t.count() + 1
}
