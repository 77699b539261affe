package policy

import (
	"slices"
	"strings"
	"testing"
)

// spec: G1
func TestWildcard(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"https://a.example/mcp", "https://a.example/mcp", true},
		{"https://a.example/mcp", "https://a.example/mcp/", false},
		{"https://*.acme.example/*", "https://t.acme.example/mcp", true},
		{"https://*.acme.example/*", "https://acme.example/mcp", false},
		{"https://*.acme.example/*", "https://evil.example/x.acme.example/", true},
		{"*", "", true},
		{"a*b*c", "abc", true},
		{"a*b*c", "acb", false},
		{"*mcp", "https://x/mcp", true},
	} {
		if got := Wildcard(tc.pattern, tc.s); got != tc.want {
			t.Errorf("Wildcard(%q, %q) = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}

// spec: G1
func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"npx", "-y", "pkg@1"}, []string{"npx", "-y", "pkg@1"}},
		{[]string{"cmd", "/c", "npx", "-y", "pkg@1"}, []string{"npx", "-y", "pkg@1"}},
		{[]string{"cmd.exe", "/d", "/s", "/C", "npx.cmd", "-y", "pkg@1"}, []string{"npx", "-y", "pkg@1"}},
		{[]string{"cmd", "/k", "x"}, []string{"cmd", "/k", "x"}},
		{[]string{"cmd", "/c"}, []string{"cmd", "/c"}},
		{[]string{"uvx.EXE", "fetch"}, []string{"uvx", "fetch"}},
	} {
		if got := Canonical(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// spec: G1
func TestServerPoliciesDecide(t *testing.T) {
	org, bad := ParseServerPolicy("org/mcp-policy.json", []byte(`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy",
		"allowUnlisted": false,
		"allow": [{"name": "gh"}, {"url": "https://*.acme/mcp"}, {"command": ["npx", "-y", "docs@1"]}, {"name": "fetch"}],
		"deny": [{"url": "https://bad.acme/*"}]}`))
	if bad != nil {
		t.Fatal(bad)
	}
	me, bad := ParseServerPolicy("me/mcp-policy.json", []byte(`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy",
		"allow": [{"name": "mine"}], "deny": [{"name": "fetch"}]}`))
	if bad != nil {
		t.Fatal(bad)
	}
	ps := ServerPolicies{org, me}
	for _, tc := range []struct {
		c    Candidate
		want string // "" passes; else the start of the rule and the file
	}{
		{Candidate{Name: "gh", Command: []string{"gh-mcp"}}, ""},
		{Candidate{Name: "t", URL: "https://t.acme/mcp"}, ""},
		{Candidate{Name: "bad", URL: "https://bad.acme/mcp"}, "deny[0] in org"},
		{Candidate{Name: "d", Command: []string{"npx", "-y", "docs@1"}}, ""},
		{Candidate{Name: "d", Command: []string{"cmd", "/c", "npx", "-y", "docs@1"}}, ""},
		{Candidate{Name: "d", Command: []string{"npx", "-y", "docs@2"}}, "allowUnlisted in org"},
		{Candidate{Name: "mine", Command: []string{"mine"}}, "allowUnlisted in org"},
		{Candidate{Name: "fetch", Command: []string{"uvx"}}, "deny[0] in me"},
		{Candidate{Name: "renamed", Command: []string{"gh-mcp"}}, "allowUnlisted in org"},
	} {
		d := ps.Decide(tc.c)
		got := ""
		if d != nil {
			got = strings.Fields(d.Rule)[0] + " in " + strings.Split(d.File, "/")[0]
		}
		if got != tc.want {
			t.Errorf("Decide(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
	if d := (ServerPolicies{me}).Decide(Candidate{Name: "other"}); d != nil {
		t.Errorf("allowUnlisted defaults to true: %v", d)
	}
}

// spec: G1
func TestParseServerPolicyProblems(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{``, "empty"},
		{`[]`, "a server policy is a JSON object"},
		{`{"kind": "McpServerPolicy"}`, `apiVersion: missing`},
		{`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", "allow": {}}`, `allow: {} (want a list of rules)`},
		{`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", "deny": [{"name": ""}]}`, `deny[0].name: "" (want a non-empty string)`},
		{`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", "deny": [{}]}`, `deny[0]: a rule has exactly one`},
		{`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", "deny": [{"command": []}]}`, `deny[0].command: [] (want a list of strings`},
		{`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", "allowUnlisted": null}`, `allowUnlisted: null (want true or false)`},
	} {
		_, bad := ParseServerPolicy("p.json", []byte(tc.src))
		if len(bad) == 0 || !strings.Contains(bad[0], "p.json: "+tc.want) && !strings.Contains(bad[0], tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.src, bad, tc.want)
		}
	}
}

// spec: G1 G3
func TestMerged(t *testing.T) {
	parse := func(file, src string) *ServerPolicy {
		p, bad := ParseServerPolicy(file, []byte(`{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", `+src+`}`))
		if bad != nil {
			t.Fatal(bad)
		}
		return p
	}
	org := parse("org", `"allowUnlisted": false, "allow": [{"name": "a"}, {"name": "b"}, {"url": "https://*.acme/*"}], "deny": [{"name": "x"}]`)
	team := parse("team", `"allowUnlisted": false, "allow": [{"name": "a"}, {"name": "c"}, {"url": "https://t.acme/*"}], "deny": [{"name": "y"}]`)
	me := parse("me", `"allow": [{"name": "z"}], "deny": [{"name": "b"}]`)
	m, warns := ServerPolicies{org, team, me}.Merged()
	if m.AllowUnlisted {
		t.Error("allowUnlisted: a restricting layer must restrict the merged policy")
	}
	var allow, deny []string
	for _, r := range m.Allow {
		allow = append(allow, r.String())
	}
	for _, r := range m.Deny {
		deny = append(deny, r.String())
	}
	wantAllow := []string{`{"name":"a"}`, `{"url":"https://t.acme/*"}`}
	wantDeny := []string{`{"name":"x"}`, `{"name":"y"}`, `{"name":"b"}`}
	if !slices.Equal(allow, wantAllow) || !slices.Equal(deny, wantDeny) {
		t.Errorf("Merged: allow %q deny %q, want %q %q", allow, deny, wantAllow, wantDeny)
	}
	if len(warns) != 3 { // b, the org's url, c
		t.Errorf("warnings %q, want one per rule left out (3)", warns)
	}
	if m, _ := (ServerPolicies{me}).Merged(); !m.AllowUnlisted || len(m.Allow) != 0 {
		t.Errorf("an allowUnlisted layer's allow list widens nothing and is not written: %+v", m)
	}
}
