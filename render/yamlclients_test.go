package render_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
)

// inject runs one injection and returns its error.
func (w *world) inject(provider string, scope providers.Scope, servers ...string) (*write.Result, error) {
	w.t.Helper()
	return write.Inject(fsys.NewOS(), w.request(provider, scope, "", servers...))
}

// TestContinueBlockFile: Continue's project file is a block file of mcpwire's own in
// .continue/mcpServers: a new one gets the header Continue requires (name, version,
// schema) above its mcpServers, references are ${{ secrets.VAR }}, and uninject
// removes it with the directories mcpwire created (H7). One the person changed since
// keeps an empty list (a null one would fail Continue's schema), header and all.
//
// spec: V4 V9 W1 C6 H7
func TestContinueBlockFile(t *testing.T) {
	w := newWorld(t)
	p := w.provider("continue")
	path := w.dest(p, providers.Project)
	if _, err := w.inject("continue", providers.Project, "github", "docs"); err != nil {
		t.Fatal(err)
	}
	want := "name: mcpwire\nversion: \"0.0.1\"\nschema: v1\nmcpServers:\n" +
		"  - name: github\n    type: stdio\n    command: github-mcp-server\n    args:\n      - stdio\n      - --toolsets\n      - \"repos,issues\"\n" +
		"    env:\n      GITHUB_PERSONAL_ACCESS_TOKEN: \"${{ secrets.GITHUB_PERSONAL_ACCESS_TOKEN }}\"\n" +
		"  - name: docs\n    type: streamable-http\n    url: https://docs.example.com/mcp\n"
	if got := string(read(t, path)); got != want {
		t.Fatalf("block file:\n%s\nwant:\n%s", got, want)
	}
	req := w.request("continue", providers.Project, "", "github", "docs")
	if _, err := write.Uninject(fsys.NewOS(), req); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(w.project, ".continue")); !os.IsNotExist(err) {
		t.Errorf("after uninject, .continue is there (%v): mcpwire created it", err)
	}
	if _, err := w.inject("continue", providers.Project, "github", "docs"); err != nil {
		t.Fatal(err)
	}
	w.place(path, append([]byte("# mine\n"), read(t, path)...))
	if _, err := write.Uninject(fsys.NewOS(), req); err != nil {
		t.Fatal(err)
	}
	if got := string(read(t, path)); got != "# mine\nname: mcpwire\nversion: \"0.0.1\"\nschema: v1\nmcpServers: []\n" {
		t.Errorf("after uninject:\n%s", got)
	}
}

// TestContinueKeepsConfigJSON: Continue reads config.json while config.yaml is
// missing, so mcpwire does not create config.yaml beside it (nothing is written);
// without config.json a new config.yaml gets Continue's own header.
//
// spec: V9 W7
func TestContinueKeepsConfigJSON(t *testing.T) {
	w := newWorld(t)
	p := w.provider("continue")
	path := w.dest(p, providers.User)
	legacy := filepath.Join(filepath.Dir(path), "config.json")
	w.place(legacy, []byte("{\"models\": []}\n"))
	_, err := w.inject("continue", providers.User, "fetch")
	var ye *write.YieldError
	if !errors.As(err, &ye) || !strings.Contains(err.Error(), legacy) {
		t.Fatalf("inject beside config.json: %v", err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("config.yaml was created: %v", err)
	}
	if err := os.Remove(legacy); err != nil {
		t.Fatal(err)
	}
	if _, err := w.inject("continue", providers.User, "fetch"); err != nil {
		t.Fatal(err)
	}
	if got := string(read(t, path)); !strings.HasPrefix(got, "name: Main Config\nversion: \"1.0.0\"\nschema: v1\nmcpServers:\n  - name: fetch\n") {
		t.Errorf("new config.yaml:\n%s", got)
	}
}

// TestGooseRefusals: Goose has no SSE client, keys extensions by lower-case names, and
// has no per-run file.
//
// spec: V7 V9 C5
func TestGooseRefusals(t *testing.T) {
	w := newWorld(t)
	reg := w.registry()
	for _, s := range []*registry.Server{{Name: "events", Type: "sse", URL: "https://h/sse"}, {Name: "GitHub", Type: "stdio", Command: "gh"}} {
		if err := reg.AddServer(s); err != nil {
			t.Fatal(err)
		}
	}
	path := w.dest(w.provider("goose"), providers.User)
	for server, want := range map[string]string{"events": "not SSE", "GitHub": `"GitHub" (Goose's key "github")`} {
		if _, err := w.inject("goose", "", server); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", server, err, want)
		}
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("a refused inject wrote %s", path)
	}
	if _, err := write.Ephemeral(fsys.NewOS(), w.request("goose", "", "", "fetch"), filepath.Join(t.TempDir(), "x.yaml")); err == nil {
		t.Error("goose ephemeral output was written")
	}
}

// TestVibeReferences: Mistral Vibe takes one header from a variable per remote server
// (api_key_env; bearerEnv is its default Authorization: Bearer) and none for a stdio
// server; names it would normalise to one are refused; a project file is noted as
// read only in a trusted folder.
//
// spec: V4 V9 C6
func TestVibeReferences(t *testing.T) {
	w := newWorld(t)
	reg := w.registry()
	for _, s := range []*registry.Server{{Name: "bearer", Type: "http", URL: "https://h/mcp", BearerEnv: "H_TOKEN"},
		{Name: "spaced", Type: "stdio", Command: "/opt/My Tools/srv"}, {Name: "my_srv", Type: "stdio", Command: "x"}} {
		if err := reg.AddServer(s); err != nil {
			t.Fatal(err)
		}
	}
	path := w.dest(w.provider("mistral"), providers.Project)
	w.place(path, []byte("# mine\n[[mcp_servers]]\nname = \"my.srv\"\ntransport = \"stdio\"\ncommand = \"mine\"\n"))
	res, err := w.inject("vibe", providers.Project, "bearer", "anthropic-proxy", "spaced")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "trust") {
		t.Errorf("notes %q", res.Notes)
	}
	got := string(read(t, path))
	for _, want := range []string{
		"name = \"bearer\"\ntransport = \"streamable-http\"\nurl = \"https://h/mcp\"\nauth = { type = \"static\", api_key_env = \"H_TOKEN\" }\n",
		"auth = { type = \"static\", api_key_env = \"ANTHROPIC_API_KEY\", api_key_header = \"x-api-key\", api_key_format = \"{token}\" }\n",
		"command = [\"/opt/My Tools/srv\"]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("file lacks %q:\n%s", want, got)
		}
	}
	for server, want := range map[string]string{
		"tickets": "tickets (headerEnv.X-Tickets-Team): Mistral Vibe takes one header from a variable per server",
		"github":  "github (envFrom): Mistral Vibe passes no variable from its environment to a stdio server",
	} {
		if _, err := w.inject("vibe", providers.Project, server); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", server, err, want)
		}
	}
	before := read(t, path)
	if _, err := w.inject("vibe", providers.Project, "my_srv"); err == nil || !strings.Contains(err.Error(), `"my.srv" and "my_srv" (all my_srv)`) {
		t.Errorf("a name clash: %v", err)
	}
	if string(read(t, path)) != string(before) {
		t.Error("a refused inject changed the file")
	}
}

// TestContinueForeignEntry: an entry of the list that mcpwire did not write is refused
// without --force, and replaced in place with it; uninject then removes mcpwire's and
// puts the person's back, byte for byte, comment included (C6, H1).
//
// spec: C6 W1 H1
func TestContinueForeignEntry(t *testing.T) {
	w := newWorld(t)
	path := w.dest(w.provider("continue"), providers.User)
	orig := "name: Mine\nversion: 1.0.0\nmcpServers:\n  - name: fetch   # by hand\n    command: my-fetch\n  - name: other\n    command: o\n"
	w.place(path, []byte(orig))
	if _, err := w.inject("continue", "", "fetch"); err == nil || !strings.Contains(err.Error(), "did not write") {
		t.Fatalf("a foreign entry: %v", err)
	}
	if string(read(t, path)) != orig {
		t.Fatal("a refused inject changed the file")
	}
	req := w.request("continue", "", "", "fetch")
	req.Inject.Force = true
	if _, err := write.Inject(fsys.NewOS(), req); err != nil {
		t.Fatal(err)
	}
	want := "name: Mine\nversion: 1.0.0\nmcpServers:\n  - name: fetch\n    type: stdio\n    command: uvx\n    args:\n      - mcp-server-fetch\n  - name: other\n    command: o\n"
	if got := string(read(t, path)); got != want {
		t.Fatalf("forced:\n%s\nwant:\n%s", got, want)
	}
	if _, err := write.Uninject(fsys.NewOS(), w.request("continue", "", "", "fetch")); err != nil {
		t.Fatal(err)
	}
	if got := string(read(t, path)); got != orig {
		t.Errorf("after uninject:\n%s\nwant the person's file back:\n%s", got, orig)
	}
}
