package render_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// injectTogether prepares the requests and writes them as one transaction, as inject
// --provider A --provider B does.
func injectTogether(f fsys.FS, reqs ...write.Request) error {
	preps, err := write.PrepareAll(f, reqs)
	if err != nil {
		return err
	}
	return write.Commit(f, preps, true)
}

// TestBatchedInjectOrder: an injection into two clients at once writes in batches
// (docs/writes.md "Durability"): every staged record, then every client file and the
// settings, then every record; failing each of those writes in turn, at each stage
// of it, leaves the whole world as it was.
//
// spec: W3 W7 C6
func TestBatchedInjectOrder(t *testing.T) {
	setup := func(t *testing.T) (*world, []write.Request, []string) {
		w := newWorld(t)
		claude, cursor := w.provider("claude-code"), w.provider("cursor")
		ownClaude := recordOf(t, w, render.OwnershipDir)
		deny := recordOf(t, w, permissionsDir)
		ownCursor, _ := recordPathOf(t, w, render.OwnershipDir, w.dest(cursor, providers.Project))
		order := []string{
			ownClaude + ".staged", deny + ".staged", ownCursor + ".staged",
			w.dest(claude, providers.Project), w.settingsDest(claude, providers.Project), w.dest(cursor, providers.Project),
			deny, ownClaude, ownCursor,
		}
		return w, []write.Request{w.request("claude-code", "", "dev"), w.request("cursor", "", "dev")}, order
	}
	_, reqs, order := setup(t)
	ok := &fsystest.Faulty{}
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
		for _, stage := range []string{fsystest.StageOpen, fsystest.StageSync, fsystest.StageRename} {
			t.Run(fmt.Sprintf("write %d (%s) %s", n, filepath.Base(order[n-1]), stage), func(t *testing.T) {
				w, reqs, _ := setup(t)
				root := filepath.Dir(w.home)
				before := treeState(t, root)
				f := &fsystest.Faulty{FailWrite: n, WriteStage: stage}
				if err := injectTogether(f, reqs...); !errors.Is(err, fsystest.ErrInjected) {
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
// locking them again after the receipts (docs/writes.md "Crashes" and "Locks"). (The
// directories of the files are there: one that creates them stages its records in a
// transaction of their own first, TestPreStageBeforeDirectories.)
//
// spec: W7 W8 C6
func TestStagedRecordsGoUnderTheLocks(t *testing.T) {
	w := newWorld(t)
	for _, d := range []string{filepath.Dir(w.dest(w.provider("cursor"), providers.Project)), filepath.Dir(w.settingsDest(w.provider("claude-code"), providers.Project))} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := &fsystest.Faulty{}
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

// TestPreStageBeforeDirectories (H7): an injection that creates the directories of its
// files writes its staged records, which name those directories as mcpwire's, before it
// creates any of them, so that a crash right after a mkdir leaves them known; a refusal
// still comes before anything is written (a foreign entry in the other file).
//
// spec: H7 K10 W7
func TestPreStageBeforeDirectories(t *testing.T) {
	w := newWorld(t)
	f := &fsystest.Faulty{}
	if err := injectTogether(f, w.request("claude-code", "", "dev"), w.request("cursor", "", "dev")); err != nil {
		t.Fatal(err)
	}
	cursorDir := filepath.Dir(w.dest(w.provider("cursor"), providers.Project))
	claudeDir := filepath.Dir(w.settingsDest(w.provider("claude-code"), providers.Project))
	staged, firstMkdir := -1, -1
	for i, c := range f.Calls() {
		if strings.HasPrefix(c, "write ") && strings.Contains(c, ".staged ") {
			staged = i
		}
		if (strings.HasPrefix(c, "mkdir "+cursorDir+" ") || strings.HasPrefix(c, "mkdir "+claudeDir+" ")) && firstMkdir < 0 {
			firstMkdir = i
		}
	}
	if staged < 0 || firstMkdir < 0 || staged > firstMkdir {
		t.Errorf("the last staged record written at call %d, the first directory created at %d: want every staged record first\n%s", staged, firstMkdir, strings.Join(f.Calls(), "\n"))
	}

	w = newWorld(t)
	w.place(w.dest(w.provider("cursor"), providers.Project), []byte(`{"mcpServers": {"notes": {"command": "mine"}}}`))
	root := filepath.Dir(w.home)
	before := treeState(t, root)
	f = &fsystest.Faulty{}
	if err := injectTogether(f, w.request("claude-code", "", "dev"), w.request("cursor", "", "dev")); err == nil || !strings.Contains(err.Error(), "did not write") {
		t.Fatalf("error %v, want the foreign entry refused", err)
	}
	if d := notRolledBack(before, treeState(t, root), f.Calls()); len(d) > 0 || len(writtenPaths(f.Calls())) > 0 {
		t.Errorf("a refused injection wrote %q:\n%s", writtenPaths(f.Calls()), strings.Join(d, "\n"))
	}
}
