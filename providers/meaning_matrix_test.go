package providers

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// The meaning matrix (T7): for every source client A, every kind of reference and
// every target client B, a server written into A's file as mcpwire writes it is
// imported from it (read back, as import reads it) and written for B: B gets its own
// spelling of the same meaning, or a refusal naming server, field and B; never a form
// B does not resolve. Cells whose source cannot hold the kind at all (A refuses it) are
// skipped: there is nothing to import.

// matrixHome and matrixProject are the directories of the matrix's targets.
const (
	matrixHome    = "/home/u"
	matrixProject = "/work/repo"
)

// meaningKinds are the kinds of reference of the matrix: where a value comes from.
var meaningKinds = []struct {
	name string
	s    *registry.Server
}{
	{"env from a variable", &registry.Server{Name: "k", Type: registry.Stdio, Command: "gh-mcp", EnvFrom: map[string]string{"GITHUB_TOKEN": "GITHUB_TOKEN"}}},
	{"renamed variable", &registry.Server{Name: "k", Type: registry.Stdio, Command: "gh-mcp", EnvFrom: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "GITHUB_TOKEN"}}},
	{"header from a variable", &registry.Server{Name: "k", Type: registry.HTTP, URL: "https://h.example/mcp", HeaderEnv: map[string]string{"X-Team": "TEAM"}}},
	{"bearer token", &registry.Server{Name: "k", Type: registry.HTTP, URL: "https://h.example/mcp", BearerEnv: "TICKETS_TOKEN"}},
	{"input", &registry.Server{Name: "k", Type: registry.Stdio, Command: "px-mcp", EnvInput: map[string]string{"PERPLEXITY_API_KEY": "perplexity-key"},
		Inputs: []registry.Input{{ID: "perplexity-key", Description: "Perplexity key", Password: true}}}},
	{"bearer input", &registry.Server{Name: "k", Type: registry.HTTP, URL: "https://h.example/mcp", BearerInput: "tk",
		Inputs: []registry.Input{{ID: "tk", Description: "Tickets token", Password: true}}}},
	{"plain value", &registry.Server{Name: "k", Type: registry.Stdio, Command: "log-mcp", Env: map[string]string{"LOG_LEVEL": "debug"}, PlainEnv: []string{"LOG_LEVEL"}}},
	{"literal", &registry.Server{Name: "k", Type: registry.Stdio, Command: "lit-mcp", Env: map[string]string{"API_KEY": "sk-literal-0123456789"}}},
	{"variable inside a value", &registry.Server{Name: "k", Type: registry.Stdio, Command: "db-mcp", Args: []string{"--url=postgres://db/${DB_NAME}"}}},
	{"home directory", &registry.Server{Name: "k", Type: registry.Stdio, Command: "notes-mcp", Args: []string{"--root", "${userHome}/notes"}}},
	{"project directory", &registry.Server{Name: "k", Type: registry.Stdio, Command: "notes-mcp", Args: []string{"--root", "${project}/notes"}}},
	{"default value", &registry.Server{Name: "k", Type: registry.Stdio, Command: "notes-mcp", Env: map[string]string{"NOTES_DIR": "${NOTES_DIR:-./notes}"}}},
	// S2: secrets from a store
	{"env from a secret store", &registry.Server{Name: "k", Type: registry.Stdio, Command: "gh-mcp", Args: []string{"--stdio"}, EnvSecret: map[string]string{"GITHUB_TOKEN": "pass:mcpwire/k/GITHUB_TOKEN"}}},
	{"1Password reference in env", &registry.Server{Name: "k", Type: registry.Stdio, Command: "gh-mcp", Env: map[string]string{"GITHUB_TOKEN": "op://Private/GitHub/token"}}},
	{"header from a secret store", &registry.Server{Name: "k", Type: registry.HTTP, URL: "https://h.example/mcp", HeaderSecret: map[string]string{"X-Api-Key": "keyring:mcpwire/k"}}},
	{"bearer from a secret store", &registry.Server{Name: "k", Type: registry.HTTP, URL: "https://h.example/mcp", BearerSecret: "op://Private/tickets/credential"}},
}

// matrixTarget is where the matrix writes for a client: its default scope.
func matrixTarget(p *Provider) Target {
	scope := p.DefaultScope
	if p.Dest(scope) == nil {
		scope = p.Scopes()[0]
	}
	return Target{P: p, Scope: scope, Project: matrixProject, Home: matrixHome}
}

// matrixWrite writes s for t as inject does: its entry as JSON, with the inputs a
// client that prompts declares beside it; the problems when t refuses it.
func matrixWrite(t Target, s *registry.Server) (json.RawMessage, []registry.Input, Values, []Problem) {
	d := t.P.Dialect()
	v, probs := Spell(t, d, s)
	if len(probs) > 0 {
		return nil, nil, v, probs
	}
	raw, err := format.Marshal(d.Entry(s, &v, nil))
	if err != nil {
		panic(err)
	}
	return raw, v.Inputs, v, nil
}

// matrixRead reads an entry back as import does, the file's input declarations
// (written as the client declares them) attached.
func matrixRead(t Target, raw json.RawMessage, inputs []registry.Input) (*Imported, error) {
	d := t.P.Dialect()
	im, err := ReadBack(t, d, raw)
	if err != nil {
		return nil, err
	}
	if t.P.Prompts && len(inputs) > 0 {
		file, err := format.Marshal(d.Standalone(format.Object{}, nil, inputs))
		if err != nil {
			return nil, err
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(file, &top); err != nil {
			return nil, err
		}
		AttachInputs(im.Server, d.ReadInputs(func(path ...string) (json.RawMessage, bool) {
			v, ok := top[strings.Join(path, ".")]
			return v, ok
		}))
	}
	im.Server.Name = "k"
	return im, nil
}

// meaningOf is what a server means, for comparing: where each value comes from, with
// the directories resolved and what a client keeps besides (plain declarations,
// descriptions, the words of an input's prompt) left out.
func meaningOf(s *registry.Server) string {
	c := s.Clone()
	c.Name, c.PlainEnv, c.Description = "", nil, ""
	for i := range c.Inputs {
		c.Inputs[i].Description, c.Inputs[i].Extra = "", nil
	}
	resolve := func(v string) string {
		r := strings.NewReplacer(policy.StyleHome, matrixHome, policy.StyleProject, matrixProject, policy.StyleWorkspace, matrixProject)
		return r.Replace(v)
	}
	c.Command = resolve(c.Command)
	for i := range c.Args {
		c.Args[i] = resolve(c.Args[i])
	}
	for k := range c.Env {
		c.Env[k] = resolve(c.Env[k])
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// expectFor is what a server imported from A means once written for B: the same, but
// for the inputs of a client that cannot ask for them (a variable each, T3) and the
// variables a client passes to a stdio server without a member (Kimi Code: the whole
// environment).
func expectFor(s *registry.Server, b Target) *registry.Server {
	c := s.Clone()
	for k, v := range c.Env {
		if opWhole(v) {
			c.EnvSecret = setKey(c.EnvSecret, k, v) // a 1Password reference is delivered as one (T2, S2)
			delete(c.Env, k)
		}
	}
	if len(c.Env) == 0 {
		c.Env = nil
	}
	if !b.P.HeadersHelper && c.Remote() {
		// a client without a headers helper reads each secret from a variable of its
		// own, which mcpwire session or exec sets
		for h := range c.HeaderSecret {
			c.HeaderEnv = setKey(c.HeaderEnv, h, SecretVariable(c.Name, h))
		}
		if c.BearerSecret != "" {
			c.BearerEnv = SecretVariable(c.Name, bearerName)
		}
		c.HeaderSecret, c.BearerSecret = nil, ""
	}
	if !b.P.Prompts {
		for k := range c.EnvInput {
			c.EnvFrom = setKey(c.EnvFrom, k, k)
		}
		for h, id := range c.HeaderInput {
			c.HeaderEnv = setKey(c.HeaderEnv, h, registry.InputVariable(id))
		}
		if c.BearerInput != "" {
			c.BearerEnv = registry.InputVariable(c.BearerInput)
		}
		c.EnvInput, c.HeaderInput, c.BearerInput, c.Inputs = nil, nil, "", nil
	}
	if b.P.Refs == refBearerVar {
		for k, v := range c.EnvFrom {
			if k == v {
				delete(c.EnvFrom, k) // inherited: nothing written, nothing read back
			}
		}
		if len(c.EnvFrom) == 0 {
			c.EnvFrom = nil
		}
	}
	return c
}

// TestMeaningMatrix: T7 over All() × meaningKinds × All().
//
// spec: T7 T1 T2 T3
func TestMeaningMatrix(t *testing.T) {
	var sources, translated, refused, skipped int
	all := slices.DeleteFunc(slices.Clone(All()), (*Provider).Manual)
	for _, a := range all {
		ta := matrixTarget(a)
		sources++
		for _, k := range meaningKinds {
			rawA, inputsA, _, probs := matrixWrite(ta, k.s)
			if len(probs) > 0 {
				skipped += len(all)
				continue
			}
			imA, err := matrixRead(ta, rawA, inputsA)
			if err != nil {
				t.Errorf("%s, %s: cannot read back what mcpwire wrote: %v", a.Name, k.name, err)
				continue
			}
			if len(imA.Unresolved) > 0 {
				t.Errorf("%s, %s: mcpwire wrote forms %s does not resolve: %+v (%s)", a.Name, k.name, a.Display, imA.Unresolved, rawA)
			}
			if want, got := meaningOf(expectFor(k.s, ta)), meaningOf(imA.Server); want != got {
				t.Errorf("%s, %s: imported\n got %s\nwant %s", a.Name, k.name, got, want)
			}
			for _, b := range all {
				tb := matrixTarget(b)
				cell := fmt.Sprintf("%s → %s, %s", a.Name, b.Name, k.name)
				rawB, inputsB, _, probs := matrixWrite(tb, imA.Server)
				if len(probs) > 0 {
					refused++
					for _, p := range probs {
						if p.Server != "k" || p.Field == "" || !strings.Contains(p.Reason, b.Display) {
							t.Errorf("%s: a refusal that does not name server, field and client: %+v", cell, p)
						}
					}
					continue
				}
				translated++
				imB, err := matrixRead(tb, rawB, inputsB)
				if err != nil {
					t.Errorf("%s: cannot read back: %v", cell, err)
					continue
				}
				if len(imB.Unresolved) > 0 {
					t.Errorf("%s: a form %s does not resolve: %+v in %s", cell, b.Display, imB.Unresolved, rawB)
				}
				if want, got := meaningOf(expectFor(imA.Server, tb)), meaningOf(imB.Server); want != got {
					t.Errorf("%s: the meaning changed\n got %s\nwant %s\n (%s)", cell, got, want, rawB)
				}
			}
		}
	}
	t.Logf("T7 matrix: %d sources × %d kinds × %d targets = %d cells: %d translated, %d refused, %d skipped (the source cannot hold the kind)",
		sources, len(meaningKinds), len(all), sources*len(meaningKinds)*len(all), translated, refused, skipped)
	if translated == 0 || refused == 0 {
		t.Errorf("a matrix without both outcomes proves nothing")
	}
}
