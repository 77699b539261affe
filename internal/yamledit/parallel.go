package yamledit

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"go.yaml.in/yaml/v3"
)

// The parse of a large document on every core (SPEC K7: a 1.5 MB Goose file is
// 22,000 entries of one container, `extensions:`, and yaml.v3's parse of it is most
// of the command's time). The container's entries are cut at the lines that start an
// entry, each piece is parsed as a document of its own, keeping its columns, and the
// pieces' nodes are moved to their lines in the file; the rest of the file (the
// skeleton: the lines before and after the container) is parsed on its own, and the
// pieces' entries become the container's value. Whatever is unusual declines, and the
// file is parsed whole, as before: the result of the parallel path is the tree the
// whole parse gives, or nothing (FuzzParallelParse holds the two equal).

// parallelMin is the size from which a document is parsed in pieces.
var parallelMin = 256 << 10

// parallelPieces is how many pieces the container is cut into; 0 is one a core.
var parallelPieces = 0

// beforePieces, when set (tests), is given the offsets the pieces start at once they
// are cut, before they are parsed.
var beforePieces func(cuts []int)

// piecesParsed counts the pieces parsed by the parallel path, for tests.
var piecesParsed atomic.Int64

// region is the container the parallel path cuts: the top-level key on line keyLine
// (1-based) and its entries, bytes [start, end) of the source.
type region struct {
	key        string
	keyLine    int
	start, end int
	lines      int   // line breaks in [start, end)
	entries    []int // offsets of the lines that start an entry
	seq        bool  // the entries are a block sequence's
}

// parseParallel parses src in pieces; ok is false when it declines.
func parseParallel(src []byte) (root *yaml.Node, ok bool) {
	if len(src) < parallelMin {
		return nil, false
	}
	pieces := parallelPieces
	if pieces == 0 {
		pieces = runtime.GOMAXPROCS(0)
	}
	if pieces < 2 {
		return nil, false
	}
	r, ok := findRegion(src)
	if !ok || len(r.entries) < 2 {
		return nil, false
	}
	cuts := cutPieces(r, pieces)
	if beforePieces != nil {
		beforePieces(cuts)
	}

	// The pieces, each on its own goroutine; the skeleton on this one.
	type piece struct {
		root *yaml.Node
		ok   bool
	}
	got := make([]piece, len(cuts))
	var wg sync.WaitGroup
	var faults bigbuf.Faults // src may be a mapped file (internal/bigbuf)
	for i, c := range cuts {
		end := r.end
		if i+1 < len(cuts) {
			end = cuts[i+1]
		}
		line := r.keyLine + 1 + bytes.Count(src[r.start:c], []byte{'\n'})
		wg.Add(1)
		go func() {
			defer wg.Done()
			faults.Guard(func() { got[i].root, got[i].ok = parsePiece(src[c:end], line-1, r.seq) })
		}()
	}
	skel := make([]byte, 0, len(src)-(r.end-r.start))
	skel = append(append(skel, src[:r.start]...), src[r.end:]...)
	top, err := parseWhole(skel)
	wg.Wait()
	faults.Raise()
	if err != nil || top == nil {
		return nil, false
	}
	for _, p := range got {
		if !p.ok {
			return nil, false
		}
	}

	// The skeleton's nodes after the container move down by its lines; its key's
	// value, null in the skeleton, becomes the container.
	var slot *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if k.Line == r.keyLine && k.Kind == yaml.ScalarNode && k.Value == r.key {
			slot = v
		}
	}
	if slot == nil || slot.Kind != yaml.ScalarNode || slot.Tag != "!!null" || slot.Value != "" || slot.Style != 0 {
		return nil, false
	}
	if !shiftSkeleton(top, r.keyLine, r.lines) {
		return nil, false
	}
	c, n := got[0].root, 0
	for _, p := range got {
		n += len(p.root.Content)
	}
	c.Content = append(make([]*yaml.Node, 0, n), c.Content...)
	for _, p := range got[1:] {
		c.Content = append(c.Content, p.root.Content...)
	}
	*slot = *c
	piecesParsed.Add(int64(len(got)))
	return top, true
}

// parsePiece parses one piece of the container at its columns, moves its nodes down
// by off lines, and returns its block mapping (or sequence); ok is false when the
// piece fails to parse, is not one block container, or holds anything the cut could
// change (anchors, aliases, tags, merge keys, comments).
func parsePiece(b []byte, off int, seq bool) (root *yaml.Node, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if bigbuf.Recovered(r) != nil {
				panic(r) // the file was cut short: for the caller's guard (Faults)
			}
			root, ok = nil, false
		}
	}()
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, false
	}
	root = doc.Content[0]
	want := yaml.MappingNode
	if seq {
		want = yaml.SequenceNode
	}
	if root.Kind != want || root.Style != 0 || !shiftPiece(root, off, bytes.Count(b, []byte{'\n'})) {
		return nil, false
	}
	return root, true
}

// shiftPiece moves n and the nodes under it down by off lines; false when one of
// them is something the cut could change: an empty scalar placed at the piece's end
// (yaml.v3 places one where the next token starts, in the whole file the next
// piece's first entry) is one. The piece has last line breaks.
func shiftPiece(n *yaml.Node, off, last int) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode || n.Style&yaml.TaggedStyle != 0 ||
		n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" ||
		(n.Kind == yaml.ScalarNode && n.Value == "<<") ||
		(n.Kind == yaml.ScalarNode && n.Value == "" && n.Line > last) {
		return false
	}
	n.Line += off
	for _, c := range n.Content {
		if !shiftPiece(c, off, last) {
			return false
		}
	}
	return true
}

// shiftSkeleton moves the skeleton's nodes after line keyLine down by the
// container's lines; false when the skeleton holds an anchor or an alias (an alias
// of the container's could not be resolved without it).
func shiftSkeleton(n *yaml.Node, keyLine, lines int) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return false
	}
	if n.Line > keyLine {
		n.Line += lines
	}
	for _, c := range n.Content {
		if !shiftSkeleton(c, keyLine, lines) {
			return false
		}
	}
	return true
}

// findRegion finds the container with the most bytes: a top-level key alone on its
// line (`extensions:`) followed by indented lines. Every line from that key on must
// be free of comments, tabs and anything else that would let a piece read differently
// alone; its entries start at the lines at the container's indentation.
func findRegion(src []byte) (region, bool) {
	for _, bad := range []string{"\r", "\t", "\xef\xbb\xbf", "\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9", "\x00"} {
		if bytes.Contains(src, []byte(bad)) {
			return region{}, false
		}
	}
	var best region
	line := 0
	for at := 0; at < len(src); {
		line++
		next := lineEnd(src, at)
		key, ok := bareKey(src[at:next])
		if !ok {
			at = next
			continue
		}
		r := region{key: key, keyLine: line, start: next}
		end := next
		for end < len(src) {
			e := lineEnd(src, end)
			if l := src[end:e]; !isBlank(l) && l[0] != ' ' {
				break
			}
			end = e
			r.lines++
		}
		r.end = end
		if r.end-r.start > best.end-best.start {
			best = r
		}
		line += r.lines
		at = end
	}
	if best.end == best.start || !entries(src, &best) {
		return region{}, false
	}
	// From the container's key on, nothing may be a comment, a directive or a
	// document marker: the skeleton's suffix and the pieces must read alone as they
	// do in the whole file.
	for at := lineStart(src, best.start); at < len(src); {
		e := lineEnd(src, at)
		l := src[at:e]
		if bytes.IndexByte(l, '#') >= 0 || bytes.HasPrefix(l, []byte("---")) ||
			bytes.HasPrefix(l, []byte("...")) || bytes.HasPrefix(l, []byte("%")) {
			return region{}, false
		}
		at = e
	}
	for at := 0; at < best.start; {
		e := lineEnd(src, at)
		if l := src[at:e]; bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) || bytes.HasPrefix(l, []byte("%")) {
			return region{}, false
		}
		at = e
	}
	return best, true
}

// entries finds the lines of r that start an entry: those at the indentation of its
// first line. false when a line is less indented, or one at the indentation does not
// start an entry plainly (a block sequence's "- ", or a mapping's plain key).
func entries(src []byte, r *region) bool {
	ind := -1
	for at := r.start; at < r.end; {
		e := lineEnd(src, at)
		l := src[at:e]
		at0 := at
		at = e
		if isBlank(l) {
			continue
		}
		n := len(l) - len(bytes.TrimLeft(l, " "))
		if ind < 0 {
			ind = n
			r.seq = l[n] == '-'
		}
		switch {
		case n < ind:
			return false
		case n > ind:
			continue
		}
		c := l[n]
		if r.seq {
			if c != '-' || (n+1 < len(l) && l[n+1] != ' ' && l[n+1] != '\n') {
				return false
			}
		} else if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
		r.entries = append(r.entries, at0)
	}
	return ind > 0
}

// cutPieces chooses the offsets where the pieces start: entry lines about evenly
// spaced by bytes.
func cutPieces(r region, pieces int) []int {
	cuts := []int{r.entries[0]}
	j := 0
	for i := 1; i < pieces; i++ {
		want := r.start + (r.end-r.start)*i/pieces
		for j < len(r.entries) && (r.entries[j] < want || r.entries[j] <= cuts[len(cuts)-1]) {
			j++
		}
		if j == len(r.entries) {
			break
		}
		cuts = append(cuts, r.entries[j])
	}
	return cuts
}

// bareKey reports whether l is a top-level key alone on its line: a plain key of
// letters, digits, '_', '-' and '.', then ':' and nothing else.
func bareKey(l []byte) (string, bool) {
	l = bytes.TrimRight(l, " \n")
	if len(l) < 2 || l[len(l)-1] != ':' {
		return "", false
	}
	k := l[:len(l)-1]
	for i, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' ||
			i > 0 && (c == '-' || c == '.')) {
			return "", false
		}
	}
	return string(k), true
}

// lineEnd is the offset after the line starting at at (after its '\n').
func lineEnd(src []byte, at int) int {
	if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
		return at + i + 1
	}
	return len(src)
}

// lineStart is the offset of the line before offset at (the container's key line).
func lineStart(src []byte, at int) int {
	i := bytes.LastIndexByte(src[:at-1], '\n')
	return i + 1
}

// isBlank reports whether l holds only spaces.
func isBlank(l []byte) bool {
	return len(bytes.Trim(l, " \n")) == 0
}
