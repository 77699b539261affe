package secretstore

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
