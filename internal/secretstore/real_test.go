package secretstore

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
)

// roundTrip stores, reads, checks and deletes through a real store.
func roundTrip(t *testing.T, e Env, ref string) {
	t.Helper()
	ctx := context.Background()
	const value = "SENTINEL-real-4711"
	r := mustRef(t, ref)
	s := e.For(r.Store)
	var se *Error
	if err := e.Check(ctx, ref); !errors.As(err, &se) || !se.Missing || !strings.HasPrefix(err.Error(), ref+": ") {
		t.Fatalf("check before put: %v", err)
	}
	if _, err := e.Resolve(ctx, ref); !errors.As(err, &se) || !se.Missing {
		t.Fatalf("resolve before put: %v", err)
	}
	if err := s.Put(ctx, r, value); err != nil {
		t.Fatalf("put: %v", err)
	}
	if v, err := e.Resolve(ctx, ref); err != nil || v != value {
		t.Fatalf("resolve: %q %v", v, err)
	}
	if err := e.Check(ctx, ref); err != nil {
		t.Fatalf("check: %v", err)
	}
	if err := s.Put(ctx, r, value+"-2"); err != nil {
		t.Fatalf("put again: %v", err)
	}
	if v, _ := e.Resolve(ctx, ref); v != value+"-2" {
		t.Fatalf("replaced: %q", v)
	}
	if err := s.Delete(ctx, r); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if err := e.Check(ctx, ref); err == nil {
		t.Fatal("check after delete passes")
	}
}

// spec: S6 S5 S3 — the real pass, with a throwaway GPG key: stored, read (first
// line), checked without decrypting, replaced, deleted; nothing of the value in the
// store's directory in the clear.
func TestPassReal(t *testing.T) {
	dir := t.TempDir()
	vars := storetest.Pass(t, dir)
	e := Env{Environ: append(os.Environ(), vars...), Home: dir}
	roundTrip(t, e, "pass:mcpwire/gh/GITHUB_TOKEN")
	storetest.PassInsert(t, vars, "multi", "first\nsecond")
	if v, err := e.Resolve(context.Background(), "pass:multi"); err != nil || v != "first" {
		t.Errorf("first line: %q %v", v, err)
	}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "SENTINEL") {
				t.Errorf("%s holds the value", p)
			}
		}
		return nil
	})
}

// spec: S6 — the 1Password CLI's documented contract, against the stand-in program
// (storetest.OpMain): read, create from a template on stdin, delete, the errors of a
// missing item and of a CLI nobody signed in to; no value in any call's arguments.
func TestOpStandIn(t *testing.T) {
	dir := t.TempDir()
	e := Env{Environ: append(os.Environ(), storetest.Op(t, dir)...)}
	roundTrip(t, e, "op://Private/mcpwire-gh-GITHUB_TOKEN/credential")
	store := filepath.Join(dir, "op-items.json")
	os.WriteFile(store+".locked", nil, 0o600)
	var se *Error
	if err := e.Check(context.Background(), "op://Private/x/credential"); !errors.As(err, &se) || se.Missing || !strings.Contains(err.Error(), "not currently signed in") {
		t.Errorf("locked: %v", err)
	}
	f, err := os.Open(store + ".argv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "SENTINEL") {
			t.Errorf("a value in op's arguments: %s", sc.Text())
		}
	}
	if n < 6 {
		t.Errorf("%d calls logged", n)
	}
}

// spec: S6 — the real Secret Service (gnome-keyring in a private D-Bus session)
// through secret-tool.
func TestSecretServiceReal(t *testing.T) {
	if !storetest.InSecretService(t) {
		return
	}
	roundTrip(t, Env{}, "keyring:mcpwire/gh/GITHUB_TOKEN")
	if secretref.Keyring != "keyring" {
		t.Fatal("store name")
	}
}
