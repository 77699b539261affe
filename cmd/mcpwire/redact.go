package main

import (
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// minSecret is the shortest value hidden by redaction: shorter values ("1", "on") are
// settings, and hiding them everywhere would garble the output.
const minSecret = 4

// registrySecrets collects every literal credential value of the registry's servers:
// env and header values, URL userinfo, credential-bearing arguments, auth/oauth
// strings (R8: never printed, also not in dry-run diffs).
func registrySecrets(reg *registry.Registry) []string {
	seen := map[string]bool{}
	add := func(v string) {
		if len(v) >= minSecret && !policy.IsReference(v) {
			seen[v] = true
		}
	}
	for _, n := range reg.ServerNames() {
		s, _ := reg.Server(n)
		for _, v := range s.Env {
			add(v)
		}
		for _, v := range s.Headers {
			add(v)
			if _, rest, ok := strings.Cut(v, " "); ok {
				add(rest)
			}
		}
		if policy.HasUserinfo(s.URL) {
			red := policy.RedactURL(s.URL)
			add(s.URL)
			if i := strings.Index(s.URL, "://"); i >= 0 {
				if j := strings.Index(s.URL[i+3:], "@"); j >= 0 {
					add(s.URL[i+3 : i+3+j])
				}
			}
			_ = red
		}
		red := policy.RedactArgs(s.Args)
		for i, a := range s.Args {
			if red[i] != a {
				add(a)
				if _, v, ok := strings.Cut(a, "="); ok {
					add(v)
				}
			}
		}
		for _, m := range []map[string]any{s.Auth, s.OAuth} {
			for k, v := range m {
				if str, ok := v.(string); ok && k != "type" {
					add(str)
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// redactLine replaces every secret in a line with REDACTED.
func redactLine(line string, secrets []string) string {
	for _, s := range secrets {
		if strings.Contains(line, s) {
			line = strings.ReplaceAll(line, s, "REDACTED")
		}
	}
	return line
}
