package render_test

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/inspect"
)

// spec: K7 S5
// TestImportLeavesEntriesRead: import takes the lists and maps of the entries it
// reads into the servers it adds without copying them (200,000 entries), so moving
// the servers' secrets (import --secrets-to) changes copies of its own: the entries
// read, which adoption compares with what mcpwire would write, stay as the file has
// them.
func TestImportLeavesEntriesRead(t *testing.T) {
	w := newWorld(t)
	clientFileOf(w, "json", 3)
	reg := w.registry()
	files, errs := render.ClientFiles(fsys.NewOS(), []*providers.Provider{w.provider("claude-code")}, w.env, w.layer)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	moved := 0
	_, err := inspect.Import(fsys.NewOS(), inspect.ImportRequest{Registry: reg, Files: files,
		MoveSecrets: func(add []*registry.Server) (func() error, error) {
			for _, s := range add {
				s.Env["A"] = "moved"
				s.Args[0] = "moved"
				moved++
			}
			return func() error { return nil }, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if moved != 3 {
		t.Fatalf("secrets moved from %d servers", moved)
	}
	for _, e := range files[0].Entries {
		if s := e.Read.Server; s.Env["A"] != "b" || s.Args[0] != "-y" {
			t.Errorf("entry %s read as %v %v after the import", e.Name, s.Env, s.Args)
		}
	}
	if s, _ := reg.Server("s1"); s.Env["A"] != "moved" {
		t.Errorf("server s1 imported as %v", s.Env)
	}
}
