package fsys

import (
	"bytes"
	"path/filepath"
	"testing"
)

// spec: K7
// TestReadFileHoldsTheFileOnce: reading a large file allocates one buffer of its
// size, on every system (on Windows io.ReadAll grew one from 512 bytes, allocating
// about twice the file and copying it a dozen times), and reads it whole.
func TestReadFileHoldsTheFileOnce(t *testing.T) {
	const size = 8 << 20
	p := filepath.Join(t.TempDir(), "big.json")
	want := bytes.Repeat([]byte("0123456789abcdef"), size/16)
	writeTestFile(t, p, string(want), 0o600)
	var got []byte
	var err error
	n := bytesAllocated(func() { got, err = OS{}.ReadFile(p) })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, not the file's %d", len(got), len(want))
	}
	if n > size+size/8 {
		t.Errorf("reading a %d-byte file allocated %d bytes, want about the file's size", size, n)
	}
}
