package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/winetest"
)

// symlinkTree builds, under a temp dir: real/ (dir), real/file, link -> real, file-link ->
// real/file, plain (file).
func symlinkTree(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir()) // CheckRealDirs(/) checks every ancestor
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "real", "file"), "x", 0o600)
	writeTestFile(t, filepath.Join(dir, "plain"), "x", 0o600)
	winetest.Skip(t, winetest.Symlinks)
	if err := os.Symlink("real", filepath.Join(dir, "link")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink(filepath.Join("real", "file"), filepath.Join(dir, "file-link")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// spec: W5
func TestCheckNotSymlink(t *testing.T) {
	dir := symlinkTree(t)
	tests := []struct {
		path string
		want string // error suffix, "" for none
	}{
		{"real/file", ""},
		{"missing", ""},
		{"real/missing/deeper", ""},
		{"link/file", ""}, // parent symlinks are the caller's business (user scope)
		{"file-link", "is a symlink"},
		{"link", "is a symlink"},
		{"real", "refused: a directory, not a regular file"},
	}
	for _, fsys := range []FS{OS{}, NewDryRun(OS{})} {
		for _, tt := range tests {
			p := filepath.Join(dir, tt.path)
			err := CheckNotSymlink(fsys, p)
			checkErr(t, err, p, tt.want)
		}
	}
}

// spec: W5
func TestCheckRealDirs(t *testing.T) {
	dir := symlinkTree(t)
	tests := []struct {
		root, path string
		want       string // "" for no error; else the full error, with DIR for dir
	}{
		{"real", "real/sub/.mcp.json", ""},
		{"real", "real/.mcp.json", ""},
		{"real", "real/new/deeper/f.json", ""},
		{"link", "link/sub/f.json", ""}, // the root itself may be a symlink
		{"", "real/sub/f.json", ""},
		{"real", "real/sub/../../link/f.json", "DIR/link/f.json: not inside DIR/real"},
		{"", "link/sub/f.json", "directory DIR/link: is a symlink"},
		{".", "link/sub/f.json", "directory DIR/link: is a symlink"},
		{".", "plain/f.json", "DIR/plain: not a directory"},
	}
	for _, fsys := range []FS{OS{}, NewDryRun(OS{})} {
		for _, tt := range tests {
			root := "/"
			if tt.root != "" {
				root = filepath.Join(dir, tt.root)
			}
			err := CheckRealDirs(fsys, root, filepath.Join(dir, tt.path))
			want := strings.ReplaceAll(filepath.FromSlash(tt.want), "DIR", dir)
			if (err == nil) != (want == "") || (err != nil && err.Error() != want) {
				t.Errorf("CheckRealDirs(%s, %s) = %v, want %q", tt.root, tt.path, err, want)
			}
			if want != "" && strings.Contains(want, "symlink") && !errors.Is(err, ErrSymlink) {
				t.Errorf("%v is not ErrSymlink", err)
			}
		}
	}
}

// spec: W7
func TestNearestExistingDir(t *testing.T) {
	dir := symlinkTree(t)
	tests := []struct{ path, want, wantErr string }{
		{"real", "real", ""},
		{"real/a/b/c", "real", ""},
		{"link/a", "link", ""},
		{"plain/a/b", "", "DIR/plain: not a directory"},
		{"file-link/a", "", "DIR/file-link: not a directory"},
	}
	for _, tt := range tests {
		got, err := NearestExistingDir(OS{}, filepath.Join(dir, tt.path))
		if tt.wantErr != "" {
			if want := strings.ReplaceAll(filepath.FromSlash(tt.wantErr), "DIR", dir); err == nil || err.Error() != want {
				t.Errorf("%s: err = %v, want %q", tt.path, err, want)
			}
			continue
		}
		if err != nil || got != filepath.Join(dir, tt.want) {
			t.Errorf("%s: got %q, %v; want %s", tt.path, got, err, tt.want)
		}
	}
}

func checkErr(t *testing.T, err error, p, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Errorf("%s: unexpected error %v", p, err)
		}
		return
	}
	if err == nil || err.Error() != p+": "+want {
		t.Errorf("%s: err = %v, want %q", p, err, p+": "+want)
	}
}
