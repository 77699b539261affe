package main

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
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
	printf(env.Stdout, "server %q would change:\n", name)
	for _, f := range fields {
		printf(env.Stdout, "  %s\n", f)
	}
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

// changedFields says what changes between a and b, one line per member or key (H3):
// each env key and each header with where its value comes from before and after
// ("env.API_KEY: a literal (hidden) → $API_KEY"), the other members by name
// ("command: changed"). A value is shown only when declared plain (P11); a literal is
// hidden and a variable is named. Bookkeeping members (updatedAt, addedAt,
// injectedProviders) are left out.
func changedFields(a, b *registry.Server) []string {
	var out []string
	for _, part := range []struct {
		prefix string
		a, b   map[string]string
	}{{"env.", envSources(a), envSources(b)}, {"headers.", headerSources(a), headerSources(b)}} {
		for _, k := range unionKeys(part.a, part.b) {
			va, vb := part.a[k], part.b[k]
			if va != vb {
				out = append(out, part.prefix+k+": "+orAbsent(va)+" → "+orAbsent(vb))
			}
		}
	}
	ma, mb := members(a), members(b)
	for _, k := range unionKeys(ma, mb) {
		switch k {
		case "updatedAt", "addedAt", "injectedProviders", "env", "plainEnv", "envFrom", "envInput", "envSecret", "headers", "plainHeaders", "headerEnv", "headerInput", "headerSecret", "bearerEnv", "bearerInput", "bearerSecret":
			continue
		}
		if !bytes.Equal(ma[k], mb[k]) {
			out = append(out, k+": changed")
		}
	}
	sort.Strings(out)
	return out
}

// envSources says where each env key's value comes from: a literal (hidden), a
// plain value (shown, P11), or a variable.
func envSources(s *registry.Server) map[string]string {
	return sources(s.Env, s.PlainEnvKeys(), s.EnvFrom, s.EnvInput, s.EnvSecret)
}

// headerSources is envSources for headers, the bearer token as Authorization.
func headerSources(s *registry.Server) map[string]string {
	out := sources(s.Headers, s.PlainHeaderKeys(), s.HeaderEnv, s.HeaderInput, s.HeaderSecret)
	if s.BearerEnv != "" {
		out["Authorization"] = "Bearer $" + policy.ShowName(s.BearerEnv)
	}
	if s.BearerInput != "" {
		out["Authorization"] = "Bearer input " + s.BearerInput
	}
	if s.BearerSecret != "" {
		out["Authorization"] = "Bearer secret " + s.BearerSecret
	}
	return out
}

// sources says, per key, whether its value is a literal, a plain value, a variable
// or an input the client asks for (T3), or a reference to a secret store (S1).
func sources(values map[string]string, plain map[string]bool, refs, inputs, secrets map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range values {
		if plain[k] {
			out[k] = "plain " + strconv.Quote(v)
		} else {
			out[k] = "a literal (hidden)"
		}
	}
	for k, v := range refs {
		out[k] = "$" + policy.ShowName(v)
	}
	for k, id := range inputs {
		out[k] = "input " + id
	}
	for k, ref := range secrets {
		out[k] = "secret " + ref
	}
	return out
}

func orAbsent(v string) string {
	if v == "" {
		return "none"
	}
	return v
}

func members(s *registry.Server) map[string]json.RawMessage {
	b, _ := json.Marshal(s)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
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
