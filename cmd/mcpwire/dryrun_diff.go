package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/policy/redact"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// printRedactedDiff prints the dry run's diff of the client files (not mcpwire's own
// records, which are listed by name), with every credential hidden (R8): the values
// the registry holds, and every credential of every file the dry run touches, before
// and after, whoever wrote it.
func printRedactedDiff(env *Env, dr *fsys.DryRun, reg *registry.Registry) {
	layer := reg.Set().Write().Dir
	records := render.RecordDirs(layer)
	include := func(p string) bool {
		if p == layer {
			return false
		}
		for _, r := range records {
			if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
				return false
			}
		}
		return true
	}
	var keys []string
	for _, p := range providers.All() {
		keys = append(keys, p.ServersKey)
	}
	r := redact.New(keys...)
	servers := reg.EffectiveServers()
	all := make([]policy.Fields, 0, len(servers)) // K7: 200,000 after an import
	for _, s := range servers {
		all = append(all, policy.Fields{Server: s.Name, URL: s.URL, Command: s.Command, Args: s.Args,
			Env: s.Env, Headers: s.Headers, Auth: s.Auth, OAuth: s.OAuth,
			PlainEnv: plainOnly(s.Env, s.PlainEnvKeys()), PlainHeaders: plainOnly(s.Headers, s.PlainHeaderKeys())})
	}
	r.Plain(plainValues(all)...)
	for _, f := range all {
		r.Server(f)
	}
	for _, in := range dr.Intents() {
		r.DiffPath(in.Path)
		if !include(in.Path) {
			continue
		}
		old := in.Old != nil && in.Old.Exists
		switch {
		case old && in.Op == "write":
			r.ChangeContent(in.Path, in.Old.Data, in.Content)
		case old:
			r.File(in.Path, in.Old.Data)
		case in.Op == "write":
			r.File(in.Path, in.Content.Bytes())
		}
	}
	io.WriteString(env.Stdout, dr.DiffOnly(r.Line, include))
}

// plainOnly are the keys of declared whose values pass policy.PlainEnvProblem: a
// declaration edited by hand onto a token does not make it shown.
func plainOnly(values map[string]string, declared map[string]bool) map[string]bool {
	if len(declared) == 0 {
		return nil // K7: no map for each of 200,000 servers that declare nothing
	}
	out := map[string]bool{}
	for k := range declared {
		if policy.PlainEnvProblem(k, values[k]) == "" {
			out[k] = true
		}
	}
	return out
}

// plainValues are the values declared plain (H10) that no server holds as a
// credential: a diff shows them.
func plainValues(all []policy.Fields) []string {
	plain, secret := map[string]bool{}, map[string]bool{}
	for _, f := range all {
		for _, part := range []struct {
			values   map[string]string
			declared map[string]bool
		}{{f.Env, f.PlainEnv}, {f.Headers, f.PlainHeaders}} {
			for k, v := range part.values {
				if part.declared[k] {
					plain[v] = true
				} else {
					secret[v] = true
				}
			}
		}
	}
	var out []string
	for v := range plain {
		if !secret[v] {
			out = append(out, v)
		}
	}
	return out
}
