package render_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestOpencodeToolKeyOfThePerson: the person's opencode.json already sets a tools key
// the profile sets too, to another value ("github_*": true, where profile dev allows
// only two github tools). Without --force the injection is refused naming the key and
// the file, with a hint, and nothing is written (the allowlist would silently not
// apply otherwise). With --force the key is taken over — it then says false, after the
// person's keys, and is mcpwire's: uninject removes it with mcpwire's other keys.
//
// spec: F3 C6 W1
func TestOpencodeToolKeyOfThePerson(t *testing.T) {
	w := newWorld(t)
	p := w.provider("opencode")
	path := w.dest(p, providers.Project)
	fx := string(fixtures.File("opencode/project.dev.opencode.jsonc"))
	orig := strings.Replace(fx, `"bash": true,`, `"github_*": true, // mine
    "bash": true,`, 1)
	if orig == fx {
		t.Fatal("cannot edit the fixture")
	}
	w.place(path, []byte(orig))
	root := filepath.Dir(w.home)
	before := treeState(t, root)
	_, err := write.Inject(fsys.NewOS(), w.request("opencode", "", "dev"))
	var hinted interface{ Hints() []string }
	if err == nil || !strings.Contains(err.Error(), "tools keys github_* ") || !strings.Contains(err.Error(), path) || !errors.As(err, &hinted) {
		t.Fatalf("error %v, want a refusal naming github_* and %s", err, path)
	}
	if d := diffStates(before, treeState(t, root)); len(d) > 0 {
		t.Errorf("the refusal wrote:\n%s", strings.Join(d, "\n"))
	}

	force := w.request("opencode", "", "dev")
	force.Inject.Force = true
	res, err := write.Inject(fsys.NewOS(), force)
	if err != nil {
		t.Fatal(err)
	}
	got := string(read(t, path))
	if strings.Contains(got, `"github_*": true`) || !strings.Contains(got, `"github_*": false`) {
		t.Errorf("--force did not take github_* over:\n%s", got)
	}
	if !strings.Contains(got, `"github_get_file_contents": true`) || !strings.Contains(got, `"notes_purge_*": false`) {
		t.Errorf("mcpwire's other tool keys are missing:\n%s", got)
	}
	if _, err := write.Uninject(fsys.NewOS(), w.request("opencode", "", "", res.Written...)); err != nil {
		t.Fatal(err)
	}
	if got := string(read(t, path)); strings.Contains(got, "github_") || !strings.Contains(got, `"bash": true`) {
		t.Errorf("after inject --force and uninject, the key taken over stays:\n%s", got)
	}
}

// TestOpencodeToolKeysFollowTheProfile: the tools keys mcpwire wrote for a server that
// stays selected follow the profile, as Claude's deny rules do (C4): switching from a
// profile denying x to one denying y removes x's key; a key the person changed stays,
// with a WARNING.
//
// spec: B7 F3 C4 C6
func TestOpencodeToolKeysFollowTheProfile(t *testing.T) {
	w := newWorld(t)
	p := w.provider("opencode")
	path := w.dest(p, providers.Project)
	req := func(deny ...string) write.Request {
		r := w.request("opencode", "", "dev")
		r.Servers = []string{"notes"}
		r.Filters = map[string]*registry.Filters{"*": {ToolDeny: deny}}
		return r
	}
	if _, err := write.Inject(fsys.NewOS(), req("notes__x", "notes__keep")); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(read(t, path)), `"notes_keep": false`, `"notes_keep": true`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	w.warns = nil
	if _, err := write.Inject(fsys.NewOS(), req("notes__y")); err != nil {
		t.Fatal(err)
	}
	got := string(read(t, path))
	if strings.Contains(got, "notes_x") || !strings.Contains(got, `"notes_y": false`) || !strings.Contains(got, `"notes_keep": true`) {
		t.Errorf("tools after switching filters:\n%s", got)
	}
	var keyWarns []string
	for _, s := range w.warns {
		if strings.Contains(s, "tool keys") {
			keyWarns = append(keyWarns, s)
		}
	}
	if len(keyWarns) != 1 || !strings.Contains(keyWarns[0], "notes_keep") || !strings.Contains(keyWarns[0], path) {
		t.Errorf("warnings %q, want one naming notes_keep and %s", keyWarns, path)
	}
	// said once: the key is the person's now
	w.warns = nil
	if _, err := write.Inject(fsys.NewOS(), req("notes__y")); err != nil {
		t.Fatal(err)
	}
	for _, s := range w.warns {
		if strings.Contains(s, "tool keys") {
			t.Errorf("said again: %s", s)
		}
	}
}
