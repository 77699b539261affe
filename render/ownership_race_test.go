package render_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// permRecordOf decodes the one deny record of a world.
func permRecordOf(t *testing.T, w *world) (added, preserved []string) {
	t.Helper()
	recs := recordFiles(t, w.layer, permissionsDir)
	if len(recs) != 1 {
		t.Fatalf("%d deny records, want 1", len(recs))
	}
	var r struct{ DenyAdded, DenyPreserved []string }
	if err := json.Unmarshal(read(t, recs[0]), &r); err != nil {
		t.Fatal(err)
	}
	return r.DenyAdded, r.DenyPreserved
}

func prepare(t *testing.T, w *world, provider string, scope providers.Scope, profile string) *write.Prepared {
	t.Helper()
	prep, err := write.Prepare(fsys.NewOS(), w.request(provider, scope, profile))
	if err != nil {
		t.Fatal(err)
	}
	return prep
}

// TestClaudeDenyRecordReadAtCommit: two injections prepared before either is
// committed (two mcpwire processes, say). The second one decides on the deny record
// as the first one left it, not as it was when it was prepared: profile b then
// removes a's rules, which mcpwire owns, and no rule mcpwire added is left in
// permissions.deny without being in the record (it would become the person's for
// good).
//
// spec: C3 C4 W8
func TestClaudeDenyRecordReadAtCommit(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("claude-code")
	settings := w.settingsDest(p, providers.Project)
	a := prepare(t, w, "claude-code", "", "a")
	b := prepare(t, w, "claude-code", "", "b")
	if err := write.Commit(fsys.NewOS(), []*write.Prepared{a}, false); err != nil {
		t.Fatal(err)
	}
	if err := write.Commit(fsys.NewOS(), []*write.Prepared{b}, false); err != nil {
		t.Fatal(err)
	}
	want := []string{"mcp__github__delete_file"}
	if got := denyOf(t, settings); !slices.Equal(got, want) {
		t.Errorf("deny = %q, want %q (a's rules removed by b, as in a sequential run)", got, want)
	}
	if added, preserved := permRecordOf(t, w); !slices.Equal(added, want) || len(preserved) > 0 {
		t.Errorf("record: added %q, preserved %q; want added %q", added, preserved, want)
	}
}

// TestOwnershipRecordReadAtCommit: the same for the C6 record of a client file: the
// entry the first injection wrote is mcpwire's when the second one, prepared before
// the first was committed, replaces it (not refused as someone else's).
//
// spec: C6 W8
func TestOwnershipRecordReadAtCommit(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("codex")
	path := w.dest(p, providers.User)
	a := prepare(t, w, "codex", "", "a")
	b := prepare(t, w, "codex", "", "b")
	if err := write.Commit(fsys.NewOS(), []*write.Prepared{a}, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(read(t, path)), `disabled_tools = ["purge"]`) {
		t.Fatalf("a did not write notes with its filter:\n%s", read(t, path))
	}
	if err := write.Commit(fsys.NewOS(), []*write.Prepared{b}, false); err != nil {
		t.Fatalf("b: %v", err)
	}
	if got := string(read(t, path)); strings.Contains(got, `disabled_tools = ["purge"]`) || !strings.Contains(got, "[mcp_servers.github]") {
		t.Errorf("b did not replace notes:\n%s", got)
	}
}

// recordHookFS runs hook before the nth read of a record: a deny record, or the file
// at path when set.
type recordHookFS struct {
	fsys.FS
	path     string
	n, reads int
	hook     func()
}

func (f *recordHookFS) ReadFile(name string) ([]byte, error) {
	if f.path == "" && strings.Contains(name, permissionsDir) || f.path != "" && filepath.Clean(name) == f.path {
		f.reads++
		if f.reads == f.n {
			f.hook()
		}
	}
	return f.FS.ReadFile(name)
}

// TestUninjectKeepsRulesRecordedMeanwhile: while an uninjection is being planned,
// another injection (profile b) commits and records a rule of its own. The
// uninjection removes the rules of the servers it removes, and keeps b's rule and
// b's ownership of it.
//
// spec: C4 W8
func TestUninjectKeepsRulesRecordedMeanwhile(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("claude-code")
	settings := w.settingsDest(p, providers.Project)
	inject(t, w, "", "a", false)
	f := &recordHookFS{FS: fsys.NewOS(), n: 2, hook: func() { inject(t, w, "", "b", false) }}
	if _, err := write.Uninject(f, w.request("claude-code", "", "", "fetch")); err != nil {
		t.Fatal(err)
	}
	if f.reads < 2 {
		t.Fatalf("the deny record was read %d times", f.reads)
	}
	want := []string{"mcp__github__delete_file"}
	if got := denyOf(t, settings); !slices.Equal(got, want) {
		t.Errorf("deny = %q, want %q", got, want)
	}
	if added, _ := permRecordOf(t, w); !slices.Equal(added, want) {
		t.Errorf("record added %q, want %q", added, want)
	}
}

// TestClaudeDenyWarningOnce: once the person edited permissions.deny, the rules
// mcpwire can no longer tell about are named in one WARNING, in the run that
// preserves them; later runs, which find them already preserved, say nothing more.
//
// spec: C4
func TestClaudeDenyWarningOnce(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("claude-code")
	settings := w.settingsDest(p, providers.Project)
	inject(t, w, "", "a", false)
	b := read(t, settings)
	edited := strings.Replace(string(b), `"deny": [`, `"deny": ["Bash(rm:*)",`, 1)
	if edited == string(b) {
		t.Fatalf("cannot edit %s", b)
	}
	if err := os.WriteFile(settings, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	w.warns = nil
	inject(t, w, "", "b", false)
	if ws := denyWarnings(w.warns); len(ws) != 1 || !strings.Contains(ws[0], "mcp__fetch") || !strings.Contains(ws[0], "mcp__notes__purge") {
		t.Fatalf("first run after the edit: warnings %q, want one naming mcp__fetch and mcp__notes__purge", ws)
	}
	for range 2 {
		w.warns = nil
		inject(t, w, "", "b", false)
		if ws := denyWarnings(w.warns); len(ws) > 0 {
			t.Errorf("a later run warns again: %q", ws)
		}
	}
	if _, preserved := permRecordOf(t, w); !slices.Contains(preserved, "mcp__fetch") {
		t.Errorf("mcp__fetch not preserved: %q", preserved)
	}
}
