package bigbuf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// mapFile writes data to a new file and maps it.
func mapFile(t *testing.T, data []byte) (string, *Mapped, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, b, err := Map(int(f.Fd()), len(data))
	if err != nil {
		t.Fatal(err)
	}
	return path, m, b
}

// testData is n bytes of lines, with no byte '#'.
func testData(n int) []byte {
	return bytes.Repeat([]byte("0123456789abcde\n"), n/16)
}

// TestMapReads: a mapping holds the file's bytes, is found by its slices (not by
// others), and the passes over it a chunk at a time give bytes' answers.
func TestMapReads(t *testing.T) {
	data := testData(3*Chunk + 4096)
	_, m, b := mapFile(t, data)
	if !bytes.Equal(b, data) {
		t.Fatal("the mapping does not hold the file")
	}
	if got, off := Lookup(b[100:200]); got != m || off != 100 || IsMapped(data) || !IsMapped(b[len(b)-1:]) {
		t.Errorf("Lookup: %p at %d, want %p at 100; the copy mapped %v", got, off, m, IsMapped(data))
	}
	if len(m.Sums) != 4 || !equalSums(Sums(b), Sums(data)) {
		t.Errorf("%d digests, or the mapping's differ from its bytes'", len(m.Sums))
	}
	for _, c := range []byte{'\n', 'e', '#'} {
		if Count(b, c) != bytes.Count(data, []byte{c}) || IndexByte(b[5:], c) != bytes.IndexByte(data[5:], c) ||
			LastIndexByte(b[:len(b)-3], c) != bytes.LastIndexByte(data[:len(data)-3], c) {
			t.Errorf("%q: Count, IndexByte or LastIndexByte differ from bytes'", c)
		}
	}
	Release(b) // dropped pages read again from the file
	if !bytes.Equal(b, data) {
		t.Error("released pages read back differently")
	}
}

func equalSums(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGuardCutShort: a touch past the end of a mapped file cut short (SIGBUS) is a
// *FaultError from Guard, not a crash; other panics go on.
func TestGuardCutShort(t *testing.T) {
	data := testData(2 * Chunk)
	path, _, b := mapFile(t, data)
	if err := os.Truncate(path, Chunk); err != nil {
		t.Fatal(err)
	}
	var sink byte
	err := Guard(func() { sink = b[len(b)-1] })
	var fe *FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("Guard: %v (read %q), want a *FaultError", err, sink)
	}
	if err := Guard(func() { sink = b[Chunk-1] }); err != nil || sink != data[Chunk-1] {
		t.Errorf("a touch before the new end: %v, %q", err, sink)
	}
	defer func() {
		if r := recover(); r != "other" {
			t.Errorf("recovered %v, want the other panic", r)
		}
	}()
	_ = Guard(func() { panic("other") })
}

// TestCopyRangeCutShort: a copy from a mapped file cut short ends with ErrShort.
func TestCopyRangeCutShort(t *testing.T) {
	data := testData(2 * Chunk)
	path, m, _ := mapFile(t, data)
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := m.CopyRange(int(out.Fd()), 10, Chunk); err != nil && !IsNoCopy(err) {
		t.Fatal(err)
	}
	if err := os.Truncate(path, Chunk); err != nil {
		t.Fatal(err)
	}
	if err := m.CopyRange(int(out.Fd()), Chunk/2, Chunk); !errors.Is(err, ErrShort) && !IsNoCopy(err) {
		t.Errorf("copy past the end: %v, want ErrShort", err)
	}
	got, _ := os.ReadFile(out.Name())
	if len(got) < Chunk || !bytes.Equal(got[:Chunk], data[10:10+Chunk]) {
		t.Errorf("copied %d bytes, not the range asked for", len(got))
	}
}

// TestSameByDigest: Same compares a mapped file by the digests it took when
// mapped, not by its pages, which show another program's in-place write.
func TestSameByDigest(t *testing.T) {
	data := testData(Chunk + 100)
	path, _, a := mapFile(t, data)
	fh, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.WriteAt([]byte("#"), Chunk+50); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	changed := bytes.Clone(data)
	changed[Chunk+50] = '#'
	_, _, b := mapFile(t, changed)
	if !Same(a, data) || Same(a, changed) || !Same(b, changed) || Same(a, b) || !Same(a, a) || Same(a, data[1:]) {
		t.Error("Same does not go by what each mapping held when mapped")
	}
}
