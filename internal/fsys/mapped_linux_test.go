package fsys

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// TestLargeReadIsMapped: a file of mapMin bytes or more is mapped, not read (so the
// tests of large files below, and TestApplyContentSeesAnotherWriter, run on a
// mapping); a smaller one is read.
func TestLargeReadIsMapped(t *testing.T) {
	for _, c := range []struct {
		n      int
		mapped bool
	}{{1<<20 - 16, false}, {1 << 20, true}, {3 << 20, true}} {
		path, data := bigFile(t, c.n)
		snap, err := ReadSnapshot(OS{}, path)
		if err != nil {
			t.Fatal(err)
		}
		if got := bigbuf.IsMapped(snap.Data); got != c.mapped || !bytes.Equal(snap.Data, data) {
			t.Errorf("%d bytes: mapped %v, want %v (same bytes %v)", c.n, got, c.mapped, bytes.Equal(snap.Data, data))
		}
	}
}

// spec: W8
// TestEditOfFileCutShort: another program truncates a large file while mcpwire's
// edit reads it (mapped, the edit touches a page past the new end: SIGBUS). That is
// the file changing while being read: the transaction reads it again and edits what
// is there now, nothing of the first edit written, and the process goes on (before
// the guard, the fault killed it).
func TestEditOfFileCutShort(t *testing.T) {
	path, _ := bigFile(t, 3*writeChunk)
	edits := 0
	var sink byte
	edit := func(cur Snapshot) (Content, fs.FileMode, bool, error) {
		edits++
		if edits == 1 {
			if !bigbuf.IsMapped(cur.Data) {
				t.Fatal("the file was not mapped")
			}
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
			sink = cur.Data[len(cur.Data)-1] // past the end now: SIGBUS
			t.Errorf("read %q past the end of a truncated file", sink)
		}
		return ContentOf(append(bytes.Clone(cur.Data), "{}"...)), 0, false, nil
	}
	if _, err := Apply(OS{}, []Target{{Path: path, EditContent: edit}}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "{}" || edits != 2 {
		t.Errorf("after %d edits the file holds %.40q (%v), want the edit of the truncated file, {}", edits, got, err)
	}
	noTemp(t, filepath.Dir(path))
}

// spec: W8
// TestWriteOfFileCutShort: another program truncates a large file after mcpwire's
// edit, before its pieces are copied from it (copy_file_range, which then ends
// early): the write is a change of the file, redone on what it holds now, and the
// bytes copied before the truncation are never renamed in.
func TestWriteOfFileCutShort(t *testing.T) {
	path, data := bigFile(t, 3*writeChunk)
	cut := false
	f := NewOSWith(OSOptions{Fault: func(stage, name string) error {
		if stage == "write" && name == path && !cut {
			cut = true
			if err := os.Truncate(path, writeChunk); err != nil {
				t.Error(err)
			}
		}
		return nil
	}})
	edits := 0
	if _, err := Apply(f, []Target{{Path: path, EditContent: spliceEdit("NEW", &edits)}}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k := writeChunk / 2
	want := string(data[:k]) + "NEW" + string(data[k:writeChunk])
	if !cut || edits != 2 || string(got) != want {
		t.Errorf("cut %v, %d edits, %d bytes written: want the edit of the truncated file (%d bytes)", cut, edits, len(got), len(want))
	}
	noTemp(t, filepath.Dir(path))
}

// spec: W8
// TestMappedSnapshotComparedByDigest: two reads of a large file that another
// program wrote to in place in between are two mappings of one file, which show
// the same bytes; they are told apart by the digests each took as it was mapped,
// and so is the file from the first read (the compare before the rename).
func TestMappedSnapshotComparedByDigest(t *testing.T) {
	path, data := bigFile(t, 2*writeChunk)
	first, err := ReadSnapshot(OS{}, path)
	if err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.WriteAt([]byte("Z"), int64(len(data)-5)); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	second, err := ReadSnapshot(OS{}, path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Data, second.Data) {
		t.Fatal("two mappings of one file differ: the test does not test what it says")
	}
	if bigbuf.Same(first.Data, second.Data) {
		t.Error("the two reads compare the same: the in-place write is missed")
	}
	if same, err := SameContent(OS{}, path, first); err != nil || same {
		t.Errorf("the file compares the same as the first read (%v): the in-place write is missed", err)
	}
	if same, err := SameContent(OS{}, path, second); err != nil || !same {
		t.Errorf("the file does not compare the same as the second read (%v)", err)
	}
	if !errors.Is(expect(path, &first), ErrChanged) {
		t.Error("the compare before the rename does not see the change")
	}
}

// spec: W8
// TestStagedFileOfAMappedFileNotReused: a temporary file filled from a mapped file
// is not taken as holding a redo's edit of a new read of the file when the file was
// written in place between the two reads: two mappings of one file show its bytes as
// they are now, so they compare equal, and the temporary file holds the older
// version. The same edit is held; contents not mapped are compared as before.
func TestStagedFileOfAMappedFileNotReused(t *testing.T) {
	path, data := bigFile(t, 2<<20)
	read := func() []byte {
		snap, err := ReadSnapshot(OS{}, path)
		if err != nil {
			t.Fatal(err)
		}
		if !bigbuf.IsMapped(snap.Data) {
			t.Fatal("the large file was not mapped")
		}
		return snap.Data
	}
	first := read()
	staged := &PendingWrite{data: PiecesOf([][]byte{first, []byte("edit")}), perm: 0o600, from: first}
	if !staged.holds(staged.data, 0o600, first) {
		t.Error("the temporary file is not taken as holding the edit it was filled with")
	}
	again := read()
	if !staged.holds(PiecesOf([][]byte{again, []byte("edit")}), 0o600, again) {
		t.Error("an unchanged file read again: its temporary file is not reused")
	}
	// another program writes the file in place, its size kept
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("CHANGED"), 1<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	second := read()
	if staged.holds(PiecesOf([][]byte{second, []byte("edit")}), 0o600, second) {
		t.Error("a temporary file filled before the file was written in place is taken as holding the edit of the new read")
	}
	plain := &PendingWrite{data: PiecesOf([][]byte{bytes.Clone(data), []byte("edit")}), perm: 0o600}
	if !plain.holds(PiecesOf([][]byte{bytes.Clone(data), []byte("edit")}), 0o600, nil) {
		t.Error("the same unmapped content is not taken as held")
	}
}
