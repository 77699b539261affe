package fsys

import (
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
