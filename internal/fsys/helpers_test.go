package fsys

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var (
	_ FS = OS{}
	_ FS = (*DryRun)(nil)
)

// errInjected is the failure the tests' fault hooks inject (see OSOptions.Fault).
var errInjected = errors.New("injected fault")

// listTree lists dir recursively (relative, slash-separated, dirs with a trailing slash).
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// noTemp fails when dir holds a temporary or lock file.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	for _, n := range listTree(t, dir) {
		if strings.HasSuffix(n, ".tmp") || strings.HasSuffix(n, LockSuffix) {
			t.Errorf("leftover %s in %s", n, dir)
		}
	}
}

func writeTestFile(t *testing.T, path, data string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

// fileState is a file's content and mode, or "absent".
func fileState(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return "absent"
	}
	if err != nil {
		t.Fatal(err)
	}
	if fi.IsDir() {
		return "dir " + octal(fi.Mode())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return octal(fi.Mode()) + " " + string(data)
}

func fileMode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// state is fileState's answer for a file written with perm and holding data: its mode
// is the one the system really gives (EffectiveMode: perm itself on Unix).
func state(perm fs.FileMode, data string) string {
	return octal(effectiveMode(perm)) + " " + data
}

// dirState is fileState's answer for a directory created with perm.
func dirState(perm fs.FileMode) string { return "dir " + octal(effectiveDirMode(perm)) }
