package layers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// spec: H2 — another system's list separator in an entry, for either system.
func TestForeignSeparator(t *testing.T) {
	for _, tc := range []struct {
		entry string
		sep   rune
		want  rune
	}{
		{"/org;/home/me/.aiwg", ':', ';'},
		{"/org,/home/me/.aiwg", ':', ','},
		{"/org/team", ':', 0},
		{`C:\org;D:\me`, ':', ';'},
		{`C:\org`, ';', 0},
		{`\\?\C:\org`, ';', 0},
		{`C:\org:D:\me`, ';', ':'},
		{`/org:/me`, ';', ':'},
		{`C:\org,D:\me`, ';', ','},
		{"/home/me/Projects, old/.aiwg", ':', 0},
		{"/a/b,~/.aiwg", ':', ','},
	} {
		if got, _ := foreignSeparator(tc.entry, tc.sep); got != tc.want {
			t.Errorf("foreignSeparator(%q, %q) = %q, want %q", tc.entry, tc.sep, got, tc.want)
		}
	}
}

// spec: H2 L13 — a layer list written for another system is refused before anything
// is read, naming this system's separator, with the list rewritten; a directory that
// exists under such a name is taken as it is; nothing is created.
func TestSeparatorRefused(t *testing.T) {
	if os.PathListSeparator != ':' {
		t.Skip("the entries are Unix lists")
	}
	root := t.TempDir()
	org, me := filepath.Join(root, "org"), filepath.Join(root, "me")
	if err := os.Mkdir(org, 0o755); err != nil {
		t.Fatal(err)
	}
	getenv := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvLayers {
				return v
			}
			return ""
		}
	}
	cfg, err := Resolve(getenv(org+";"+me), "", root, root)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadAll(fsys.NewOS(), cfg)
	var se *SeparatorError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), `holds ";", the layer separator on Windows`) ||
		!strings.Contains(se.Hints()[0], "AIWG_CONFIG_LAYERS="+org+":"+me) {
		t.Fatalf("err = %v (%v)", err, se)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 1 {
		t.Errorf("created %v", ents)
	}
	odd := filepath.Join(root, "a,b")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, _ = Resolve(getenv(org+":"+odd), "", root, root)
	if _, err := LoadAll(fsys.NewOS(), cfg); err != nil {
		t.Errorf("an existing directory named with a comma: %v", err)
	}
}
