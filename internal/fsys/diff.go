package fsys

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"sort"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// diffContext is the number of unchanged lines shown around a change, as diff -u.
const diffContext = 3

// Tuning of the line diff. Regions up to smallRegion lines are diffed with plain
// Myers (exact); larger ones are first split on lines unique to both sides (patience
// diff). A Myers search stops after about costBudget steps and reports the region
// as replaced, which keeps huge, completely different inputs fast.
const (
	smallRegion = 2000
	costBudget  = 1 << 25
)

// writeHunks emits the @@ hunks of a unified diff turning a into b, one line per call.
// A last line without a newline is followed by "\ No newline at end of file".
//
// Only the changed region is split into lines and diffed (see window): a small edit
// of a 50 MB file costs a pass over its bytes, not a table of its lines (issue 11).
func writeHunks(emit func(string), a, b []byte) {
	writeHunksOf(emit, a, ContentOf(b))
}

// writeHunksOf is writeHunks of a new version b that may be in pieces: only its
// window (what changed and its context) is read, and joined (a dry run of a 50 MB
// file written in pieces, issue 31).
func writeHunksOf(emit func(string), a []byte, b Content) {
	lo, aHi, bHi := window(a, b)
	if b.Split() && bHi-lo > bigWindow && aHi > lo && writeLongLine(emit, a, b, lo, aHi, bHi) {
		return // one long line, cut short on either side (longline_pieces.go)
	}
	skipped := bigbuf.Count(a[:lo], '\n') // lines before the window, the same on both sides
	emitHunks(emit, splitLines(a[lo:aHi]), splitLines(b.Slice(lo, bHi)), skipped)
}

// emitHunks emits the hunks turning the lines al into bl; skipped is the number of
// lines before them. At most maxDiffLines lines of a file are shown (see
// maxDiffLines); a note says how many more there are.
func emitHunks(emit func(string), al, bl [][]byte, skipped int) {
	ops := lineOps(al, bl)
	hunks := hunkRanges(ops)
	budget := maxDiffLines
	for k, h := range hunks {
		n := h[1] - h[0]
		if n > budget {
			rest := n - budget
			for _, h := range hunks[k+1:] {
				rest += h[1] - h[0]
			}
			emitHunk(emit, ops[h[0]:h[1]], al, bl, skipped, budget)
			emit(fmt.Sprintf(`\ %d more lines of this diff not shown (a dry run shows a file's first %d)`, rest, maxDiffLines))
			return
		}
		emitHunk(emit, ops[h[0]:h[1]], al, bl, skipped, n)
		budget -= n
	}
}

// maxDiffLines is how many lines of a file's diff a dry run shows (K7): enough for any
// edit a person reads line by line, and the first servers of an import of 200,000,
// whose diff of a million lines nobody reads, and which would cost seconds to hide
// the credentials of.
const maxDiffLines = 1000

// hunkRanges are the hunks of an edit script: ranges of ops, each a change with up to
// diffContext lines of context on either side, changes less than 2*diffContext lines
// apart in one hunk.
func hunkRanges(ops []op) [][2]int {
	var out [][2]int
	for start := 0; start < len(ops); {
		// Find the next change.
		first := start
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		// Extend the hunk while the next change is at most 2*context lines away.
		last := first
		for i := first; i < len(ops); i++ {
			if ops[i].kind != ' ' {
				last = i
			} else if i-last > 2*diffContext {
				break
			}
		}
		lo := max(first-diffContext, start, 0)
		hi := min(last+diffContext+1, len(ops))
		out = append(out, [2]int{lo, hi})
		start = hi
	}
	return out
}

// window returns the part of a and b the hunks are made of, a[lo:aHi] and b[lo:bHi]:
// the whole lines from diffContext lines before the first line that differs to
// diffContext lines after the last one. The lines outside it are the same on both
// sides and too far from a change to be shown, so diffing the window gives the hunks
// of the whole files.
func window(a []byte, b Content) (lo, aHi, bHi int) {
	n, m := b.CommonEnds(a)
	pre := lastLineBreak(a[:n]) + 1 // the start of the first line that differs
	// the common suffix of a[pre:] and b[pre:], which may reach back before n
	if m == min(len(a), b.Len())-n {
		for m < min(len(a), b.Len())-pre && a[len(a)-1-m] == b.Slice(b.Len()-1-m, b.Len()-m)[0] {
			m++
		}
	}
	// The common suffix counts from a line start on both sides: else from the line
	// after its first newline.
	if sa, sb := len(a)-m, b.Len()-m; !lineStart(a, sa, pre) || !(sb == pre || b.Slice(sb-1, sb)[0] == '\n') {
		if j := bigbuf.IndexByte(a[sa:], '\n'); j >= 0 {
			m -= j + 1
		} else {
			m = 0
		}
	}
	// after len(a)-m, a and b are the same: b's lines end where a's do
	aHi = linesOn(a, len(a)-m, diffContext)
	return linesBack(a, pre, diffContext), aHi, aHi - len(a) + b.Len()
}

// lineStart reports whether offset i of x starts a line, the region starting at from.
func lineStart(x []byte, i, from int) bool { return i == from || x[i-1] == '\n' }

// linesBack returns the start of the line k lines before the line that starts at i.
func linesBack(x []byte, i, k int) int {
	for ; k > 0 && i > 0; k-- {
		i = lastLineBreak(x[:i-1]) + 1
	}
	return i
}

// linesOn returns the end of the k lines that start at the line start i.
func linesOn(x []byte, i, k int) int {
	for ; k > 0 && i < len(x); k-- {
		j := bigbuf.IndexByte(x[i:], '\n')
		if j < 0 {
			return len(x)
		}
		i += j + 1
	}
	return i
}

// lastLineBreak returns the offset of the last '\n' in x, or -1. bytes.LastIndexByte
// reads a byte at a time, 20 ms for the one line of a minified 50 MB file (K7);
// bytes.IndexByte, which reads many at once, tells which block holds one.
func lastLineBreak(x []byte) int {
	if bigbuf.IsMapped(x) {
		return bigbuf.LastIndexByte(x, '\n') // a mapped file, its pages dropped behind
	}
	const block = 4096
	for end := len(x); end > 0; end -= block {
		from := max(0, end-block)
		if bytes.IndexByte(x[from:end], '\n') >= 0 {
			return from + bytes.LastIndexByte(x[from:end], '\n')
		}
	}
	return -1
}

// op is one line of an edit script: ' ' keeps a[a] (= b[b]), '-' deletes a[a],
// '+' inserts b[b]. a and b are the positions in each side before the op.
type op struct {
	kind byte
	a, b int
}

// emitHunk emits one hunk, its first show lines; skipped is the number of lines
// before al and bl. A line longer than longLine is shown shortened to what changed in
// it (longline.go).
func emitHunk(emit func(string), ops []op, al, bl [][]byte, skipped, show int) {
	var na, nb int
	for _, o := range ops {
		if o.kind != '+' {
			na++
		}
		if o.kind != '-' {
			nb++
		}
	}
	emit(fmt.Sprintf("@@ -%s +%s @@", hunkRange(skipped+ops[0].a, na), hunkRange(skipped+ops[0].b, nb)))
	shown := shortened(ops, al, bl)
	for i, o := range ops[:show] {
		var line []byte
		switch o.kind {
		case ' ', '-':
			line = al[o.a]
		case '+':
			line = bl[o.b]
		}
		text, hasNL := bytes.CutSuffix(line, []byte("\n"))
		if x, ok := shown[i]; ok {
			emit(string(o.kind) + x.text)
			emit(x.note)
		} else {
			emit(string(o.kind) + string(text))
		}
		if !hasNL {
			emit(`\ No newline at end of file`)
		}
	}
}

// hunkRange formats the range of a hunk header: start is the 0-based index of the
// first line, so an empty range names the line before it, as diff -u does.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits data after each newline, into slices of it (nothing is copied: a
// minified 50 MB file is one line); a last line without one is kept.
func splitLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineOps returns an edit script turning al into bl.
func lineOps(al, bl [][]byte) []op {
	ops, _ := lineOpsSteps(al, bl)
	return ops
}

// lineOpsSteps is lineOps, and the steps its search took: lines compared and
// positions of the search visited, the work a test bounds instead of the time.
func lineOpsSteps(al, bl [][]byte) ([]op, int) {
	// A line is hashed only when another line has its length: the one line of a
	// minified 50 MB file and its new version are not (K7: 12 ms of hashing).
	seed := maphash.MakeSeed()
	type sameLength struct {
		first  int              // the id of the first line of the length
		byHash map[uint64][]int // the ids of each hash, once a second line has the length
	}
	byLen := map[int]*sameLength{}
	var lines [][]byte // a line of each id
	intern := func(ls [][]byte) []int {
		out := make([]int, len(ls))
		for i, l := range ls {
			sl := byLen[len(l)]
			if sl == nil {
				out[i] = len(lines)
				byLen[len(l)] = &sameLength{first: len(lines)}
				lines = append(lines, l)
				continue
			}
			if sl.byHash == nil {
				sl.byHash = map[uint64][]int{hashLine(seed, lines[sl.first]): {sl.first}}
			}
			h := hashLine(seed, l)
			id := -1
			for _, c := range sl.byHash[h] {
				if bytes.Equal(lines[c], l) {
					id = c
					break
				}
			}
			if id < 0 {
				id = len(lines)
				lines = append(lines, l)
				sl.byHash[h] = append(sl.byHash[h], id)
			}
			out[i] = id
		}
		return out
	}
	d := &differ{a: intern(al), b: intern(bl)}
	d.diff(0, len(d.a), 0, len(d.b))

	ops := make([]op, 0, len(al)+len(bl))
	i, j := 0, 0
	for _, m := range append(d.matches, [2]int{len(al), len(bl)}) {
		for ; i < m[0]; i++ {
			ops = append(ops, op{'-', i, j})
		}
		for ; j < m[1]; j++ {
			ops = append(ops, op{'+', i, j})
		}
		if i < len(al) {
			ops = append(ops, op{' ', i, j})
			i, j = i+1, j+1
		}
	}
	return ops, d.steps
}

// hashLine hashes a line for lineOps, counting the bytes in hashed when a test sets it.
func hashLine(seed maphash.Seed, l []byte) uint64 {
	if hashed != nil {
		*hashed += len(l)
	}
	return maphash.Bytes(seed, l)
}

// hashed counts the bytes of lines lineOps hashes, when a test sets it (K7).
var hashed *int

// differ finds matching lines of a and b (interned line ids), appending them to
// matches in increasing order.
type differ struct {
	a, b    []int
	matches [][2]int
	steps   int // lines compared and search positions visited
}

func (d *differ) match(i, j int) { d.matches = append(d.matches, [2]int{i, j}) }

// diff matches a[alo:ahi] against b[blo:bhi].
func (d *differ) diff(alo, ahi, blo, bhi int) {
	for alo < ahi && blo < bhi && d.a[alo] == d.b[blo] {
		d.match(alo, blo)
		alo, blo = alo+1, blo+1
	}
	suffix := 0
	for alo < ahi-suffix && blo < bhi-suffix && d.a[ahi-1-suffix] == d.b[bhi-1-suffix] {
		suffix++
	}
	d.steps += (ahi - alo) + suffix + 1
	ahi, bhi = ahi-suffix, bhi-suffix
	if alo < ahi && blo < bhi {
		if (ahi-alo)+(bhi-blo) <= smallRegion || !d.patience(alo, ahi, blo, bhi) {
			d.bisect(alo, ahi, blo, bhi)
		}
	}
	for k := range suffix {
		d.match(ahi+k, bhi+k)
	}
}

// patience anchors the region on the longest increasing run of lines that occur
// exactly once on each side and diffs the gaps between anchors. It reports false,
// doing nothing, when there is no such line.
func (d *differ) patience(alo, ahi, blo, bhi int) bool {
	type seen struct{ na, nb, j int }
	count := make(map[int]*seen)
	for i := alo; i < ahi; i++ {
		s := count[d.a[i]]
		if s == nil {
			s = &seen{}
			count[d.a[i]] = s
		}
		s.na++
	}
	for j := blo; j < bhi; j++ {
		if s := count[d.b[j]]; s != nil {
			s.nb++
			s.j = j
		}
	}
	var pairs [][2]int
	for i := alo; i < ahi; i++ {
		if s := count[d.a[i]]; s.na == 1 && s.nb == 1 {
			pairs = append(pairs, [2]int{i, s.j})
		}
	}
	d.steps += 2*(ahi-alo) + (bhi - blo)
	anchors := longestIncreasing(pairs)
	if len(anchors) == 0 {
		return false
	}
	pa, pb := alo, blo
	for _, p := range anchors {
		d.diff(pa, p[0], pb, p[1])
		d.match(p[0], p[1])
		pa, pb = p[0]+1, p[1]+1
	}
	d.diff(pa, ahi, pb, bhi)
	return true
}

// longestIncreasing returns the longest subsequence of pairs (sorted by [0]) whose
// [1] increases, by patience sorting.
func longestIncreasing(pairs [][2]int) [][2]int {
	var tops []int // index into pairs of the top card of each pile
	prev := make([]int, len(pairs))
	for k, p := range pairs {
		pile := sort.Search(len(tops), func(t int) bool { return pairs[tops[t]][1] > p[1] })
		prev[k] = -1
		if pile > 0 {
			prev[k] = tops[pile-1]
		}
		if pile == len(tops) {
			tops = append(tops, k)
		} else {
			tops[pile] = k
		}
	}
	if len(tops) == 0 {
		return nil
	}
	out := make([][2]int, len(tops))
	for k, i := len(tops)-1, tops[len(tops)-1]; k >= 0; k, i = k-1, prev[i] {
		out[k] = pairs[i]
	}
	return out
}

// bisect finds the middle snake of the region with Myers' linear-space algorithm and
// diffs both halves. When no path is found within the cost budget the region keeps no
// match (it is shown as replaced). The region is non-empty on both sides and its
// first and last lines differ.
func (d *differ) bisect(alo, ahi, blo, bhi int) {
	n, m := ahi-alo, bhi-blo
	maxD := (n + m + 1) / 2
	limit := min(maxD, max(smallRegion, costBudget/(n+m)))
	off := limit + 1
	vlen := 2*off + 1
	v1, v2 := make([]int, vlen), make([]int, vlen)
	for k := range v1 {
		v1[k], v2[k] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - m
	front := delta%2 != 0
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for step := 0; step < limit; step++ {
		for k1 := -step + k1start; k1 <= step-k1end; k1 += 2 {
			k1o := off + k1
			var x1 int
			if k1 == -step || (k1 != step && v1[k1o-1] < v1[k1o+1]) {
				x1 = v1[k1o+1]
			} else {
				x1 = v1[k1o-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < m && d.a[alo+x1] == d.b[blo+y1] {
				x1, y1 = x1+1, y1+1
				d.steps++
			}
			d.steps++
			v1[k1o] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > m:
				k1start += 2
			case front:
				k2o := off + delta - k1
				if k2o >= 0 && k2o < vlen && v2[k2o] != -1 && x1 >= n-v2[k2o] {
					d.split(alo, ahi, blo, bhi, x1, y1)
					return
				}
			}
		}
		for k2 := -step + k2start; k2 <= step-k2end; k2 += 2 {
			k2o := off + k2
			var x2 int
			if k2 == -step || (k2 != step && v2[k2o-1] < v2[k2o+1]) {
				x2 = v2[k2o+1]
			} else {
				x2 = v2[k2o-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < m && d.a[ahi-1-x2] == d.b[bhi-1-y2] {
				x2, y2 = x2+1, y2+1
				d.steps++
			}
			d.steps++
			v2[k2o] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				k1o := off + delta - k2
				if k1o >= 0 && k1o < vlen && v1[k1o] != -1 {
					x1 := v1[k1o]
					y1 := off + x1 - k1o
					if x1 >= n-x2 {
						d.split(alo, ahi, blo, bhi, x1, y1)
						return
					}
				}
			}
		}
	}
}

// split diffs the two halves of a region cut at (x, y); a cut at a corner would not
// make progress, so the region is then left unmatched.
func (d *differ) split(alo, ahi, blo, bhi, x, y int) {
	if (x == 0 && y == 0) || (alo+x == ahi && blo+y == bhi) {
		return
	}
	d.diff(alo, alo+x, blo, blo+y)
	d.diff(alo+x, ahi, blo+y, bhi)
}
