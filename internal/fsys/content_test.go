package fsys

import (
	"bytes"
	"io/fs"
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

// spec: K7
// TestApplyContentIsNotJoined: writing an edit given in pieces allocates a small
// part of the file, beyond the read of it: the new content is never built in one
// buffer (before: once more the file).
func TestApplyContentIsNotJoined(t *testing.T) {
	path, data := bigFile(t, 8<<20)
	edits := 0
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := Apply(OS{}, []Target{{Path: path, EditContent: spliceEdit("NEW", &edits)}}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(len(data))*5/4; got > limit {
		t.Errorf("allocated %d bytes for a file of %d, want at most %d (the read and a little)", got, len(data), limit)
	}
}
