package main

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/registry"
)

// printUpdatePreview prints server update --dry-run (U3): the fields that would
// change (names only), then the server before and after as server show prints it
// (values hidden, R8), and where it would be written. Nothing is written.
func printUpdatePreview(env *Env, reg *registry.Registry, before, after *registry.Server, changed bool) {
	name := before.Name
	fields := changedFields(before, after)
	if !changed || len(fields) == 0 {
		printf(env.Stdout, "server %q would be unchanged (%s): nothing would be written\n", name, reg.ServerOrigin(name))
		return
	}
	printf(env.Stdout, "server %q would change: %s\n", name, strings.Join(fields, ", "))
	for _, part := range []struct {
		title string
		s     *registry.Server
	}{{"before", before}, {"after", after}} {
		printf(env.Stdout, "%s:\n", part.title)
		var b bytes.Buffer
		v := viewServer(part.s, "")
		v.InjectedProviders = nil
		v.write(&b)
		for _, line := range strings.SplitAfter(b.String(), "\n") {
			if line != "" {
				printf(env.Stdout, "  %s", line)
			}
		}
	}
	write := reg.Set().Write().Servers.Path
	if !reg.InWriteLayer(name) {
		printf(env.Stdout, "would copy the server from %s into %s (the lower file is not changed)\n", reg.ServerOrigin(name), write)
	} else {
		printf(env.Stdout, "would write %s\n", write)
	}
	printf(env.Stdout, "dry run: nothing was written\n")
}

// changedFields names the members of a server that differ between a and b, with the
// key for env, headers, headerEnv and envFrom (env.API_KEY): names only, never a
// value. Bookkeeping members (updatedAt, addedAt, injectedProviders) are left out.
func changedFields(a, b *registry.Server) []string {
	ma, mb := members(a), members(b)
	var out []string
	for _, k := range unionKeys(ma, mb) {
		switch k {
		case "updatedAt", "addedAt", "injectedProviders":
			continue
		}
		if bytes.Equal(ma[k], mb[k]) {
			continue
		}
		switch k {
		case "env", "headers", "headerEnv", "envFrom":
			sa, sb := stringMap(ma[k]), stringMap(mb[k])
			for _, key := range unionKeys(sa, sb) {
				va, oka := sa[key]
				vb, okb := sb[key]
				if oka != okb || va != vb {
					out = append(out, k+"."+key)
				}
			}
		default:
			out = append(out, k)
		}
	}
	return out
}

func members(s *registry.Server) map[string]json.RawMessage {
	b, _ := json.Marshal(s)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	return m
}

func stringMap(raw json.RawMessage) map[string]string {
	var m map[string]string
	_ = json.Unmarshal(raw, &m)
	return m
}

func unionKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]V{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
