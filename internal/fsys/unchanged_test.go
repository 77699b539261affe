package fsys

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/winetest"
)

// spec: W5 W8
// TestUnchangedChecked: one look at a file read before says whether it still holds
// the read, and refuses a symlink found there now (W5), as CheckNotSymlink then
// Unchanged did with two.
func TestUnchangedChecked(t *testing.T) {
	for _, c := range []struct {
		name   string
		before string // "" : no file when read
		after  func(t *testing.T, path string)
		same   bool
		err    bool
	}{
		{"still", "a", func(*testing.T, string) {}, true, false},
		{"rewritten", "a", func(t *testing.T, p string) { writeTestFile(t, p, "bb", 0o600) }, false, false},
		{"same bytes, written again", "a", func(t *testing.T, p string) {
			writeTestFile(t, p, "a", 0o600)
			if err := os.Chtimes(p, time.Now(), time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}, true, false},
		{"removed", "a", func(t *testing.T, p string) { os.Remove(p) }, false, false},
		{"still missing", "", func(*testing.T, string) {}, true, false},
		{"appeared", "", func(t *testing.T, p string) { writeTestFile(t, p, "a", 0o600) }, false, false},
		{"a symlink now", "a", func(t *testing.T, p string) {
			winetest.Skip(t, winetest.Symlinks)
			os.Remove(p)
			if err := os.Symlink(p+".other", p); err != nil {
				t.Skip(err)
			}
		}, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.json")
			if c.before != "" {
				writeTestFile(t, path, c.before, 0o600)
			}
			snap, err := ReadSnapshotChecked(OS{}, path)
			if err != nil {
				t.Fatal(err)
			}
			c.after(t, path)
			same, err := UnchangedChecked(OS{}, path, snap)
			if same != c.same || (err != nil) != c.err {
				t.Errorf("UnchangedChecked = %v, %v; want %v, error %v", same, err, c.same, c.err)
			}
		})
	}
}
