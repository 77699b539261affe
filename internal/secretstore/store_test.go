package secretstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
	"github.com/mcpwire/mcpwire/internal/winetest"
)

func TestMain(m *testing.M) {
	if storetest.IsOp() {
		os.Exit(storetest.OpMain())
	}
	os.Exit(m.Run())
}

// call is one program run by a store.
type call struct {
	name  string
	args  []string
	stdin string
}

// recorder is a Runner that records every run and answers with out (stdout), or
// with errOut and a failure when fail is set.
type recorder struct {
	calls       []call
	out, errOut string
	fail        bool
}

func (r *recorder) run(_ context.Context, name string, args []string, stdin []byte, _ []string) ([]byte, []byte, error) {
	r.calls = append(r.calls, call{name, args, string(stdin)})
	if r.fail {
		return nil, []byte(r.errOut), errors.New("exit status 1")
	}
	return []byte(r.out), nil, nil
}

func mustRef(t *testing.T, s string) secretref.Ref {
	t.Helper()
	r, err := secretref.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// spec: S2 S3 S5 — each store's program gets the reference in its arguments and a
// value only on its standard input; what it prints is the value, one line of pass's.
func TestStorePrograms(t *testing.T) {
	const value = "SENTINEL-value-123"
	ctx := context.Background()
	for _, tc := range []struct {
		ref      string
		get, put []string
		out      string
		stdin    string
	}{
		{"pass:mcpwire/gh/TOKEN", []string{"pass", "show", "--", "mcpwire/gh/TOKEN"}, []string{"pass", "insert", "--multiline", "--force", "--", "mcpwire/gh/TOKEN"},
			value + "\nurl: x\n", value + "\n"},
		{"op://Private/mcpwire-gh-TOKEN/credential", []string{"op", "read", "--no-newline", "--", "op://Private/mcpwire-gh-TOKEN/credential"},
			[]string{"op", "item", "create", "--vault", "Private", "--format", "json", "-"}, value,
			`{"title":"mcpwire-gh-TOKEN","category":"API_CREDENTIAL","fields":[{"id":"credential","type":"CONCEALED","label":"credential","value":"` + value + `"}]}`},
	} {
		rec := &recorder{out: tc.out}
		e := Env{Run: rec.run}
		r := mustRef(t, tc.ref)
		got, err := e.For(r.Store).Get(ctx, r)
		if err != nil || got != value {
			t.Errorf("%s: Get = %q, %v", tc.ref, got, err)
		}
		if err := e.For(r.Store).Put(ctx, r, value); err != nil {
			t.Errorf("%s: Put: %v", tc.ref, err)
		}
		if len(rec.calls) != 2 || strings.Join(append([]string{rec.calls[0].name}, rec.calls[0].args...), " ") != strings.Join(tc.get, " ") ||
			strings.Join(append([]string{rec.calls[1].name}, rec.calls[1].args...), " ") != strings.Join(tc.put, " ") || rec.calls[1].stdin != tc.stdin {
			t.Errorf("%s: runs %+v", tc.ref, rec.calls)
		}
		for _, c := range rec.calls {
			if strings.Contains(strings.Join(c.args, " "), value) {
				t.Errorf("%s: a value in the arguments of %s", tc.ref, c.name)
			}
		}
	}
}

// spec: S3 — a reference that does not resolve fails with the reference and the
// store's own error, marked missing where the store says so.
func TestStoreErrors(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{fail: true, errOut: "gpg: decryption failed\nError: mcpwire/x is not in the password store.\n"}
	_, err := Env{Run: rec.run}.Resolve(ctx, "pass:mcpwire/x")
	var se *Error
	if !errors.As(err, &se) || !se.Missing || err.Error() != "pass:mcpwire/x: pass: Error: mcpwire/x is not in the password store." {
		t.Errorf("pass: %v (%+v)", err, se)
	}
	rec = &recorder{fail: true, errOut: `[ERROR] 2026/12/06 10:00:00 could not read secret 'op://v/i/f': "i" isn't an item in the "v" vault.`}
	_, err = Env{Run: rec.run}.Resolve(ctx, "op://v/i/f")
	if !errors.As(err, &se) || !se.Missing || !strings.HasPrefix(err.Error(), `op://v/i/f: op: [ERROR] 2026/12/06 10:00:00 could not read secret`) {
		t.Errorf("op: %v", err)
	}
	rec = &recorder{fail: true, errOut: "[ERROR] 2026/12/06 10:00:00 You are not currently signed in."}
	if err = (Env{Run: rec.run}).Check(ctx, "op://v/i/f"); !errors.As(err, &se) || se.Missing {
		t.Errorf("locked op: %v", err)
	}
	if _, err := (Env{Environ: []string{"PATH=" + t.TempDir()}}).Resolve(ctx, "op://v/i/f"); err == nil || !strings.Contains(err.Error(), "op is not installed") {
		t.Errorf("no op: %v", err)
	}
	if _, err := (Env{}).Resolve(ctx, "ghp_SECRETVALUE0123456789abcdef"); err == nil || strings.Contains(err.Error(), "SECRETVALUE") {
		t.Errorf("a value where a reference belongs: %v", err)
	}
	rec = &recorder{out: "a\x00b"}
	if _, err := (Env{Run: rec.run}).Resolve(ctx, "pass:x"); err == nil || strings.Contains(err.Error(), "a\x00b") {
		t.Errorf("NUL: %v", err)
	}
	if err := (Env{Run: rec.run}).For(secretref.Pass).Put(ctx, mustRef(t, "pass:x"), "two\nlines"); err == nil {
		t.Error("pass took a value of two lines")
	}
}

// spec: S1 S3 — file:PATH reads an owner-only regular file through links, without its
// final line feed, and refuses one others may read.
func TestFileStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	secret := filepath.Join(dir, "token")
	os.WriteFile(secret, []byte("SENTINEL-file\n"), 0o600)
	e := Env{}
	if v, err := e.Resolve(ctx, "file:"+secret); err != nil || v != "SENTINEL-file" {
		t.Errorf("%s: %q %v", secret, v, err)
	}
	t.Run("through a link", func(t *testing.T) {
		winetest.Skip(t, winetest.Symlinks)
		link := filepath.Join(dir, "link")
		if err := os.Symlink(secret, link); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		if v, err := e.Resolve(ctx, "file:"+link); err != nil || v != "SENTINEL-file" {
			t.Errorf("%s: %q %v", link, v, err)
		}
	})
	var se *Error
	if err := e.Check(ctx, "file:"+filepath.Join(dir, "missing")); !errors.As(err, &se) || !se.Missing {
		t.Errorf("missing: %v", err)
	}
	if err := e.Check(ctx, "file:"+dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(secret, 0o644)
		if _, err := e.Resolve(ctx, "file:"+secret); err == nil || !strings.Contains(err.Error(), "mode 0644") || strings.Contains(err.Error(), "SENTINEL") {
			t.Errorf("mode 0644: %v", err)
		}
		os.Chmod(secret, 0o600)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, maxFile+1), 0o600)
	if _, err := e.Resolve(ctx, "file:"+big); err == nil {
		t.Error("a file over 1 MiB")
	}
	if err := e.For(secretref.File).Put(ctx, mustRef(t, "file:"+secret), "x"); err == nil {
		t.Error("file store written")
	}
}
