package render_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// readCountFS counts the reads of one file.
type readCountFS struct {
	fsys.FS
	path  string
	reads int
}

func (f *readCountFS) ReadFile(name string) ([]byte, error) {
	if filepath.Clean(name) == f.path {
		f.reads++
	}
	return f.FS.ReadFile(name)
}

// spec: Q4 W7
// TestInjectReadsClientFileOnce: the staged record's edit reads the client file to
// know what the file's own edit will write; the file's own target then edits from
// that read instead of reading the file again (a 50 MB ~/.claude.json costs one read,
// not two), in every scope of Claude Code's ~/.claude.json.
func TestInjectReadsClientFileOnce(t *testing.T) {
	for _, scope := range []providers.Scope{providers.User, providers.Local} {
		t.Run(string(scope), func(t *testing.T) {
			w := newWorld(t)
			path := filepath.Join(w.home, ".claude.json")
			w.place(path, []byte("{\"numStartups\": 3, \"projects\": {\"/elsewhere\": {\"mcpServers\": {}}}}\n"))
			f := &readCountFS{FS: fsys.NewOS(), path: path}
			res, err := render.Inject(f, w.request("claude-code", scope, "", "fetch"))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Changed) == 0 {
				t.Fatalf("nothing written: %+v", res)
			}
			if f.reads != 1 {
				t.Errorf("%s read %d times, want once", path, f.reads)
			}
		})
	}
}
