package fsys

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestContentEqual(t *testing.T) {
	abc := []byte("abcdef")
	tests := []struct {
		name string
		c    Content
		b    []byte
		want bool
	}{
		{"one, same", ContentOf(abc), []byte("abcdef"), true},
		{"pieces, same", PiecesOf([][]byte{abc[:2], nil, abc[2:5], abc[5:]}), []byte("abcdef"), true},
		{"pieces, shorter", PiecesOf([][]byte{abc[:2], abc[2:5]}), []byte("abcdef"), false},
		{"pieces, one byte differs", PiecesOf([][]byte{abc[:2], []byte("cdx")}), []byte("abcde"), false},
		{"empty", PiecesOf(nil), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Equal(tt.b); got != tt.want {
				t.Errorf("Equal = %v, want %v", got, tt.want)
			}
			if got := tt.c.SameAs(ContentOf(tt.b)); got != tt.want {
				t.Errorf("SameAs(one) = %v, want %v", got, tt.want)
			}
			split := PiecesOf([][]byte{tt.b[:len(tt.b)/2], tt.b[len(tt.b)/2:]})
			if got := tt.c.SameAs(split); got != tt.want {
				t.Errorf("SameAs(pieces) = %v, want %v", got, tt.want)
			}
			if got := bytes.Equal(tt.c.Bytes(), tt.b); got != tt.want {
				t.Errorf("Bytes = %q, want %q: %v", tt.c.Bytes(), tt.b, tt.want)
			}
			var buf bytes.Buffer
			if n, err := tt.c.WriteTo(&buf); err != nil || n != int64(tt.c.Len()) || !bytes.Equal(buf.Bytes(), tt.c.Bytes()) {
				t.Errorf("WriteTo = %d, %v, %q", n, err, buf.Bytes())
			}
		})
	}
}

// spliceEdit inserts mark in the middle of the file, giving the content in pieces
// that are slices of the snapshot (as a large JSON file's edit does).
func spliceEdit(mark string, edits *int) func(Snapshot) (Content, fs.FileMode, bool, error) {
	return func(cur Snapshot) (Content, fs.FileMode, bool, error) {
		*edits++
		k := len(cur.Data) / 2
		return PiecesOf([][]byte{cur.Data[:k], []byte(mark), cur.Data[k:]}), 0, false, nil
	}
}

// bigFile writes a file of n bytes (more than a write chunk: the pieces are written
// a chunk at a time) and returns its path and content.
func bigFile(t *testing.T, n int) (string, []byte) {
	t.Helper()
	data := bytes.Repeat([]byte("0123456789abcdef"), n/16)
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// spec: W3
// TestApplyWritesContentInPieces: a target whose EditContent gives pieces gets
// exactly their bytes, through a temporary file written a chunk at a time (the
// "partial" step between two chunks, where a crash test kills), with the mode kept.
func TestApplyWritesContentInPieces(t *testing.T) {
	path, data := bigFile(t, 3*writeChunk)
	var stages []string
	f := NewOSWith(OSOptions{AfterStep: func(stage, _ string) { stages = append(stages, stage) }})
	edits := 0
	res, err := Apply(f, []Target{{Path: path, EditContent: spliceEdit("NEW", &edits)}})
	if err != nil {
		t.Fatal(err)
	}
	k := len(data) / 2
	want := string(data[:k]) + "NEW" + string(data[k:])
	if got := fileState(t, path); got != state(0o600, want) {
		t.Errorf("file = %.40q…, want %.40q…", got, state(0o600, want))
	}
	if len(res) != 1 || !res[0].Changed || res[0].New != nil {
		t.Errorf("results = changed %v, New of %d bytes; want changed, New nil (in pieces)", res[0].Changed, len(res[0].New))
	}
	if !strings.Contains(strings.Join(stages, " "), "temp partial synced") {
		t.Errorf("steps %q, want temp, partial, synced in order", stages)
	}
	noTemp(t, filepath.Dir(path))
}

// spec: W8
// TestApplyContentSeesAnotherWriter: while the pieces of an edit are being written,
// another program changes one byte of the file far from the edited region, keeping
// its size: the compare-before-rename still finds it (the pieces are slices of the
// file as read, not the file), the edit is made again from the new file, and the
// other program's byte is kept.
func TestApplyContentSeesAnotherWriter(t *testing.T) {
	path, data := bigFile(t, 2*writeChunk)
	changed := false
	f := NewOSWith(OSOptions{AfterStep: func(stage, _ string) {
		if stage != "synced" || changed {
			return
		}
		changed = true
		other := bytes.Clone(data)
		other[10] = 'Z'
		if err := os.WriteFile(path, other, 0o600); err != nil {
			t.Error(err)
		}
	}})
	edits := 0
	if _, err := Apply(f, []Target{{Path: path, EditContent: spliceEdit("NEW", &edits)}}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k := len(data) / 2
	if !changed || edits < 2 || got[10] != 'Z' || string(got[k:k+3]) != "NEW" || len(got) != len(data)+3 {
		t.Errorf("changed %v, %d edits, byte 10 %q, %q at the middle, %d bytes: the other write was lost", changed, edits, got[10], got[k:k+3], len(got))
	}
	noTemp(t, filepath.Dir(path))
}

// allocBytes is how many bytes fn allocates.
func allocBytes(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// spec: K7
// TestApplyContentIsNotJoined: writing an edit given in pieces allocates, beyond the
// read of the file, a small part of it: the new content is never built in one
// buffer (before: once more the file).
func TestApplyContentIsNotJoined(t *testing.T) {
	path, data := bigFile(t, 8<<20)
	read := allocBytes(func() {
		if _, err := ReadSnapshot(OS{}, path); err != nil {
			t.Fatal(err)
		}
	})
	edits := 0
	got := allocBytes(func() {
		if _, err := Apply(OS{}, []Target{{Path: path, EditContent: spliceEdit("NEW", &edits)}}); err != nil {
			t.Fatal(err)
		}
	})
	if limit := read + uint64(len(data))/4; got > limit {
		t.Errorf("allocated %d bytes for a file of %d, want at most %d (its read, %d, and a little)", got, len(data), limit, read)
	}
}

func TestContentSliceAndCommonEnds(t *testing.T) {
	old := []byte("0123456789")
	tests := []struct {
		name         string
		c            Content
		prefix, suff int
	}{
		{"same", PiecesOf([][]byte{old[:3], old[3:]}), 10, 0},
		{"insert", PiecesOf([][]byte{old[:4], []byte("xy"), old[4:]}), 4, 6},
		{"replace", PiecesOf([][]byte{old[:4], []byte("x"), old[5:]}), 4, 5},
		{"delete", PiecesOf([][]byte{old[:4], old[6:]}), 4, 4},
		{"repeat", PiecesOf([][]byte{old[:5], old[4:]}), 5, 5},
		{"all new", PiecesOf([][]byte{[]byte("ab"), []byte("c")}), 0, 0},
		{"empty", PiecesOf(nil), 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			whole := tt.c.Bytes()
			wp := commonPrefix(whole, old)
			ws := commonSuffix(whole[wp:], old[wp:])
			if p, s := tt.c.CommonEnds(old); p != tt.prefix || s != tt.suff || p != wp || s != ws {
				t.Errorf("CommonEnds = %d, %d; want %d, %d (joined: %d, %d)", p, s, tt.prefix, tt.suff, wp, ws)
			}
			for from := 0; from <= len(whole); from++ {
				if d := tt.c.Drop(from); !bytes.Equal(d.Bytes(), whole[from:]) || d.Len() != len(whole)-from {
					t.Fatalf("Drop(%d) = %q, want %q", from, d.Bytes(), whole[from:])
				}
				for to := from; to <= len(whole); to++ {
					if got := tt.c.Slice(from, to); !bytes.Equal(got, whole[from:to]) {
						t.Fatalf("Slice(%d, %d) = %q, want %q", from, to, got, whole[from:to])
					}
				}
			}
		})
	}
}

// spec: K7
// TestDiffOfPiecesIsTheDiffOfBytes: the diff of a new version in pieces (a dry run's
// write of a large file, issue 31), which joins only the window around what changed,
// is the diff of the same bytes in one slice: edits of lines and within a long line,
// at the start, the middle and the end, the pieces cut anywhere.
func TestDiffOfPiecesIsTheDiffOfBytes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 7))
	lines := func(n int) []byte {
		var b []byte
		for i := range n {
			b = fmt.Appendf(b, "  \"k%d\": \"v%d\",\n", i%7, i)
		}
		return b
	}
	bases := [][]byte{lines(40), bytes.TrimSuffix(lines(40), []byte("\n")), bytes.ReplaceAll(lines(600), []byte("\n"), nil), {}}
	for round := range 3000 {
		a := bases[round%len(bases)]
		at, cut := rnd.IntN(len(a)+1), rnd.IntN(20)
		cut = min(cut, len(a)-at)
		ins := []byte(fmt.Sprintf("  \"new%d\": 1,\n", rnd.IntN(3)))[:rnd.IntN(14)]
		if round%5 == 0 {
			ins = append(bytes.Clone(a[at:at+cut]), '\n')
		}
		b := append(append(bytes.Clone(a[:at]), ins...), a[at+cut:]...)
		var pieces [][]byte
		for rest := b; len(rest) > 0; {
			k := 1 + rnd.IntN(len(rest))
			pieces, rest = append(pieces, rest[:k]), rest[k:]
		}
		if lo, aHi, bHi := window(a, PiecesOf(pieces)); [3]int{lo, aHi, bHi} != bytesWindow(a, b) {
			t.Fatalf("a %q, b %q: window %d, %d, %d; in one slice %d", a, b, lo, aHi, bHi, bytesWindow(a, b))
		}
		var want, got []string
		writeHunks(func(l string) { want = append(want, l) }, a, b)
		writeHunksOf(func(l string) { got = append(got, l) }, a, PiecesOf(pieces))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("a %q, b %q:\nin pieces\n%s\nwant\n%s", a, b, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// bytesWindow is window as it was of two slices, before a new version could be in
// pieces: what window must still give.
func bytesWindow(a, b []byte) [3]int {
	n := commonPrefix(a, b)
	pre := lastLineBreak(a[:n]) + 1
	m := commonSuffix(a[pre:], b[pre:])
	if sa, sb := len(a)-m, len(b)-m; !lineStart(a, sa, pre) || !lineStart(b, sb, pre) {
		if j := bytes.IndexByte(a[sa:], '\n'); j >= 0 {
			m -= j + 1
		} else {
			m = 0
		}
	}
	return [3]int{linesBack(a, pre, diffContext), linesOn(a, len(a)-m, diffContext), linesOn(b, len(b)-m, diffContext)}
}

// spec: W3 W7
// TestApplyContentFaults: a write in pieces that fails at any stage (the temporary
// file's creation, its write, its sync, the rename) leaves the file as it was and no
// temporary file, as a write of one slice does.
func TestApplyContentFaults(t *testing.T) {
	for _, stage := range []string{"open", "write", "sync", "rename"} {
		t.Run(stage, func(t *testing.T) {
			path, data := bigFile(t, 2*writeChunk)
			errFault := errors.New("injected")
			f := NewOSWith(OSOptions{Fault: func(s, _ string) error {
				if s == stage {
					return errFault
				}
				return nil
			}})
			edits := 0
			_, err := Apply(f, []Target{{Path: path, EditContent: spliceEdit("NEW", &edits)}})
			if !errors.Is(err, errFault) {
				t.Fatalf("error %v, want the injected fault", err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
				t.Errorf("the file changed")
			}
			noTemp(t, filepath.Dir(path))
		})
	}
}

// spec: K7
// TestDiffOfALongLineInPieces: the diff of a minified file written in pieces, one long
// line on either side, which a dry run cuts short around the change before joining
// it, is the diff of the whole lines: changes at the start, the middle and the end,
// long strings around them (where the excerpt reaches the cut, and the window is
// joined whole), with and without a final line break, lines after it or not.
func TestDiffOfALongLineInPieces(t *testing.T) {
	defer func(w, m int) { bigWindow, lineMargin = w, m }(bigWindow, lineMargin)
	bigWindow, lineMargin = 32<<10, 6<<10
	rnd := rand.New(rand.NewPCG(31, 11))
	line := func(n int, long bool) []byte {
		var b []byte
		b = append(b, '{')
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			v := fmt.Sprintf("v%d", i)
			if long && i%97 == 0 {
				v = strings.Repeat("s", 9000) // a long string: the excerpt's cut is far
			}
			b = fmt.Appendf(b, `"k%d":{"a":[1,2],"b":%q}`, i, v)
		}
		return append(b, '}')
	}
	cut, total := 0, 0
	for round := range 200 {
		a := line(4000+rnd.IntN(2000), round%4 == 3)
		switch round % 3 {
		case 1:
			a = append(a, '\n')
		case 2:
			a = append(a, "\nnext line\n"...)
		}
		// an edit as mcpwire makes one: a member added before a key, or one removed
		from := rnd.IntN(len(a))
		if round%5 == 0 {
			from = rnd.IntN(100)
		} else if round%5 == 1 {
			from = max(0, len(a)-rnd.IntN(2000)-1)
		}
		at := bytes.Index(a[from:], []byte(`"k`))
		if at < 0 {
			continue
		}
		at += from
		ins := []byte(fmt.Sprintf(`"new%d":{"command":"x","env":{"TOKEN":"t%d"}},`, rnd.IntN(9), rnd.IntN(9)))
		if round%7 == 6 {
			// a change as long as the line: nothing to cut
			a = line(200, false)
			at = bytes.Index(a, []byte(`"k`))
			ins = bytes.Repeat(ins, 800)
		}
		del := 0
		if round%2 == 1 && round%7 != 6 {
			if next := bytes.Index(a[at+1:], []byte(`,"k`)); next >= 0 {
				ins, del = nil, next+2
			}
		}
		b := append(append(bytes.Clone(a[:at]), ins...), a[at+del:]...)
		if bytes.Equal(a, b) {
			continue
		}
		pieces := [][]byte{b[:min(at, len(b))]}
		for rest := b[min(at, len(b)):]; len(rest) > 0; {
			k := 1 + rnd.IntN(len(rest))
			pieces, rest = append(pieces, rest[:k]), rest[k:]
		}
		var want, got []string
		writeHunks(func(l string) { want = append(want, l) }, a, b)
		writeHunksOf(func(l string) { got = append(got, l) }, a, PiecesOf(pieces))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("round %d, at %d, del %d, ins %q:\nin pieces\n%.3000s\nwant\n%.3000s", round, at, del, ins, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		lo, aHi, bHi := window(a, PiecesOf(pieces))
		total++
		var dummy []string
		if writeLongLine(func(l string) { dummy = append(dummy, l) }, a, PiecesOf(pieces), lo, aHi, bHi) {
			cut++
		}
	}
	if cut < total/2 {
		t.Errorf("%d of %d diffs cut their line short, want most", cut, total)
	}
}
