package yamledit

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// withParallel sets the parallel path's threshold and pieces for one test.
func withParallel(tb testing.TB, min, pieces int) {
	tb.Helper()
	oldMin, oldPieces := parallelMin, parallelPieces
	parallelMin, parallelPieces = min, pieces
	tb.Cleanup(func() { parallelMin, parallelPieces = oldMin, oldPieces })
}

// continueFile is a Continue config.yaml of n servers in a block sequence.
func continueFile(n int) []byte {
	var b bytes.Buffer
	b.WriteString("name: bench\nversion: 0.0.1\nschema: v1\nmcpServers:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: s%d\n    command: x\n    args:\n      - -y\n      - pkg\n    env: {A: \"1\"}\n", i)
	}
	b.WriteString("models: []\n")
	return b.Bytes()
}

// parallelSeeds are layouts at the edges of what the parallel path takes.
var parallelSeeds = []string{
	"ext:\n  a: 1\n  b: 2\n  c:\n    d: [1, 2]\nz: 3\n",
	"# c\nk: v\next:\n  a:\n    x:\n  b:\n\n  c: 1\n\n\nz:\n  q: 1\n",
	"ext:\n  a: {x: 1,\n  y: 2}\n  b: 1\n  c: 2\n",
	"ext:\n  a: \"x\n  b: y\"\n  c: 1\n  d: 2\n",
	"ext:\n  a: |\n    t\n  b: >\n    u\n\n  c: 'q\n    r'\n  d: 1\n",
	"ext:\n  a: 1\n  b: &x 2\n  c: *x\n  d: 1\n",
	"ext:\n  a: 1\n  <<: {x: 1}\n  c: !!str 2\n  d: 1\n",
	"ext:\n  a: 1 # c\n  b: 2\n  c: 3\n",
	"ext:\n  a: 1\n  b: 2\n---\nz: 1\n",
	"ext:\n  - name: a\n    v: 1\n  - name: b\n  -\n    name: c\n  - d\n",
	"ext:\n  - a\n  - b\n  c: 1\n",
	"ext:\n  a: 1\n b: 2\n  c: 3\n",
	"ext:\n  a: 1\n  a: 2\n  a: 3\n",
	"ext:\n  a:\n    - 1\n  b:\n  - 2\n  c: 3\n",
	"ext:\n    a: 1\n    b: 2\n  c: 3\n",
	"a: 1\next:\n  a: 1\n  b: 2\next2:\n  c: 1\n  d: 2\n  e: 3\n",
	"ext:\n  a: 1\n  b: 2\n  c: 3",
	"ext:\n  a: 1\n  ? b\n  : 2\n  c: 3\n",
	"ext:\n  a: 1\n  b:\n    c: 3\n    ? x\n  d: y\n",
}

// FuzzParallelParse: for any document, the parallel parse either declines or gives
// the tree the whole parse gives (every node's kind, tag, value, style, line,
// column, comments and content), and never succeeds where the whole parse fails.
//
// spec: K7
func FuzzParallelParse(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s, uint8(2))
	}
	for _, s := range parallelSeeds {
		f.Add([]byte(s), uint8(2))
		f.Add([]byte(s), uint8(3))
	}
	f.Add(gooseFile(8<<10), uint8(3))
	f.Add(continueFile(40), uint8(4))
	f.Fuzz(func(t *testing.T, src []byte, pieces uint8) {
		withParallel(t, 0, 2+int(pieces%6))
		checkParallel(t, bytes.TrimPrefix(src, utf8BOM))
	})
}

// checkParallel fails when the parallel parse of src differs from the whole parse;
// it reports whether the parallel path took the document.
func checkParallel(t *testing.T, src []byte) bool {
	t.Helper()
	want, err := parseWhole(src)
	got, ok := parseParallel(src)
	switch {
	case !ok:
		return false
	case err != nil:
		t.Fatalf("the parallel parse took a document the whole parse refuses (%v):\n%s", err, src)
	case !reflect.DeepEqual(got, want):
		t.Fatalf("the parallel parse differs from the whole parse: %s\n%s", nodeDiff(got, want, "root"), src)
	}
	return true
}

// nodeDiff names the first node where a and b differ.
func nodeDiff(a, b *yaml.Node, at string) string {
	if a == nil || b == nil {
		return fmt.Sprintf("%s: %v / %v", at, a, b)
	}
	sa, sb := *a, *b
	sa.Content, sb.Content = nil, nil
	if !reflect.DeepEqual(sa, sb) {
		return fmt.Sprintf("%s: %+v\n  whole: %+v", at, sa, sb)
	}
	if len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %d children, whole %d", at, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if d := nodeDiff(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// TestParallelParse: the layouts the parallel path is for are taken, in as many
// pieces as asked, to the whole parse's tree; the others decline. The pieces are
// counted, so a path that always declined would fail here.
//
// spec: K7
func TestParallelParse(t *testing.T) {
	goose := gooseFile(300 << 10)
	cases := []struct {
		name   string
		src    []byte
		pieces int
		taken  bool
	}{
		{"goose file", goose, 4, true},
		{"goose file, two pieces", goose, 2, true},
		{"continue list", continueFile(5000), 3, true},
		{"small file", []byte("ext:\n  a: 1\n  b: 2\n"), 2, false},
		{"comment in the container", append(bytes.Clone(goose), "  # last\n"...), 2, false},
		{"anchor", bytes.Replace(goose, []byte("own7:"), []byte("own7: &a"), 1), 2, false},
		{"one core", goose, 1, false},
		{"crlf", bytes.ReplaceAll(goose, []byte("\n"), []byte("\r\n")), 2, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withParallel(t, 256<<10, c.pieces)
			before := piecesParsed.Load()
			if taken := checkParallel(t, c.src); taken != c.taken {
				t.Fatalf("parallel path taken: %v, want %v", taken, c.taken)
			}
			if n := piecesParsed.Load() - before; c.taken && n != int64(c.pieces) {
				t.Fatalf("%d pieces parsed, want %d", n, c.pieces)
			}
		})
	}
}

// TestParseGooseInPieces: Parse of a large Goose file goes through the parallel
// path and gives the document the whole parse gives.
//
// spec: K7
func TestParseGooseInPieces(t *testing.T) {
	withParallel(t, 256<<10, 2)
	src := gooseFile(300 << 10)
	before := piecesParsed.Load()
	d, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if n := piecesParsed.Load() - before; n != 2 {
		t.Fatalf("%d pieces parsed, want 2", n)
	}
	want, _ := parseWhole(src)
	if !reflect.DeepEqual(d.root, want) {
		t.Fatal(nodeDiff(d.root, want, "root"))
	}
	ext, ok := d.Lookup("extensions", "own1000", "name")
	if !ok || ext != "own1000" {
		t.Fatalf("extensions.own1000.name = %v, %v", ext, ok)
	}
}
