package fsys

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// minified is a one-line JSON document of about n bytes, with strings that hold the
// characters cuts are made at, quotes and backslashes.
func minified(n int, extra string) string {
	var b strings.Builder
	b.WriteString(`{"projects":{`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"/p/%d":{"history":["a, {b} [c]","say \"x, y\" \\","it's"],"n":%d}`, i, i)
	}
	b.WriteString(`},"mcpServers":{"mine":{"command":"m","env":{"API_KEY":"sk-live-CONTEXT"}}` + extra + `},"tail":1}`)
	return b.String()
}

// spec: K7 K3
// TestLongLineShownShortened: the diff of a minified 1 MB file (one line) with a
// server added shows the changed part with some context, cut between tokens, and a
// note of the bytes shown — not the line twice — and costs a fraction of the file.
func TestLongLineShownShortened(t *testing.T) {
	a := minified(1<<20, "")
	b := minified(1<<20, `,"new":{"command":"n"}`)
	var out []string
	var before, after runtime.MemStats
	ab, bb := []byte(a), []byte(b)
	runtime.ReadMemStats(&before)
	writeHunks(func(l string) { out = append(out, l) }, ab, bb)
	runtime.ReadMemStats(&after)
	got := strings.Join(out, "\n")
	want := fmt.Sprintf(`@@ -1 +1 @@
-…"mcpServers":{"mine":{"command":"m","env":{"API_KEY":"sk-live-CONTEXT"}}},"tail":1}
\ line of %d bytes, shown from byte %d to %d
\ No newline at end of file
+…"mcpServers":{"mine":{"command":"m","env":{"API_KEY":"sk-live-CONTEXT"}},"new":{"command":"n"}},"tail":1}
\ line of %d bytes, shown from byte %d to %d
\ No newline at end of file`, len(a), strings.Index(a, `"mcpServers"`)+1, len(a), len(b), strings.Index(b, `"mcpServers"`)+1, len(b))
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("the diff of a %d-byte line allocated %d bytes", len(a), n)
	}
	// an unchanged long line around a change is shown by its start
	lines := "short\n" + a + "\nx\n"
	got = hunks(lines, strings.Replace(lines, "x\n", "y\n", 1))
	if !strings.HasPrefix(got, "@@ -1,3 +1,3 @@\n short\n "+`{"projects":{"/p/0":{"history":["a, {b} [c]","say \"x, y\" \\","it's"`+"…\n"+`\ line of `) {
		t.Errorf("an unchanged long line:\n%.300s", got)
	}
}

// cutsReference is what cutBefore and cutAfter must give, one byte at a time: the
// places after ',', '{', '[' and before ',', '}', ']' outside quoted strings.
func cutsReference(line []byte) (after, before []bool) {
	after, before = make([]bool, len(line)+1), make([]bool, len(line)+1)
	after[0], before[len(line)] = true, true
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ',' || c == '{' || c == '[':
			after[i+1] = true
			before[i] = before[i] || c == ','
		case c == '}' || c == ']':
			before[i] = true
		}
	}
	return after, before
}

// spec: R8 K7
// FuzzCuts: a long line is cut only between tokens — never inside a quoted string,
// where part of a credential could be shown that the redaction does not know — at the
// last place before the change and the first after it.
func FuzzCuts(f *testing.F) {
	f.Add([]byte(minified(600, "")), 300, 400)
	f.Add([]byte(`{"a":"x\",y","b":['q,r',"\\"],"c":{}}`), 10, 20)
	f.Fuzz(func(t *testing.T, line []byte, at, to int) {
		if len(line) == 0 || len(line) > 1<<12 {
			return
		}
		at, to = abs(at)%(len(line)+1), abs(to)%(len(line)+1)
		after, before := cutsReference(line)
		c := cutBefore(line, at)
		want := 0
		for i := at; i >= 0; i-- {
			if after[i] {
				want = i
				break
			}
		}
		if c != want {
			t.Fatalf("cutBefore(%q, %d) = %d, want %d", line, at, c, want)
		}
		e := cutAfter(line, c, max(to, c))
		for i := max(to, c); i <= len(line); i++ {
			if before[i] && i >= c {
				if e != i {
					t.Fatalf("cutAfter(%q, %d, %d) = %d, want %d", line, c, max(to, c), e, i)
				}
				return
			}
		}
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestLongLinesPaired: replaced long lines are shown paired in order, each cut to its
// change; an added long line without a deleted one is shown by its start.
func TestLongLinesPaired(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	x, y := minified(5000, ""), minified(6000, "")
	x2 := x[:2000] + fmt.Sprint(r.IntN(9)) + x[2000:]
	got := hunks("a\n"+x+"\n"+y+"\n", "a\n"+x2+"\n"+y+"\nz\n"+x+"\n")
	if strings.Count(got, `\ line of`) != 4 || strings.Contains(got, x) || len(got) > 2000 {
		t.Errorf("%s", got)
	}
}

// spec: K7
// TestLongChangeShownShortened: a change of a long line longer than longLine (an
// import of thousands of servers into a layer file written on one line) is shown to
// its first longLine bytes or so, cut between tokens, and the note says which.
func TestLongChangeShownShortened(t *testing.T) {
	var added strings.Builder
	for i := 0; added.Len() < 100<<10; i++ {
		fmt.Fprintf(&added, `,"s%d":{"command":"x","args":["-y","say \"a, b\""]}`, i)
	}
	a := minified(8<<10, "")
	b := minified(8<<10, added.String())
	var out []string
	writeHunks(func(l string) { out = append(out, l) }, []byte(a), []byte(b))
	if len(out) != 7 {
		t.Fatalf("%d lines:\n%.2000s", len(out), strings.Join(out, "\n"))
	}
	from := strings.Index(b, `"mcpServers"`)
	shown := strings.TrimSuffix(strings.TrimPrefix(out[4], "+…"), "…")
	if !strings.HasPrefix(b[from:], shown) || len(shown) < longLine || len(shown) > longLine+shortContext+80 {
		t.Errorf("shown %d bytes of the change: %.200s", len(shown), shown)
	}
	if end := from + len(shown); b[end] != ',' && b[end] != '}' && b[end] != ']' {
		t.Errorf("cut inside a token, before %.20q", b[end:])
	}
	if want := fmt.Sprintf(`\ line of %d bytes, shown from byte %d to %d`, len(b), from+1, from+len(shown)); out[5] != want {
		t.Errorf("note %q, want %q", out[5], want)
	}
}

// spec: K7
// TestDiffShowsFirstLines: a dry run shows the first maxDiffLines lines of a file's
// diff and says how many more there are: an import of 200,000 servers into a layer
// file adds a million lines, which nobody reads and whose credentials would take
// seconds to hide.
func TestDiffShowsFirstLines(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("{\n")
	b.WriteString("{\n")
	for i := range 3 * maxDiffLines {
		fmt.Fprintf(&b, "  \"s%d\": 1,\n", i)
	}
	a.WriteString("}\n")
	b.WriteString("}\n")
	var out []string
	writeHunks(func(l string) { out = append(out, l) }, []byte(a.String()), []byte(b.String()))
	if len(out) != 1+maxDiffLines+1 {
		t.Fatalf("%d lines", len(out))
	}
	if out[0] != fmt.Sprintf("@@ -1,2 +1,%d @@", 3*maxDiffLines+2) || out[1] != " {" || out[maxDiffLines] != fmt.Sprintf(`+  "s%d": 1,`, maxDiffLines-2) {
		t.Errorf("first lines %q, last shown %q", out[:2], out[maxDiffLines])
	}
	if want := fmt.Sprintf(`\ %d more lines of this diff not shown (a dry run shows a file's first %d)`, 3*maxDiffLines+2-maxDiffLines, maxDiffLines); out[len(out)-1] != want {
		t.Errorf("note %q, want %q", out[len(out)-1], want)
	}
	// a diff within the bound is shown whole
	if got := hunks("a\nb\n", "a\nc\n"); got != "@@ -1,2 +1,2 @@\n a\n-b\n+c\n" {
		t.Errorf("a small diff: %q", got)
	}
}

// TestLastLineBreak: the last '\n' found a block at a time is the one
// bytes.LastIndexByte finds, wherever it sits against the blocks.
func TestLastLineBreak(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 4096, 4097, 8192, 3*4096 + 7} {
		for _, at := range []int{-1, 0, 1, 4095, 4096, 4097, n / 2, n - 1} {
			x := []byte(strings.Repeat("a", n))
			if at >= 0 && at < n {
				x[at] = '\n'
				if at > 3 {
					x[at-3] = '\n' // an earlier one too
				}
			}
			if got, want := lastLineBreak(x), bytes.LastIndexByte(x, '\n'); got != want {
				t.Errorf("%d bytes, a line break at %d: %d, want %d", n, at, got, want)
			}
		}
	}
}

// TestIndexQuoteOrEscape: eight bytes at a time finds the first '"' or '\\' as a
// byte at a time does, at every offset and alignment.
func TestIndexQuoteOrEscape(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\"\\'\x00\xff\x22\x5c,")
	for range 2000 {
		line := make([]byte, rng.IntN(40))
		for i := range line {
			if rng.IntN(6) == 0 {
				line[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				line[i] = byte(rng.IntN(256))
			}
		}
		for from := 0; from <= len(line); from++ {
			want := -1
			for i := from; i < len(line); i++ {
				if line[i] == '"' || line[i] == '\\' {
					want = i
					break
				}
			}
			if got := indexQuoteOrEscape(line, from); got != want {
				t.Fatalf("indexQuoteOrEscape(%q, %d) = %d, want %d", line, from, got, want)
			}
		}
	}
}

// spec: K7
// TestLongLinesNotHashed: the diff of a minified file, one line on each side, does
// not hash its lines (two lines of different lengths are not the same line); two of
// one length are hashed once each, and lines still pair as they did.
func TestLongLinesNotHashed(t *testing.T) {
	n := 0
	hashed = &n
	defer func() { hashed = nil }()
	a := minified(1<<20, "")
	b := minified(1<<20, `,"new":{"command":"n"}`)
	if got := hunks(a, b); !strings.Contains(got, `"new":{"command":"n"}`) {
		t.Fatalf("the change is not shown:\n%.400s", got)
	}
	if n != 0 {
		t.Errorf("the diff of two lines of different lengths hashed %d bytes", n)
	}
	n = 0
	if got, want := hunks("x\nab\ncd\n", "ab\ncd\ny\n"), "@@ -1,3 +1,3 @@\n-x\n ab\n cd\n+y\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if want := 4*len("ab\n") + 2*len("x\n"); n != want { // every line shares its length with another
		t.Errorf("the lines hashed %d bytes, want each once: %d", n, want)
	}
}
