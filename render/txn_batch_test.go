package render_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// injectTogether prepares the requests and writes them as one transaction, as inject
// --provider A --provider B does.
func injectTogether(f fsys.FS, reqs ...render.Request) error {
	preps, err := render.PrepareAll(f, reqs)
	if err != nil {
		return err
	}
	return render.Commit(f, preps, true)
}

// TestBatchedInjectOrder: an injection into two clients at once writes in batches
// (docs/writes.md "Durability"): every staged record, then every client file and the
// settings, then every record; failing each of those writes in turn, at each stage
// of it, leaves the whole world as it was.
//
// spec: W3 W7 C6
func TestBatchedInjectOrder(t *testing.T) {
	setup := func(t *testing.T) (*world, []render.Request, []string) {
		w := newWorld(t)
		claude, cursor := w.provider("claude-code"), w.provider("cursor")
		ownClaude := recordOf(t, w, render.OwnershipDir)
		deny := recordOf(t, w, render.PermissionsDir)
		ownCursor, _ := recordPathOf(t, w, render.OwnershipDir, w.dest(cursor, providers.Project))
		order := []string{
			ownClaude + ".staged", deny + ".staged", ownCursor + ".staged",
			w.dest(claude, providers.Project), w.settingsDest(claude, providers.Project), w.dest(cursor, providers.Project),
			deny, ownClaude, ownCursor,
		}
		return w, []render.Request{w.request("claude-code", "", "dev"), w.request("cursor", "", "dev")}, order
	}
	_, reqs, order := setup(t)
	ok := &fsys.Faulty{}
	if err := injectTogether(ok, reqs...); err != nil {
		t.Fatal(err)
	}
	if got := writtenPaths(ok.Calls()); !slices.Equal(got, order) {
		t.Fatalf("writes:\n%s\nwant, in this order:\n%s", strings.Join(got, "\n"), strings.Join(order, "\n"))
	}
	for _, staged := range order[:3] {
		if _, err := fsys.NewOS().Lstat(staged); !fsys.IsNotExist(err) {
			t.Errorf("staged record %s left after the transaction: %v", filepath.Base(staged), err)
		}
	}
	for n := 1; n <= len(order); n++ {
		for _, stage := range []string{fsys.StageOpen, fsys.StageSync, fsys.StageRename} {
			t.Run(fmt.Sprintf("write %d (%s) %s", n, filepath.Base(order[n-1]), stage), func(t *testing.T) {
				w, reqs, _ := setup(t)
				root := filepath.Dir(w.home)
				before := treeState(t, root)
				f := &fsys.Faulty{FailWrite: n, WriteStage: stage}
				if err := injectTogether(f, reqs...); !errors.Is(err, fsys.ErrInjected) {
					t.Fatalf("error %v, want the injected fault", err)
				}
				if d := notRolledBack(before, treeState(t, root), f.Calls()); len(d) > 0 {
					t.Errorf("not rolled back:\n%s\ncalls:\n%s", strings.Join(d, "\n"), strings.Join(f.Calls(), "\n"))
				}
			})
		}
	}
}

// TestStagedRecordsGoUnderTheLocks: an injection that removes nothing takes each
// staged record's lock once — its record's (fsys.Target.Guard), not one of its own:
// the records written, it removes them before it releases the locks, instead of
// locking them again after the receipts (docs/writes.md "Crashes" and "Locks").
//
// spec: W7 W8 C6
func TestStagedRecordsGoUnderTheLocks(t *testing.T) {
	w := newWorld(t)
	f := &fsys.Faulty{}
	if err := injectTogether(f, w.request("claude-code", "", "dev"), w.request("cursor", "", "dev")); err != nil {
		t.Fatal(err)
	}
	locks := map[string]int{}
	var removes []string
	for _, c := range f.Calls() {
		if p, ok := strings.CutPrefix(c, "lock "); ok {
			locks[p]++
		}
		if p, ok := strings.CutPrefix(c, "remove "); ok {
			removes = append(removes, p)
		}
	}
	if len(removes) != 3 {
		t.Errorf("removed %q: want the 3 staged records", removes)
	}
	for _, p := range removes {
		record, ok := strings.CutSuffix(p, ".staged")
		if !ok || locks[record] != 1 || locks[p] != 0 {
			t.Errorf("%s: its record locked %d times and itself %d times, want 1 and 0", filepath.Base(p), locks[record], locks[p])
		}
	}
	for _, p := range removes {
		if _, err := fsys.NewOS().Lstat(p); !fsys.IsNotExist(err) {
			t.Errorf("%s left: %v", p, err)
		}
	}
}
