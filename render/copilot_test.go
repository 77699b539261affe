package render_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// TestCopilotRefusesCommentedFile: GitHub Copilot CLI ignores a whole config file
// that holds comments, so mcpwire refuses to write one (and writes nothing) instead of
// adding servers Copilot would never load; a strict file is written 0600.
//
// spec: V9 W4
func TestCopilotRefusesCommentedFile(t *testing.T) {
	w := newWorld(t)
	p := w.provider("copilot-cli")
	path := w.dest(p, providers.User)
	commented := []byte("{\n  // mine\n  \"mcpServers\": {}\n}\n")
	w.place(path, commented)
	_, err := render.Inject(fsys.NewOS(), w.request("copilot-cli", "", "", "fetch"))
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "comments") {
		t.Fatalf("inject into a commented file: %v", err)
	}
	if got := read(t, path); string(got) != string(commented) {
		t.Errorf("the refused file changed:\n%s", got)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := render.Inject(fsys.NewOS(), w.request("copilot-cli", "", "", "fetch")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("new file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
}
