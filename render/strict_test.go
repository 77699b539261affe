package render_test

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestStrictJSONClients: every client that reads its file with a strict JSON parser
// (and rejects or ignores the whole file over a comment or a trailing comma) gets no
// entry written into a file holding one: the injection is refused naming the file and
// the client, and nothing changes. Removing mcpwire's own entry from such a file is
// allowed (the client ignores the file anyway), and keeps the comment.
//
// spec: V9 W1 C6
func TestStrictJSONClients(t *testing.T) {
	n := 0
	for _, p := range providers.All() {
		if !p.StrictJSON {
			continue
		}
		for _, scope := range p.Scopes() {
			if only := p.Dest(scope).Only; only != "" && only != runtime.GOOS {
				continue
			}
			n++
			t.Run(p.Name+"/"+string(scope), func(t *testing.T) {
				w := newWorld(t)
				path := w.dest(p, scope)
				commented := []byte("{\n  // mine\n  \"" + p.ServersKey + "\": {}\n}\n")
				w.place(path, commented)
				layerBefore := treeState(t, w.layer)
				_, err := write.Inject(fsys.NewOS(), w.request(p.Name, scope, "", "fetch"))
				var se *write.StrictError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), p.Display) {
					t.Fatalf("inject into a commented file: %v; want a refusal naming %s and %s", err, path, p.Display)
				}
				if got := read(t, path); !bytes.Equal(got, commented) {
					t.Errorf("the refused file changed:\n%s", got)
				}
				if after := treeState(t, w.layer); !maps.Equal(after, layerBefore) {
					t.Errorf("an ownership record was written: %v", keys(after))
				}

				// a strict file takes the entry; a comment added later does not keep
				// uninject from removing it
				w.place(path, []byte("{\n  \""+p.ServersKey+"\": {}\n}\n"))
				if _, err := write.Inject(fsys.NewOS(), w.request(p.Name, scope, "", "fetch")); err != nil {
					t.Fatal(err)
				}
				withComment := bytes.Replace(read(t, path), []byte("{\n"), []byte("{\n  // mine\n"), 1)
				w.place(path, withComment)
				res, err := write.Uninject(fsys.NewOS(), w.request(p.Name, scope, "", "fetch"))
				if err != nil || len(res.Removed) != 1 {
					t.Fatalf("uninject from a commented file: %v, %+v", err, res)
				}
				if got := read(t, path); !bytes.Contains(got, []byte("// mine")) || bytes.Contains(got, []byte(`"fetch"`)) {
					t.Errorf("after uninject:\n%s", got)
				}
			})
		}
	}
	if n < 10 {
		t.Errorf("%d strict-JSON destinations; the table marks Kiro, Kimi Code, Cline, Roo Code, Zoo Code, Visual Studio, Trae, Crush and JetBrains Junie", n)
	}
}

// TestOnlyOnOneOS: Visual Studio's user file (%USERPROFILE%\.mcp.json, key "servers")
// exists on Windows only: elsewhere the user scope is refused naming the client and
// the systems, and nothing is written; resolved for Windows it is written.
//
// spec: V1 V6 W2
func TestOnlyOnOneOS(t *testing.T) {
	w := newWorld(t)
	before := treeState(t, w.home)
	r := w.request("visual-studio", providers.User, "", "fetch")
	r.Env.GOOS = "linux"
	_, err := write.Inject(fsys.NewOS(), r)
	if err == nil || err.Error() != "Visual Studio runs only on Windows: it has no user-scope file on Linux" {
		t.Fatalf("error %v", err)
	}
	if after := treeState(t, w.home); !maps.Equal(after, before) {
		t.Errorf("files written: %v", keys(after))
	}
	r.Env.GOOS = "windows"
	res, err := write.Inject(fsys.NewOS(), r)
	if err != nil {
		t.Fatal(err)
	}
	if want := w.home + string(os.PathSeparator) + ".mcp.json"; res.Destination != want {
		t.Errorf("destination %s, want %s", res.Destination, want)
	}
	if got := read(t, res.Destination); !bytes.Contains(got, []byte(`"servers": {`)) || !bytes.Contains(got, []byte(`"type": "stdio"`)) {
		t.Errorf("%s:\n%s", res.Destination, got)
	}
}
