package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// ServerPolicyKind is the "kind" of an mcp-policy.json file (SPEC G1).
const ServerPolicyKind = "McpServerPolicy"

// ServerPolicy is one layer's mcp-policy.json: which servers may be written (G1).
type ServerPolicy struct {
	// File is the policy file's path, named in every refusal.
	File string
	// AllowUnlisted is false when only servers an allow rule matches pass.
	AllowUnlisted bool
	// Allow and Deny are the rules, in file order. Deny wins.
	Allow, Deny []ServerRule
}

// ServerRule matches servers by exactly one of name, URL pattern or command argv.
type ServerRule struct {
	// Name matches a server's name exactly.
	Name string `json:"name,omitempty"`
	// URL matches a remote server's URL; "*" matches any run of characters.
	URL string `json:"url,omitempty"`
	// Command matches a stdio server's argv (command, then arguments) exactly, once
	// both are in the canonical form (Canonical).
	Command []string `json:"command,omitempty"`
}

// Candidate is what a rule looks at in one server.
type Candidate struct {
	Name string
	// URL is set for a remote server.
	URL string
	// Command is the argv of a stdio server (command, then arguments).
	Command []string
}

// String spells a rule as it is written in the file.
func (r ServerRule) String() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// Matches reports whether the rule matches the server.
func (r ServerRule) Matches(c Candidate) bool {
	switch {
	case r.Name != "":
		return c.Name == r.Name
	case r.URL != "":
		return c.URL != "" && Wildcard(r.URL, c.URL)
	case len(r.Command) > 0:
		return len(c.Command) > 0 && equalArgv(Canonical(r.Command), Canonical(c.Command))
	}
	return false
}

// Canonical is the form in which command rules and servers are compared: the argv
// with a Windows shell wrapper (cmd /c, cmd.exe /d /s /c …) taken off, since it only
// runs the rest, and the program's ".cmd"/".exe" suffix dropped (npx.cmd is npx). A
// package version is kept: pkg@1 and pkg@2 are different commands (exact argv).
func Canonical(argv []string) []string {
	for len(argv) > 1 && isShell(argv[0]) {
		i := 1
		for i < len(argv) && strings.HasPrefix(argv[i], "/") && !strings.EqualFold(argv[i], "/c") && len(argv[i]) == 2 {
			i++ // /d, /s before /c
		}
		if i >= len(argv)-1 || !strings.EqualFold(argv[i], "/c") {
			break
		}
		argv = argv[i+1:]
	}
	if len(argv) == 0 {
		return argv
	}
	out := append([]string{trimExe(argv[0])}, argv[1:]...)
	return out
}

func isShell(s string) bool {
	return strings.EqualFold(trimExe(s), "cmd")
}

func trimExe(s string) string {
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		if len(s) > len(ext) && strings.EqualFold(s[len(s)-len(ext):], ext) {
			return s[:len(s)-len(ext)]
		}
	}
	return s
}

func equalArgv(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Wildcard reports whether s matches pattern, where "*" matches any run of
// characters (none included) and everything else matches itself.
func Wildcard(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return s == pattern
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, last)
}

// ParseServerPolicy reads an mcp-policy.json file (JSONC). It returns every problem,
// each naming the file and the field: a wrong apiVersion or kind, an unknown member,
// a rule with none or several of name, url and command, an empty value.
func ParseServerPolicy(path string, data []byte) (*ServerPolicy, []string) {
	p := &ServerPolicy{File: path, AllowUnlisted: true}
	data, _ = bytes.CutPrefix(data, []byte(jsonc.BOM))
	doc, err := jsonc.Decode(data)
	if errors.Is(err, jsonc.ErrEmpty) {
		return nil, []string{fmt.Sprintf("%s: empty; a server policy needs apiVersion %q and kind %q", path, "aiwg.io/v1", ServerPolicyKind)}
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: invalid JSON: %v", path, err)}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc.Root, &top); err != nil || top == nil {
		return nil, []string{fmt.Sprintf("%s: a server policy is a JSON object", path)}
	}
	var problems []string
	bad := func(field, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s: %s: %s", path, field, fmt.Sprintf(format, args...)))
	}
	wantString := func(field, want string) {
		var s string
		raw, ok := top[field]
		if !ok {
			bad(field, "missing (want %q)", want)
		} else if json.Unmarshal(raw, &s) != nil || s != want {
			bad(field, "%s (want %q)", compact(raw), want)
		}
	}
	wantString("apiVersion", "aiwg.io/v1")
	wantString("kind", ServerPolicyKind)
	for _, k := range sortedNames(top) {
		raw := top[k]
		switch k {
		case "apiVersion", "kind":
		case "allowUnlisted":
			if json.Unmarshal(raw, &p.AllowUnlisted) != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
				bad(k, "%s (want true or false)", compact(raw))
			}
		case "allow":
			p.Allow = parseRules(k, raw, bad)
		case "deny":
			p.Deny = parseRules(k, raw, bad)
		default:
			bad(k, "unknown member (want apiVersion, kind, allowUnlisted, allow, deny)")
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return p, nil
}

func parseRules(field string, raw json.RawMessage, bad func(field, format string, args ...any)) []ServerRule {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil || list == nil {
		bad(field, "%s (want a list of rules)", compact(raw))
		return nil
	}
	rules := make([]ServerRule, 0, len(list))
	for i, item := range list {
		at := fmt.Sprintf("%s[%d]", field, i)
		var m map[string]json.RawMessage
		if json.Unmarshal(item, &m) != nil || m == nil {
			bad(at, "%s (want {\"name\": …}, {\"url\": …} or {\"command\": […]})", compact(item))
			continue
		}
		if len(m) != 1 {
			bad(at, "a rule has exactly one of name, url or command (has %d members)", len(m))
			continue
		}
		var r ServerRule
		for k, v := range m {
			var err error
			switch k {
			case "name":
				err = json.Unmarshal(v, &r.Name)
				if err == nil && r.Name == "" {
					err = errors.New("empty")
				}
			case "url":
				err = json.Unmarshal(v, &r.URL)
				if err == nil && r.URL == "" {
					err = errors.New("empty")
				}
			case "command":
				err = json.Unmarshal(v, &r.Command)
				if err == nil && (len(r.Command) == 0 || r.Command[0] == "") {
					err = errors.New("empty")
				}
			default:
				bad(at+"."+k, "unknown member (want name, url or command)")
				continue
			}
			if err != nil {
				want := "a non-empty string"
				if k == "command" {
					want = "a list of strings, the program first"
				}
				bad(at+"."+k, "%s (want %s)", compact(v), want)
				continue
			}
			rules = append(rules, r)
		}
	}
	return rules
}

func sortedNames(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ServerPolicies are the policies of every layer, lowest first. A server passes only
// when it passes every one: a higher layer can narrow what a lower one allows, never
// widen it (G1).
type ServerPolicies []*ServerPolicy

// Denial says why a server does not pass: the file and the rule.
type Denial struct {
	Server string
	File   string
	// Rule is the deny rule that matched, as written ("deny[0] {"name":"x"}"), or
	// "allowUnlisted false" when no allow rule matched.
	Rule string
}

func (d *Denial) String() string {
	return fmt.Sprintf("server %q is denied by %s in %s", d.Server, d.Rule, d.File)
}

// Decide returns why the server is denied, or nil when every layer's policy lets it
// pass. The lowest layer that denies it is named.
func (ps ServerPolicies) Decide(c Candidate) *Denial {
	for _, p := range ps {
		if d := p.Decide(c); d != nil {
			return d
		}
	}
	return nil
}

// Decide applies one layer's policy: a deny rule wins; then with allowUnlisted
// false an allow rule must match.
func (p *ServerPolicy) Decide(c Candidate) *Denial {
	for i, r := range p.Deny {
		if r.Matches(c) {
			return &Denial{Server: c.Name, File: p.File, Rule: fmt.Sprintf("deny[%d] %s", i, r)}
		}
	}
	if p.AllowUnlisted {
		return nil
	}
	for _, r := range p.Allow {
		if r.Matches(c) {
			return nil
		}
	}
	return &Denial{Server: c.Name, File: p.File, Rule: "allowUnlisted false (no allow rule matches it)"}
}

// DeniedError refuses servers the server policy denies (G2): each server, its rule
// and the file.
type DeniedError struct {
	Denials []*Denial
}

func (e *DeniedError) Error() string {
	parts := make([]string, len(e.Denials))
	for i, d := range e.Denials {
		parts[i] = d.String()
	}
	return strings.Join(parts, "; ")
}

// Hints says what to do about a denied server.
func (e *DeniedError) Hints() []string {
	return []string{"the organisation's server policy (mcp-policy.json) decides which servers may be written; choose other servers, or ask its owner to allow this one"}
}
