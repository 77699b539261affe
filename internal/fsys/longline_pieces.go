package fsys

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// A dry run's write of a large file in pieces (issue 31) keeps its new version
// unjoined; its diff joins only its window (writeHunksOf). A minified file is one
// line, and its window that line: the whole file. That line is shown cut to what
// changed (longline.go) anyway, so the diff is made of the two lines cut short on
// either side, far enough from the change that every cut the excerpts make is the
// same, and the notes are told where the cut lines stood.

// bigWindow is the size of a diff's window (in the new version) from which a window
// of one long line is cut short before it is joined (a variable for tests).
var bigWindow = 1 << 20

// lineMargin is how much of a long line is kept on either side of what its
// excerpt shows, when it is cut short: more than longLine, so that the lines cut
// short are still shown as long lines (a variable for tests).
var lineMargin = 64 << 10

// writeLongLine emits the hunk of a window that is one long line on either side,
// a[lo:aHi] and b[lo:bHi], from the two lines cut short; false (nothing emitted)
// when the window is not one line on either side, or when the excerpts would reach
// where the lines are cut.
func writeLongLine(emit func(string), a []byte, b Content, lo, aHi, bHi int) bool {
	nlA, nlB := boolInt(a[aHi-1] == '\n'), boolInt(b.Slice(bHi-1, bHi)[0] == '\n')
	aL, bL := a[lo:aHi-nlA], b.Sub(lo, bHi-nlB) // the lines without their line breaks
	if bigbuf.IndexByte(aL, '\n') >= 0 {
		return false
	}
	p, s := bL.CommonEnds(aL) // as shortened's commonEnds
	mid := bL.Slice(p, bL.Len()-s)
	if bytes.IndexByte(mid, '\n') >= 0 {
		return false // before p and after s, b's line is a's: no line break
	}
	// where shortened starts the excerpts, cutBefore(aL, at), read from c0 on: the
	// line is read once up to the change
	at := max(0, p-shortContext)
	c0 := 0
	if at > lineMargin {
		c0 = cutBefore(aL, at-lineMargin)
	}
	start := cutBetween(aL, c0, at)
	if c0 == start {
		c0 = 0 // no place to cut between: from the start
	}
	c1 := min(len(aL), len(aL)-s+longLine+shortContext+lineMargin)
	tail := len(aL) - c1 // what is cut off the end of both lines
	if c0 == 0 && tail == 0 {
		return false // nothing to cut
	}
	aT := append(bytes.Clone(aL[c0:c1]), "\n"[:nlA]...)
	bT := make([]byte, 0, bL.Len()-c0-tail+nlB)
	bT = append(append(append(bT, aL[c0:p]...), mid...), aL[len(aL)-s:c1]...)
	bT = append(bT, "\n"[:nlB]...)
	// the lines cut short are still long, and their excerpts end before the cut, as
	// they end in the whole lines
	for _, l := range [][]byte{aT[:len(aT)-nlA], bT[:len(bT)-nlB]} {
		if len(l) <= longLine {
			return false
		}
		to := min(len(l)-(s-tail), start-c0+longLine)
		if tail > 0 && cutAfter(l, start-c0, min(len(l), to+shortContext)) >= len(l) {
			return false
		}
	}
	// the notes say where the shown bytes stand in the whole lines
	shift := func(line string) string {
		var n, from, to int
		if !strings.HasPrefix(line, `\ line of `) {
			return line
		}
		if _, err := fmt.Sscanf(line, `\ line of %d bytes, shown from byte %d to %d`, &n, &from, &to); err != nil {
			return line
		}
		whole := len(aL)
		if n != len(aT)-nlA {
			whole = bL.Len()
		}
		return fmt.Sprintf(`\ line of %d bytes, shown from byte %d to %d`, whole, from+c0, to+c0)
	}
	emitHunks(func(l string) { emit(shift(l)) }, [][]byte{aT}, [][]byte{bT}, bigbuf.Count(a[:lo], '\n'))
	return true
}

// boolInt is 1 for true, 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
