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
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// ownRecord is an ownership record as the tests read it.
type ownRecord struct {
	Destination string
	Providers   []string
	Scope       string
	Project     string
	Entries     map[string]string
}

// ownRecords decodes the layer's ownership records.
func ownRecords(t *testing.T, w *world) []ownRecord {
	t.Helper()
	var out []ownRecord
	for _, f := range recordFiles(t, w.layer, render.OwnershipDir) {
		var r ownRecord
		if err := json.Unmarshal(read(t, f), &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, r)
	}
	return out
}

// TestSharedMCPJSON: .mcp.json is Claude Code's, GitHub Copilot CLI's and Qoder CLI's
// project file (V10). Injecting the same servers for Claude Code, then Copilot CLI,
// then Qoder gives one entry each, written once: the later injections change nothing.
// One ownership record lists every writer, and either client removes an entry the
// other wrote. The report names the other readers.
//
// spec: V10 C6 W6
func TestSharedMCPJSON(t *testing.T) {
	w := newWorld(t)
	path := filepath.Join(w.project, ".mcp.json")
	res, err := w.inject("claude-code", providers.Project, "fetch", "docs", "github")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Readers, ", "); got != "VS Code, Grok Build, GitHub Copilot CLI, Qwen Code, Qoder CLI, Kimi Code, Visual Studio" {
		t.Errorf("readers %q", got)
	}
	first := read(t, path)
	before, _ := os.Stat(path)
	for _, p := range []string{"copilot-cli", "qoder"} {
		res, err := w.inject(p, providers.Project, "fetch", "docs", "github")
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		// the record learns the new writer; .mcp.json does not change
		if slices.Contains(res.Changed, path) || len(res.Written) != 3 {
			t.Errorf("%s changed %v (wrote %v): the entries are the same", p, res.Changed, res.Written)
		}
	}
	after, _ := os.Stat(path)
	if got := read(t, path); string(got) != string(first) || !os.SameFile(before, after) {
		t.Errorf(".mcp.json rewritten:\n%s", got)
	}
	recs := ownRecords(t, w)
	if len(recs) != 1 || !slices.Equal(recs[0].Providers, []string{"claude-code", "copilot-cli", "qoder"}) || len(recs[0].Entries) != 3 {
		t.Fatalf("records %+v, want one listing the three writers and three entries", recs)
	}
	ures, err := write.Uninject(fsys.NewOS(), w.request("copilot-cli", providers.Project, "", "fetch"))
	if err != nil || !slices.Equal(ures.Removed, []string{"fetch"}) {
		t.Fatalf("copilot-cli uninjects the entry Claude Code wrote: %+v, %v", ures, err)
	}
	ures, err = write.Uninject(fsys.NewOS(), w.request("claude-code", providers.Project, "", "docs", "github"))
	if err != nil || !slices.Equal(ures.Removed, []string{"docs", "github"}) {
		t.Fatalf("claude-code uninjects: %+v, %v", ures, err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("%s left (%v): mcpwire created it, and removed its last entry (H7)", path, err)
	}
}

// TestSharedMCPJSONOneTransaction: Claude Code and Copilot CLI injected together
// (inject --provider claude-code --provider copilot-cli --profile dev) write .mcp.json
// once, one entry a server: Copilot's edit counts the entries Claude's wrote in the
// same transaction as mcpwire's, and adds its tools allowlist to github's.
//
// spec: V10 W7
func TestSharedMCPJSONOneTransaction(t *testing.T) {
	w := newWorld(t)
	var preps []*write.Prepared
	for _, p := range []string{"claude-code", "copilot-cli"} {
		prep, err := write.Prepare(fsys.NewOS(), w.request(p, providers.Project, "dev"))
		if err != nil {
			t.Fatal(err)
		}
		preps = append(preps, prep)
	}
	if err := write.Commit(fsys.NewOS(), preps, true); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(w.project, ".mcp.json")
	for _, prep := range preps {
		if !slices.Contains(prep.Result.Changed, path) {
			t.Errorf("%s: changed %v", prep.Result.Provider, prep.Result.Changed)
		}
	}
	servers := serversOf(t, path, "mcpServers")
	if len(servers) != 3 || servers["tickets"]["type"] != "http" || servers["notes"]["type"] != nil || servers["github"]["tools"] == nil {
		t.Errorf("servers %v", servers)
	}
	if recs := ownRecords(t, w); len(recs) != 1 || len(recs[0].Entries) != 3 || len(recs[0].Providers) != 2 {
		t.Errorf("records %+v", recs)
	}
	if staged, _ := filepath.Glob(filepath.Join(w.layer, render.OwnershipDir, "*.staged")); len(staged) > 0 {
		t.Errorf("staged records left: %v", staged)
	}
}

// TestSharedMembersKept: a writer of .mcp.json keeps the members only another writer
// of the file writes: Copilot CLI's tools allowlist and cwd stay when Claude Code
// rewrites the entry; a disabled server is not switched off for Qoder alone (the
// switch would not mean the same to Claude Code and Copilot CLI reading the entry).
//
// spec: V10 F3
func TestSharedMembersKept(t *testing.T) {
	w := newWorld(t)
	path := filepath.Join(w.project, ".mcp.json")
	if _, err := write.Inject(fsys.NewOS(), w.request("copilot-cli", providers.Project, "dev")); err != nil {
		t.Fatal(err)
	}
	want := serversOf(t, path, "mcpServers")
	// ${project}: the project directory (with forward slashes on Windows)
	if want["github"]["tools"] == nil || want["notes"]["cwd"] != filepath.ToSlash(w.project) {
		t.Fatalf("copilot entries %v", want)
	}
	req := w.request("claude-code", providers.Project, "", "notes", "github")
	if _, err := write.Inject(fsys.NewOS(), req); err != nil {
		t.Fatal(err)
	}
	got := serversOf(t, path, "mcpServers")
	for _, n := range []string{"notes", "github"} {
		a, _ := json.Marshal(got[n])
		b, _ := json.Marshal(want[n])
		if string(a) != string(b) {
			t.Errorf("%s: Claude Code changed Copilot's entry:\n%s\nwas\n%s", n, a, b)
		}
	}
	// qoder has a disabled switch, Claude Code and Copilot CLI have none
	reg := w.registry()
	off := false
	s, _ := reg.Server("fetch")
	s.Enabled = &off
	r := w.request("qoder", providers.Project, "", "fetch")
	r.Registry = reg
	if _, err := write.Inject(fsys.NewOS(), r); err != nil {
		t.Fatal(err)
	}
	if _, ok := serversOf(t, path, "mcpServers")["fetch"]; ok {
		t.Error("a disabled server was written into .mcp.json for Qoder alone")
	}
	if !slices.ContainsFunc(w.warns, func(s string) bool { return strings.Contains(s, "fetch is disabled") }) {
		t.Errorf("warnings %q", w.warns)
	}
}
