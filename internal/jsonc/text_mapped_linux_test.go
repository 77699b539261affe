package jsonc

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// TestTextOfMappedFileIsCopied: a string read from a mapped file (a registry layer
// or client file of 1 MiB or more, internal/bigbuf) is a copy: the file's pages
// change when another program writes it in place, and a Go string must not (a map
// key, a registry value, the command probe starts on another goroutine). A string of
// bytes in memory still shares them.
func TestTextOfMappedFileIsCopied(t *testing.T) {
	path := filepath.Join(t.TempDir(), "layer.json")
	if err := os.WriteFile(path, []byte(`"npx"`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, b, err := bigbuf.Map(int(f.Fd()), 5)
	if err != nil {
		t.Fatal(err)
	}
	within := func(s string, b []byte) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		return lo <= p && p < lo+uintptr(len(b))
	}
	if s, ok := Raw(b).Text(); !ok || s != "npx" || within(s, b) {
		t.Errorf("Text of a mapped file: %q, %v, shares the mapping: %v", s, ok, within(s, b))
	}
	mem := []byte(`"npx"`)
	if s, ok := Raw(mem).Text(); !ok || s != "npx" || !within(s, mem) {
		t.Errorf("Text of bytes in memory: %q, %v, shares them: %v", s, ok, within(s, mem))
	}
}
