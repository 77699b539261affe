package fsys

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func hunks(a, b string) string {
	var out strings.Builder
	writeHunks(func(l string) { out.WriteString(l + "\n") }, []byte(a), []byte(b))
	return out.String()
}

// spec: W9
// The expectations are GNU diff -u 3.8 output, headers removed.
func TestWriteHunks(t *testing.T) {
	tests := []struct{ name, a, b, want string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"both empty", "", "", ""},
		{"two hunks", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n", "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\nadded\n", `@@ -1,7 +1,7 @@
 a
 b
 c
-d
+D
 e
 f
 g
@@ -12,3 +12,4 @@
 l
 m
 n
+added
`},
		{"newline added at end", "x\ny", "x\ny\n", `@@ -1,2 +1,2 @@
 x
-y
\ No newline at end of file
+y
`},
		{"newline removed at end", "x\ny\n", "x\nz", `@@ -1,2 +1,2 @@
 x
-y
+z
\ No newline at end of file
`},
		{"create", "", "one\ntwo\n", "@@ -0,0 +1,2 @@\n+one\n+two\n"},
		{"delete", "one\ntwo\n", "", "@@ -1,2 +0,0 @@\n-one\n-two\n"},
		{"append", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n", "@@ -8,3 +8,4 @@\n h\n i\n j\n+k\n"},
		{"gap of six merges", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\nX\n3\n4\n5\n6\n7\n8\nY\n",
			"@@ -1,9 +1,9 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n+Y\n"},
		{"gap of seven splits", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\nY\n",
			"@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+Y\n"},
		{"insert in the middle", "a\nb\n", "a\nx\nb\n", "@@ -1,2 +1,3 @@\n a\n+x\n b\n"},
		{"delete at start", "a\nb\nc\nd\ne\n", "b\nc\nd\ne\n", "@@ -1,4 +1,3 @@\n-a\n b\n c\n d\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hunks(tt.a, tt.b); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// byteLines are lines as splitLines gives them.
func byteLines(ls []string) [][]byte {
	out := make([][]byte, len(ls))
	for i, l := range ls {
		out[i] = []byte(l)
	}
	return out
}

// checkOps verifies that ops turn a into b and returns the number of edits.
func checkOps(t *testing.T, al, bl []string, ops []op) int {
	t.Helper()
	var ra, rb []string
	edits := 0
	for _, o := range ops {
		switch o.kind {
		case ' ':
			if al[o.a] != bl[o.b] {
				t.Fatalf("kept line %d/%d differs", o.a, o.b)
			}
			ra, rb = append(ra, al[o.a]), append(rb, bl[o.b])
		case '-':
			ra = append(ra, al[o.a])
			edits++
		case '+':
			rb = append(rb, bl[o.b])
			edits++
		}
	}
	if strings.Join(ra, "") != strings.Join(al, "") || strings.Join(rb, "") != strings.Join(bl, "") {
		t.Fatal("ops do not rebuild the inputs")
	}
	return edits
}

// lcs is the textbook quadratic LCS length, for small inputs.
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func randomLines(r *rand.Rand, n, alphabet int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("l%d\n", r.IntN(alphabet))
	}
	return out
}

// spec: W9
// Small inputs get a minimal diff (Myers).
func TestLineOpsMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		al := randomLines(r, r.IntN(30), 1+r.IntN(8))
		bl := randomLines(r, r.IntN(30), 1+r.IntN(8))
		edits := checkOps(t, al, bl, lineOps(byteLines(al), byteLines(bl)))
		if want := len(al) + len(bl) - 2*lcs(al, bl); edits != want {
			t.Fatalf("%q -> %q: %d edits, want %d", al, bl, edits, want)
		}
	}
}

// spec: W9
// Large inputs stay fast and correct: scattered edits (patience anchors), and two
// unrelated files (the cost budget). Fast is counted in the search's steps, not timed
// (issue 24, H14): scattered edits of 100,000 lines take at most 10 steps a line
// (500,000 measured), and a search without anchors stays within the cost budget
// (4.3 million measured of 33.5; without the budget, 60,000 unrelated lines take
// billions).
//
// spec: W9 H14
func TestLineOpsLarge(t *testing.T) {
	scale := 1
	if raceEnabled {
		scale = 20
	}
	r := rand.New(rand.NewPCG(3, 4))
	a := make([]string, 100_000/scale) // ~3 MB
	for i := range a {
		a[i] = fmt.Sprintf("    \"key%d\": \"value %d with some padding text\",\n", i, r.IntN(1000))
	}
	b := append([]string(nil), a...)
	for range 2000 / scale {
		b[r.IntN(len(b))] = "changed\n"
	}
	b = append(b[:500], append([]string{"inserted\n", "}\n", "}\n"}, b[500:]...)...)

	check := func(what string, al, bl []string, limit int) int {
		ops, steps := lineOpsSteps(byteLines(al), byteLines(bl))
		t.Logf("%s: %d steps", what, steps)
		if steps > limit {
			t.Errorf("%s, %d and %d lines: %d steps, want at most %d", what, len(al), len(bl), steps, limit)
		}
		return checkOps(t, al, bl, ops)
	}
	if edits := check("scattered edits", a, b, 10*(len(a)+len(b))); edits > (4000/scale+3)*2 {
		t.Errorf("%d edits for ~2000 changed lines", edits)
	}
	unrelated := randomLines(r, 60_000/scale, 50) // few unique lines: no anchors
	check("unrelated", a[:60_000/scale], unrelated, costBudget)
	x, y := randomLines(r, 50_000/scale, 50), randomLines(r, 50_000/scale, 50) // many matches, no anchors
	check("many matches", x, y, costBudget)
}

// spec: W9
// The output is a patch GNU patch applies (when it is installed).
func TestHunksApplyWithPatch(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("patch not installed")
	}
	r := rand.New(rand.NewPCG(5, 6))
	dir := t.TempDir()
	for i := range 50 {
		a := strings.Join(randomLines(r, r.IntN(60), 1+r.IntN(20)), "")
		b := strings.Join(randomLines(r, r.IntN(60), 1+r.IntN(20)), "")
		if i%3 == 0 && len(a) > 0 {
			a = a[:len(a)-1] // no final newline
		}
		if i%4 == 0 && len(b) > 0 {
			b = b[:len(b)-1]
		}
		h := hunks(a, b)
		if h == "" {
			continue
		}
		f := filepath.Join(dir, "f")
		if err := os.WriteFile(f, []byte(a), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(patch, "-s", "-u", f)
		cmd.Stdin = strings.NewReader("--- a/f\n+++ b/f\n" + h)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch: %v\n%s\n%s", err, out, h)
		}
		got, _ := os.ReadFile(f)
		if string(got) != b {
			t.Fatalf("patched %q, want %q\n%s", got, b, h)
		}
	}
}

func BenchmarkDiff3MB(b *testing.B) {
	a := make([]string, 100_000)
	for i := range a {
		a[i] = fmt.Sprintf("    \"key%d\": \"value\",\n", i)
	}
	c := append([]string(nil), a...)
	for i := 0; i < len(c); i += 1000 {
		c[i] = "changed\n"
	}
	x, y := []byte(strings.Join(a, "")), []byte(strings.Join(c, ""))
	for b.Loop() {
		writeHunks(func(string) {}, x, y)
	}
}

// spec: W9
// Diffing only the window around the changes gives the hunks of the whole files:
// random edits (lines changed, added, removed, a last line without a newline) of
// random files compared with the hunks of every line.
func TestWriteHunksWindowIsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 3000 {
		al := randomLines(r, r.IntN(40), 1+r.IntN(6))
		bl := append([]string(nil), al...)
		for range 1 + r.IntN(3) {
			k := r.IntN(len(bl) + 1)
			switch r.IntN(3) {
			case 0:
				bl = append(bl[:k], append([]string{fmt.Sprintf("n%d\n", r.IntN(4))}, bl[k:]...)...)
			case 1:
				if k < len(bl) {
					bl = append(bl[:k], bl[k+1:]...)
				}
			default:
				if k < len(bl) {
					bl[k] = fmt.Sprintf("c%d\n", r.IntN(3))
				}
			}
		}
		a, b := strings.Join(al, ""), strings.Join(bl, "")
		if r.IntN(4) == 0 && len(b) > 0 {
			b = b[:len(b)-1]
		}
		if r.IntN(4) == 0 && len(a) > 0 {
			a = a[:len(a)-1]
		}
		var whole strings.Builder
		emitHunks(func(l string) { whole.WriteString(l + "\n") }, splitLines([]byte(a)), splitLines([]byte(b)), 0)
		if got := hunks(a, b); got != whole.String() {
			t.Fatalf("case %d: %q -> %q\nwindow:\n%s\nwhole:\n%s", i, a, b, got, whole.String())
		}
	}
}
