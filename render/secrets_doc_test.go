package render_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// deliveryTable is the per-client table of docs/secrets.md, made from what the
// values step does for each client and scope (the shared project file in the view its
// writers share): how a stdio server's envSecret and a remote server's bearerSecret
// reach the server.
func deliveryTable(t *testing.T) string {
	t.Helper()
	stdio := &registry.Server{Name: "gh", Type: registry.Stdio, Command: "gh-mcp", EnvSecret: map[string]string{"GITHUB_TOKEN": "pass:mcpwire/gh/GITHUB_TOKEN"}}
	remote := &registry.Server{Name: "notes", Type: registry.HTTP, URL: "https://notes.example/mcp", BearerSecret: "pass:mcpwire/notes/token"}
	var b strings.Builder
	b.WriteString("| client | scope | stdio server (`envSecret`) | remote server (`headerSecret`, `bearerSecret`) |\n|---|---|---|---|\n")
	for _, p := range providers.All() {
		for _, scope := range p.Scopes() {
			d := p.Dest(scope)
			view := render.SharedView(p, p.WritersOf(scope, d.Files[0]))
			tg := providers.Target{P: view, Scope: scope, Project: "/work/repo", Home: "/home/u", Exec: "/usr/local/bin/mcpwire", GOOS: "linux"}
			dl := view.Dialect()
			var cells [2]string
			v, probs := providers.Spell(tg, dl, stdio)
			switch {
			case len(probs) > 0:
				cells[0] = "refused: " + probs[0].Reason
			case v.ExecByName:
				cells[0] = "`mcpwire exec` by name (on the client's PATH)"
			case v.Command == tg.Exec:
				cells[0] = "`mcpwire exec` by absolute path"
			default:
				t.Fatalf("%s %s: a stdio server with envSecret starts %q", p.Name, scope, v.Command)
			}
			v, probs = providers.Spell(tg, dl, remote)
			switch {
			case !p.Remote.Takes(registry.HTTP):
				cells[1] = "— (stdio only)"
			case len(probs) > 0:
				cells[1] = "refused: " + probs[0].Reason
			case v.HeadersHelper != "":
				cells[1] = "`headersHelper` runs `mcpwire headers`"
			case len(v.SecretVars) > 0:
				cells[1] = "variable `MCPWIRE_SECRET_…`, set by `mcpwire exec -- " + binaryOr(p) + "`"
				if slices.Contains(write.SessionProviders(), p) {
					cells[1] += " or `mcpwire session`"
				}
			default:
				t.Fatalf("%s %s: a remote server's bearerSecret is neither delivered nor refused", p.Name, scope)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", p.Display, scope, cells[0], cells[1])
		}
	}
	return b.String()
}

func binaryOr(p *providers.Provider) string {
	if p.Binary == "" {
		return "CLIENT"
	}
	return p.Binary
}

// spec: S2 — docs/secrets.md's delivery table is what the code does, client by client
// and scope by scope, for every client it names (the core set at least, V3); a client
// added since need not be in it, which the test says.
func TestSecretsDocTable(t *testing.T) {
	want := deliveryTable(t)
	b, err := os.ReadFile(filepath.Join("..", "docs", "secrets.md"))
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- delivery table: render/secrets_doc_test.go -->\n", "<!-- end of the delivery table -->"
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("docs/secrets.md has no %q … %q block", begin, end)
	}
	got := doc[i+len(begin) : j]
	if kept := documentedRows(want, got); got != kept {
		t.Errorf("docs/secrets.md's delivery table is not what the code does; it should be:\n%s", kept)
	}
	for _, p := range providers.All() {
		if !strings.Contains(got, "\n| "+p.Display+" | ") && !p.Manual() {
			if slices.Contains(coreSet, p.Name) {
				t.Errorf("docs/secrets.md's delivery table has no row of %s, a client of the core set", p.Display)
			} else {
				t.Logf("docs/secrets.md's delivery table has no row of %s", p.Display)
			}
		}
	}
}

// coreSet is SPEC V3's core set of clients.
var coreSet = []string{"claude-code", "claude-desktop", "codex", "cursor", "windsurf", "vscode", "opencode",
	"factory", "antigravity", "warp", "omp", "grok-build", "gemini-cli"}

// documentedRows is the table want (its header, then a row per client and scope)
// with the rows of the clients doc names alone.
func documentedRows(want, doc string) string {
	var b strings.Builder
	for i, line := range strings.SplitAfter(want, "\n") {
		client, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
		if i < 2 || line == "" || strings.Contains(doc, "\n| "+client+" | ") {
			b.WriteString(line)
		}
	}
	return b.String()
}
