package fsys

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// spec: W9
func TestDryRunWritesNothing(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.json")
	gone := filepath.Join(dir, "gone.json")
	writeTestFile(t, keep, "{}\n", 0o644)
	writeTestFile(t, gone, "bye\n", 0o644)
	before := listTree(t, dir)

	d := NewDryRun(OS{})
	sub := filepath.Join(dir, "sub")
	newFile := filepath.Join(sub, "new.json")
	link := filepath.Join(sub, "link")
	steps := []error{
		d.Mkdir(sub, 0o700),
		d.WriteFile(newFile, []byte("new\n"), 0o600, nil),
		d.WriteFile(keep, []byte("{\"a\":1}\n"), 0o600, &WriteOptions{Expect: &Snapshot{Exists: true, Data: []byte("{}\n")}}),
		d.Chmod(gone, 0o600),
		d.Remove(gone),
		d.Symlink("new.json", link),
	}
	tmp, err := d.MkdirTemp("", "mcpwire-*")
	steps = append(steps, err)
	release, err := d.Lock(keep)
	steps = append(steps, err, release())
	if err := errors.Join(steps...); err != nil {
		t.Fatal(err)
	}

	// Nothing on disk changed.
	if got := listTree(t, dir); !reflect.DeepEqual(got, before) {
		t.Errorf("dir now holds %q, want %q", got, before)
	}
	for _, p := range []string{sub, newFile, link, tmp, keep + LockSuffix} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s exists on disk: %v", p, err)
		}
	}
	if got := fileState(t, keep); got != state(0o644, "{}\n") {
		t.Errorf("keep = %q", got)
	}

	// Later reads see the dry run's own writes.
	if data, err := d.ReadFile(newFile); err != nil || string(data) != "new\n" {
		t.Errorf("ReadFile(new) = %q, %v", data, err)
	}
	if data, err := d.ReadFile(link); err != nil || string(data) != "new\n" {
		t.Errorf("ReadFile(link) = %q, %v", data, err)
	}
	if fi, err := d.Lstat(keep); err != nil || fi.Mode() != effectiveMode(0o600) || fi.Size() != 8 {
		t.Errorf("Lstat(keep) = %v, %v", fi, err)
	}
	if fi, err := d.Stat(sub); err != nil || !fi.IsDir() || fi.Mode().Perm() != effectiveDirMode(0o700) {
		t.Errorf("Stat(sub) = %v, %v", fi, err)
	}
	if fi, err := d.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(link) = %v, %v", fi, err)
	}
	if _, err := d.ReadFile(gone); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(gone) err = %v", err)
	}
	if _, err := d.Lstat(gone); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lstat(gone) err = %v", err)
	}
	entries, err := d.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if err != nil || !reflect.DeepEqual(got, []string{"keep.json", "sub"}) {
		t.Errorf("ReadDir = %q, %v", got, err)
	}
	if fi, err := d.Stat(tmp); err != nil || !fi.IsDir() || fi.Mode().Perm() != effectiveDirMode(0o700) {
		t.Errorf("Stat(temp dir) = %v, %v", fi, err)
	}
	if real, err := d.EvalSymlinks(link); err != nil || real != newFile {
		t.Errorf("EvalSymlinks(link) = %q, %v", real, err)
	}

	// The intents, in order.
	var ops []string
	for _, in := range d.Intents() {
		ops = append(ops, in.Op+" "+strings.TrimPrefix(in.Path, dir))
	}
	wantOps := []string{"mkdir /sub", "write /sub/new.json", "write /keep.json", "chmod /gone.json", "remove /gone.json", "symlink /sub/link", "mkdir " + tmp}
	for i := range wantOps[:len(wantOps)-1] {
		wantOps[i] = filepath.FromSlash(wantOps[i])
	}
	if !reflect.DeepEqual(ops, wantOps) {
		t.Errorf("intents = %q, want %q", ops, wantOps)
	}
	in := d.Intents()[2]
	if in.Mode != 0o600 || string(in.Data) != "{\"a\":1}\n" || in.Old == nil || string(in.Old.Data) != "{}\n" || in.Old.Mode != effectiveMode(0o644) {
		t.Errorf("write intent = %+v", in)
	}
}

// spec: W9
func TestDryRunRefusesLikeOS(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "f"), "x", 0o600)
	d := NewDryRun(OS{})
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"write into missing dir", d.WriteFile(filepath.Join(dir, "no", "f"), nil, 0o600, nil), fs.ErrNotExist},
		{"mkdir existing", d.Mkdir(dir, 0o700), fs.ErrExist},
		{"remove missing", d.Remove(filepath.Join(dir, "missing")), fs.ErrNotExist},
		{"expect mismatch", d.WriteFile(filepath.Join(dir, "f"), nil, 0o600, &WriteOptions{Expect: &Snapshot{}}), ErrChanged},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, tt.err, tt.want)
		}
	}
	if err := d.Mkdir(filepath.Join(dir, "d"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile(filepath.Join(dir, "d", "f"), nil, 0o600, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove(filepath.Join(dir, "d")); err == nil {
		t.Error("removed a non-empty directory")
	}
	if len(d.Intents()) != 2 {
		t.Errorf("failed calls recorded intents: %+v", d.Intents())
	}
}

// spec: W9
func TestDryRunDiff(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "mod.json")
	del := filepath.Join(dir, "del.json")
	chm := filepath.Join(dir, "chmod.json")
	same := filepath.Join(dir, "same.json")
	writeTestFile(t, mod, "{\n  \"a\": 1,\n  \"token\": \"s3cret\"\n}\n", 0o644)
	writeTestFile(t, del, "x\ny", 0o644)
	writeTestFile(t, chm, "c\n", 0o644)
	writeTestFile(t, same, "s\n", 0o600)

	d := NewDryRun(OS{})
	sub := filepath.Join(dir, "sub")
	for _, err := range []error{
		d.Mkdir(sub, 0o700),
		d.WriteFile(filepath.Join(sub, "new.json"), []byte("{\"token\":\"s3cret\"}"), 0o600, nil),
		d.WriteFile(mod, []byte("{\n  \"a\": 2,\n  \"token\": \"s3cret\"\n}\n"), 0o644, nil),
		d.WriteFile(mod, []byte("{\n  \"a\": 3,\n  \"token\": \"s3cret\"\n}\n"), 0o600, nil),
		d.Remove(del),
		d.Chmod(chm, 0o600),
		d.WriteFile(same, []byte("s\n"), 0o600, nil),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Where files have no permission bits (Windows), the modes are the ones the system
	// would give and a chmod that changes none of them is no change.
	rel := slashPath(dir)
	modeChange := ""
	if effectiveMode(0o644) != effectiveMode(0o600) {
		modeChange = "mode 0644 -> 0600\n"
	}
	want := "mkdir DIR" + string(filepath.Separator) + "sub (" + octal(effectiveDirMode(0o700)) + ")\n" +
		"new file mode " + octal(effectiveMode(0o600)) + `
--- /dev/null
+++ b/REL/sub/new.json
@@ -0,0 +1 @@
+{"token":"***"}
\ No newline at end of file
` + modeChange + `--- a/REL/mod.json
+++ b/REL/mod.json
@@ -1,4 +1,4 @@
 {
-  "a": 1,
+  "a": 3,
   "token": "***"
 }
deleted file mode ` + octal(effectiveMode(0o644)) + `
--- a/REL/del.json
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
\ No newline at end of file
`
	if modeChange != "" {
		want += modeChange + `--- a/REL/chmod.json
+++ b/REL/chmod.json
`
	}
	want = strings.NewReplacer("DIR", dir, "REL", rel).Replace(want)
	got := d.Diff(func(s string) string { return strings.ReplaceAll(s, "s3cret", "***") })
	if got != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", got, want)
	}
	if got := NewDryRun(OS{}).Diff(nil); got != "" {
		t.Errorf("empty dry run Diff = %q", got)
	}
}
