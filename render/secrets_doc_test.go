package render

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/dialect"
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
			view := sharedView(p, p.WritersOf(scope, d.Files[0]))
			tg := dialect.Target{P: view, Scope: scope, Project: "/work/repo", Home: "/home/u", Exec: "/usr/local/bin/mcpwire", GOOS: "linux"}
			dl := dialect.For(view)
			var cells [2]string
			v, probs := dialect.Spell(tg, dl, stdio)
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
			v, probs = dialect.Spell(tg, dl, remote)
			switch {
			case !p.Remote.Takes(registry.HTTP):
				cells[1] = "— (stdio only)"
			case len(probs) > 0:
				cells[1] = "refused: " + probs[0].Reason
			case v.HeadersHelper != "":
				cells[1] = "`headersHelper` runs `mcpwire headers`"
			case len(v.SecretVars) > 0:
				cells[1] = "variable `MCPWIRE_SECRET_…`, set by `mcpwire exec -- " + binaryOr(p) + "`"
				if slices.Contains(SessionProviders(), p) {
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
// and scope by scope.
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
	if got := doc[i+len(begin) : j]; got != want {
		t.Errorf("docs/secrets.md's delivery table is not what the code does; it should be:\n%s", want)
	}
}
