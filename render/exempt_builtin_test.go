package render_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestExemptOnlyBuiltinEntry: Request.Exempt is honoured only for the built-in aiwg
// entry supplied through Extra, and only for AIWG_ROOT (P8). Through the Go API it
// cannot exempt a registry server (one named aiwg included: it replaces the built-in
// entry), another Extra server, an Extra "aiwg" that is not the built-in command, or any
// other key: each is refused under policy none, naming server and field, never the
// value, and nothing is written (P10).
//
// spec: P8 P10 P1 P6 I2
func TestExemptOnlyBuiltinEntry(t *testing.T) {
	none := policy.None
	root := map[string]string{"AIWG_ROOT": "/opt/aiwg"}
	cases := []struct {
		name     string
		registry string // servers of the write layer
		extra    []*registry.Server
		servers  []string
		exempt   map[string]map[string]bool
		want     string // "" = written
	}{
		{"the built-in entry", "", []*registry.Server{builtinEntry(root)}, []string{"aiwg"},
			map[string]map[string]bool{"aiwg": {"AIWG_ROOT": true}}, ""},
		{"a registry server", `"rootsrv": {"command": "root-mcp", "env": {"AIWG_ROOT": "/opt/aiwg"}}`, nil, []string{"rootsrv"},
			map[string]map[string]bool{"rootsrv": {"AIWG_ROOT": true}}, `refuses rootsrv (env.AIWG_ROOT)`},
		{"a registry server named aiwg", `"aiwg": {"command": "aiwg", "args": ["mcp", "serve"], "env": {"AIWG_ROOT": "/opt/aiwg"}}`,
			[]*registry.Server{builtinEntry(root)}, []string{"aiwg"},
			map[string]map[string]bool{"aiwg": {"AIWG_ROOT": true}}, `refuses aiwg (env.AIWG_ROOT)`},
		{"another Extra server", "", []*registry.Server{{Name: "other", Type: registry.Stdio, Command: "other-mcp", Env: root}}, []string{"other"},
			map[string]map[string]bool{"other": {"AIWG_ROOT": true}}, `refuses other (env.AIWG_ROOT)`},
		{"an Extra aiwg that is not the built-in command", "",
			[]*registry.Server{{Name: "aiwg", Type: registry.Stdio, Command: "sh", Args: []string{"-c", "x"}, Env: root}}, []string{"aiwg"},
			map[string]map[string]bool{"aiwg": {"AIWG_ROOT": true}}, `refuses aiwg (env.AIWG_ROOT)`},
		{"another key on the built-in entry", "", []*registry.Server{builtinEntry(map[string]string{"AIWG_ROOT": "/opt/aiwg", "AIWG_TOKEN": "s3cret"})}, []string{"aiwg"},
			map[string]map[string]bool{"aiwg": {"AIWG_ROOT": true, "AIWG_TOKEN": true}}, `refuses aiwg (env.AIWG_TOKEN)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			if c.registry != "" {
				body := `{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": {` + c.registry + `}}`
				if err := os.WriteFile(filepath.Join(w.layer, "mcp-servers.json"), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			r := w.request("claude-code", providers.User, "", c.servers...)
			r.Policy, r.Install.Extra, r.Install.Exempt = &none, c.extra, c.exempt
			expectExemption(t, r, filepath.Dir(w.home), c.want)
		})
	}
}

// expectExemption injects r and checks the outcome: with want empty, the destination
// holds AIWG_ROOT; otherwise the error holds want and no value ("/opt/aiwg",
// "s3cret"), and nothing under root changed.
func expectExemption(t *testing.T, r write.Request, root, want string) {
	t.Helper()
	before := treeState(t, root)
	res, err := write.Inject(fsys.NewOS(), r)
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		if got := string(read(t, res.Destination)); !strings.Contains(got, `"AIWG_ROOT": "/opt/aiwg"`) {
			t.Errorf("AIWG_ROOT not written:\n%s", got)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	if strings.Contains(err.Error(), "/opt/aiwg") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("the refusal shows a value: %v", err)
	}
	if d := diffStates(before, treeState(t, root)); len(d) > 0 {
		t.Errorf("files changed:\n%s", strings.Join(d, "\n"))
	}
}
