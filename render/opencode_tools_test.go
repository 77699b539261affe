package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// TestOpencodeToolKeyOfThePerson: the person's opencode.json already sets a tools key
// the profile sets too, to another value. mcpwire leaves it as it is, in its place (it
// is the person's: uninject could not give its value back), and writes its other keys;
// an uninjection then gives back exactly the original file.
//
// spec: F3 C6 W1
func TestOpencodeToolKeyOfThePerson(t *testing.T) {
	w := newWorld(t)
	p := w.provider("opencode")
	path := w.dest(p, providers.Project)
	fx := string(fixtures.File("opencode.opencode.jsonc"))
	orig := strings.Replace(fx, `"bash": true,`, `"github_*": true, // mine
    "bash": true,`, 1)
	if orig == fx {
		t.Fatal("cannot edit the fixture")
	}
	w.place(path, []byte(orig))
	res, err := render.Inject(fsys.NewOS(), w.request("opencode", "", "dev"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(read(t, path))
	if !strings.Contains(got, `"github_*": true, // mine
    "bash": true,`) || strings.Contains(got, `"github_*": false`) {
		t.Errorf("the person's github_* key was changed or moved:\n%s", got)
	}
	if !strings.Contains(got, `"github_get_file_contents": true`) || !strings.Contains(got, `"notes_purge_*": false`) {
		t.Errorf("mcpwire's other tool keys are missing:\n%s", got)
	}
	if _, err := render.Uninject(fsys.NewOS(), w.request("opencode", "", "", res.Written...)); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); !bytes.Equal(got, []byte(orig)) {
		t.Errorf("after inject and uninject:\n%s\nwant the original:\n%s", got, orig)
	}
}
