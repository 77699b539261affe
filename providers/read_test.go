package providers

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// roundTripServers cover every transport and every field a client entry carries:
// literal env and headers, references of every kind, ${project}, cwd, the switch,
// oh-my-pi's own timeout/auth/oauth, and tool filters (deny, allow, whole-server).
func roundTripServers() []struct {
	s  *registry.Server
	sf *ServerFilters
} {
	off := false
	return []struct {
		s  *registry.Server
		sf *ServerFilters
	}{
		{&registry.Server{Name: "full", Type: registry.Stdio, Command: "notes-mcp", Args: []string{"--root", "${project}/notes", "--stdio"},
			Env: map[string]string{"MODE": "fast", "DIR": "${project}/data"}, EnvFrom: map[string]string{"GITHUB_TOKEN": "GITHUB_TOKEN"},
			Cwd: "${project}/sub"}, &ServerFilters{Deny: []string{"delete", "drop"}}},
		{&registry.Server{Name: "renamed", Type: registry.Stdio, Command: "gh", EnvFrom: map[string]string{"TOKEN": "GH_TOKEN"}}, nil},
		{&registry.Server{Name: "bare", Type: registry.Stdio, Command: "bare-mcp"}, &ServerFilters{Allow: []string{"read"}}},
		{&registry.Server{Name: "plain", Type: registry.Stdio, Command: "/opt/p/bin/p-mcp", Args: []string{"serve", "--port=3"},
			Env: map[string]string{"P_MODE": "x"}}, nil},
		{&registry.Server{Name: "off", Type: registry.Stdio, Command: "off-mcp", Args: []string{"x"}, Enabled: &off}, nil},
		{&registry.Server{Name: "web", Type: registry.HTTP, URL: "https://mcp.example.com/web",
			Headers: map[string]string{"X-Mode": "plain"}, HeaderEnv: map[string]string{"X-Team": "TEAM"}, BearerEnv: "WEB_TOKEN"},
			&ServerFilters{Deny: []string{"close"}, Allow: []string{"open", "list"}}},
		{&registry.Server{Name: "events", Type: registry.SSE, URL: "https://mcp.example.com/sse", Headers: map[string]string{"X-Client": "me"}}, nil},
		{&registry.Server{Name: "docs", Type: registry.HTTP, URL: "https://docs.example.com/mcp"}, &ServerFilters{DenyAll: true}},
		{&registry.Server{Name: "omp-own", Type: registry.HTTP, URL: "https://omp.example.com/mcp", Timeout: json.RawMessage("30000"),
			Auth: map[string]any{"type": "oauth"}}, nil},
	}
}

// TestReadBackRoundTrip: for every client with a file and every scope, reading back
// what the dialect wrote (through the real format adapter) gives the same server, as
// far as the entry carries it, and the same filters; and rendering what was read gives
// the same digest.
//
// spec: B1 V4 R10
func TestReadBackRoundTrip(t *testing.T) {
	const project = "/work/repo"
	for _, p := range All() {
		if p.Manual() {
			continue // no file to read back
		}
		d := p.Dialect()
		for _, scope := range p.Scopes() {
			tg := Target{P: p, Scope: scope, Project: project}
			checked := 0
			for _, c := range roundTripServers() {
				s := c.s
				v, probs := Spell(tg, d, s)
				if len(probs) > 0 || Disabled(s) && p.Switch == "" {
					continue // the client cannot take it: nothing written to read back
				}
				fs := &FilterSet{Servers: map[string]*ServerFilters{}}
				if c.sf != nil {
					fs.Servers[s.Name] = c.sf
				}
				entry := d.Entry(s, &v, fs.Of(s.Name))
				raw := writeAndRead(t, p, s.Name, entry)
				im, err := ReadBack(tg, d, raw)
				if err != nil {
					t.Errorf("%s %s %s: %v", p.Name, scope, s.Name, err)
					continue
				}
				got := im.Server
				if want := expectRead(tg, s, entry, raw); !sameLaunch(got, want, c.sf) {
					gb, _ := json.Marshal(got)
					wb, _ := json.Marshal(want)
					t.Errorf("%s %s %s: read back\n got %s\nwant %s", p.Name, scope, s.Name, gb, wb)
				}
				if len(im.Dropped) > 0 {
					t.Errorf("%s %s %s: members not read back: %v", p.Name, scope, s.Name, im.Dropped)
				}
				gotF := readFilters(d, s.Name, im.Filters, fs)
				got.Name = s.Name // the entry's key, which the caller names it by
				v2, probs := Spell(tg, d, got)
				if len(probs) > 0 {
					t.Errorf("%s %s %s: what was read cannot be rendered: %v", p.Name, scope, s.Name, probs)
					continue
				}
				again := d.Entry(got, &v2, gotF)
				if a, b := digestOf(t, entry), digestOf(t, again); a != b {
					ab, _ := format.Marshal(again)
					t.Errorf("%s %s %s: rendering what was read differs:\n got %s\nwant %s", p.Name, scope, s.Name, ab, raw)
				}
				if !sameOutside(d, fs, s.Name, gotF) {
					t.Errorf("%s %s %s: filters outside the entry read back differently: %+v", p.Name, scope, s.Name, gotF)
				}
				checked++
			}
			if checked < 3 && p.Remote != RemoteNone || checked < 2 {
				t.Errorf("%s %s: only %d servers round-tripped", p.Name, scope, checked)
			}
		}
	}
}

// writeAndRead writes one entry into a new file of the client's format, parses the
// bytes again and returns the entry as standard JSON.
func writeAndRead(t *testing.T, p *Provider, name string, e format.Object) json.RawMessage {
	t.Helper()
	c := format.Container{Path: []string{p.ServersKey}}
	doc, err := format.Parse(p.Format, "/x", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	es, err := doc.Entries(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := es.Set(name, e); err != nil {
		t.Fatal(err)
	}
	out, err := doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	doc, err = format.Parse(p.Format, "/x", out, true)
	if err != nil {
		t.Fatal(err)
	}
	es, _ = doc.Entries(c)
	got, ok := es.Get(name)
	if !ok {
		t.Fatalf("%s: %s not in %s", p.Name, name, out)
	}
	return got.JSON()
}

// expectRead is s as the entry carries it: ${project} as the target writes it in a
// user file, cwd only where the client has a member for it, SSE only where the
// entry says so, oh-my-pi's own fields only where they are written.
func expectRead(tg Target, s *registry.Server, entry format.Object, raw []byte) *registry.Server {
	w := s.Clone()
	w.Name = ""
	if tg.Scope == User {
		w.Command, w.Cwd = substProject(tg, w.Command), substProject(tg, w.Cwd)
		for i := range w.Args {
			w.Args[i] = substProject(tg, w.Args[i])
		}
		for k := range w.Env {
			w.Env[k] = substProject(tg, w.Env[k])
		}
	}
	if tg.P.CwdKey == "" {
		w.Cwd = ""
	}
	for k, vr := range w.EnvFrom {
		if !bytes.Contains(raw, []byte(vr)) {
			delete(w.EnvFrom, k) // inherited under its own name: nothing written (Kimi Code)
		}
	}
	if len(w.EnvFrom) == 0 {
		w.EnvFrom = nil
	}
	if w.Type == registry.SSE && !bytes.Contains(raw, []byte(`"sse"`)) {
		w.Type = registry.HTTP
	}
	// oh-my-pi's own fields, where the entry carries them as they are
	carried := func(k string, v any) bool {
		got, ok := entry.Get(k)
		a, _ := format.Marshal(got)
		b, _ := format.Marshal(v)
		return ok && bytes.Equal(format.Canonical(a), format.Canonical(b))
	}
	if !carried("timeout", w.Timeout) {
		w.Timeout = nil
	}
	if !carried("auth", w.Auth) {
		w.Auth = nil
	}
	if !carried("oauth", w.OAuth) {
		w.OAuth = nil
	}
	return w
}

// sameLaunch compares what an entry carries; a whole-server deny may come back as the
// switch (Codex, Factory, Windsurf, Antigravity write it so).
func sameLaunch(got, want *registry.Server, sf *ServerFilters) bool {
	g, w := *got.Clone(), *want.Clone()
	g.Name, w.Name = "", ""
	if sf != nil && sf.DenyAll {
		g.Enabled, w.Enabled = nil, nil
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return bytes.Equal(gb, wb)
}

// readFilters are the filters read back for the server: the entry's own, or those the
// dialect keeps outside its entries (opencode's tools map, Claude Code's deny rules).
func readFilters(d Dialect, name string, inEntry *ServerFilters, fs *FilterSet) *ServerFilters {
	if dr := d.DenyRules(); dr != nil {
		return dr.ReadRules(dr.Rules(fs), []string{name})[name]
	}
	if filtersOutside(d) {
		doc := d.Standalone(nil, fs, nil)
		raw, _ := format.Marshal(doc)
		lookup := func(path ...string) (json.RawMessage, bool) {
			var m map[string]json.RawMessage
			json.Unmarshal(raw, &m)
			v, ok := m[path[0]]
			return v, ok
		}
		return d.ReadFilters(lookup, []string{name})[name]
	}
	return inEntry
}

// filtersOutside reports whether the dialect reads filters kept beside its entries
// (opencode's tools map).
func filtersOutside(d Dialect) bool {
	asked := false
	d.ReadFilters(func(...string) (json.RawMessage, bool) { asked = true; return nil, false }, nil)
	return asked
}

// sameOutside reports whether the filters kept outside the entries render the same.
func sameOutside(d Dialect, fs *FilterSet, name string, got *ServerFilters) bool {
	again := &FilterSet{Servers: map[string]*ServerFilters{}}
	if got != nil {
		again.Servers[name] = got
	}
	if dr := d.DenyRules(); dr != nil {
		return reflect.DeepEqual(dr.Rules(fs), dr.Rules(again))
	}
	if filtersOutside(d) {
		a, _ := format.Marshal(d.Standalone(nil, fs, nil))
		b, _ := format.Marshal(d.Standalone(nil, again, nil))
		return bytes.Equal(a, b)
	}
	return true
}

func digestOf(t *testing.T, e format.Object) string {
	t.Helper()
	b, err := format.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return format.Digest(b)
}

// TestReadBackReferences: each client's spelling of a reference comes back as the
// registry's reference fields; a value with text around the reference, a default,
// or another client's spelling stays literal.
//
// spec: B1 V4
func TestReadBackReferences(t *testing.T) {
	tests := []struct {
		provider, entry string
		want            registry.Server
	}{
		{"claude-code", `{"command":"x","env":{"A":"${TOK}","B":"${TOK:-}","C":"pre${TOK}","D":"${env:TOK}"}}`,
			registry.Server{Type: "stdio", Command: "x", Env: map[string]string{"B": "${TOK:-}", "C": "pre${TOK}", "D": "${env:TOK}"}, EnvFrom: map[string]string{"A": "TOK"}}},
		{"cursor", `{"url":"https://h/mcp","headers":{"Authorization":"Bearer ${env:T}","X-A":"${env:A}","X-B":"${B}"}}`,
			registry.Server{Type: "http", URL: "https://h/mcp", BearerEnv: "T", HeaderEnv: map[string]string{"X-A": "A"}, Headers: map[string]string{"X-B": "${B}"}}},
		{"opencode", `{"type":"remote","url":"https://h/mcp","headers":{"authorization":"Bearer {env:T}"}}`,
			registry.Server{Type: "http", URL: "https://h/mcp", BearerEnv: "T"}},
		{"codex", `{"url":"https://h/mcp","bearer_token_env_var":"T","env_http_headers":{"X-A":"A"},"http_headers":{"X-B":"${B}"}}`,
			registry.Server{Type: "http", URL: "https://h/mcp", BearerEnv: "T", HeaderEnv: map[string]string{"X-A": "A"}, Headers: map[string]string{"X-B": "${B}"}}},
		{"codex", `{"command":"x","env_vars":["A"],"env":{"B":"${B}"}}`,
			registry.Server{Type: "stdio", Command: "x", EnvFrom: map[string]string{"A": "A"}, Env: map[string]string{"B": "${B}"}}},
		{"claude-desktop", `{"command":"x","env":{"A":"${A}"}}`,
			registry.Server{Type: "stdio", Command: "x", Env: map[string]string{"A": "${A}"}}},
		{"gemini-cli", `{"url":"https://h/sse"}`, registry.Server{Type: "sse", URL: "https://h/sse"}},
		{"gemini-cli", `{"httpUrl":"https://h/mcp","description":"d"}`, registry.Server{Type: "http", URL: "https://h/mcp", Description: "d"}},
		{"gemini-cli", `{"type":"http","url":"https://h/mcp"}`, registry.Server{Type: "http", URL: "https://h/mcp"}},
	}
	for _, tt := range tests {
		p, _ := Get(tt.provider)
		im, err := ReadBack(Target{P: p, Scope: User}, p.Dialect(), json.RawMessage(tt.entry))
		if err != nil {
			t.Errorf("%s %s: %v", tt.provider, tt.entry, err)
			continue
		}
		gb, _ := json.Marshal(im.Server)
		wb, _ := json.Marshal(tt.want)
		if !bytes.Equal(gb, wb) {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.provider, tt.entry, gb, wb)
		}
	}
}

// TestReadBackMembers: members with no registry equivalent are dropped and named;
// those the client does not document are unknown; a member of the wrong kind or a
// transport mcpwire has not is an error naming the member, never the value.
//
// spec: B1 B3
func TestReadBackMembers(t *testing.T) {
	p, _ := Get("gemini-cli")
	im, err := ReadBack(Target{P: p, Scope: User}, p.Dialect(), json.RawMessage(`{"command":"x","trust":true,"timeout":5,"autoApprove":["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(im.Dropped, ","); got != "autoApprove,timeout,trust" {
		t.Errorf("dropped %q", got)
	}
	if got := strings.Join(im.Unknown, ","); got != "autoApprove" {
		t.Errorf("unknown %q", got)
	}
	cc, _ := Get("claude-code")
	for entry, member := range map[string]string{
		`{"command":"x","args":"sk-secret-1"}`:          "args",
		`{"type":"ws","url":"wss://h"}`:                 "type",
		`{"command":"x","env":{"A":1}}`:                 "env",
		`["sk-secret-1"]`:                               "entry",
		`{"url":"https://h","headers":["sk-secret-1"]}`: "headers",
	} {
		_, err := ReadBack(Target{P: cc, Scope: User}, cc.Dialect(), json.RawMessage(entry))
		if err == nil || !strings.HasPrefix(err.Error(), member+":") || strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%s: error %v, want one naming %s without the value", entry, err, member)
		}
	}
}

// TestReadBackProject: a project file's workspace variable and absolute project
// directory come back as ${project}; a longer directory that only starts like it, and
// a user file's paths, stay as they are.
//
// spec: B1 R10
func TestReadBackProject(t *testing.T) {
	cur, _ := Get("cursor")
	cc, _ := Get("claude-code")
	tests := []struct {
		p     *Provider
		scope Scope
		args  string
		want  []string
	}{
		{cur, Project, `["${workspaceFolder}/a","/w/repo/b"]`, []string{"${project}/a", "/w/repo/b"}},
		{cc, Project, `["/w/repo/a","/w/repo","/w/repo2/x"]`, []string{"${project}/a", "${project}", "/w/repo2/x"}},
		{cc, User, `["/w/repo/a"]`, []string{"/w/repo/a"}},
	}
	for _, tt := range tests {
		im, err := ReadBack(Target{P: tt.p, Scope: tt.scope, Project: "/w/repo"}, tt.p.Dialect(), json.RawMessage(`{"command":"x","args":`+tt.args+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(im.Server.Args, tt.want) {
			t.Errorf("%s %s %s: %q, want %q", tt.p.Name, tt.scope, tt.args, im.Server.Args, tt.want)
		}
	}
}

// TestClineNestedRead: Cline's readers take an entry's transport nested
// ({"transport": {"type", "command", …}, "disabled": …}, what `cline mcp add` writes)
// as well as flat; import reads both to the same server, for every transport.
//
// spec: B1 V9
func TestClineNestedRead(t *testing.T) {
	p, _ := Get("cline")
	d := p.Dialect()
	tg := Target{P: p, Scope: User}
	for _, c := range roundTripServers() {
		v, probs := Spell(tg, d, c.s)
		if len(probs) > 0 {
			continue
		}
		flat, _ := json.Marshal(d.Entry(c.s, &v, nil))
		var m map[string]json.RawMessage
		_ = json.Unmarshal(flat, &m)
		inner := map[string]json.RawMessage{}
		for _, k := range []string{"type", "command", "args", "cwd", "env", "url", "headers"} {
			if raw, ok := m[k]; ok {
				inner[k] = raw
				delete(m, k)
			}
		}
		m["transport"], _ = json.Marshal(inner)
		nested, _ := json.Marshal(m)
		want, err := ReadBack(tg, d, flat)
		if err != nil {
			t.Fatalf("%s flat: %v", c.s.Name, err)
		}
		got, err := ReadBack(tg, d, nested)
		if err != nil {
			t.Errorf("%s nested %s: %v", c.s.Name, nested, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s nested %s read %+v, flat %+v", c.s.Name, nested, got.Server, want.Server)
		}
	}
	// what the audit found, and what cline 3.0.65 wrote (clients-wave2.md)
	for entry, want := range map[string]registry.Server{
		`{"transport":{"type":"stdio","command":"npx"}}`: {Type: registry.Stdio, Command: "npx"},
		`{"transport":{"type":"streamableHttp","url":"https://t.example/mcp","headers":{"X":"y"}},"disabled":true}`: {
			Type: registry.HTTP, URL: "https://t.example/mcp", Headers: map[string]string{"X": "y"}, Enabled: new(bool)},
	} {
		im, err := ReadBack(tg, d, json.RawMessage(entry))
		if err != nil || !reflect.DeepEqual(*im.Server, want) {
			t.Errorf("%s: %+v, %v; want %+v", entry, im, err, want)
		}
	}
	for entry, member := range map[string]string{`{"transport":"stdio"}`: "transport", `{"transport":{"command":"a"},"command":"b"}`: "transport.command"} {
		if _, err := ReadBack(tg, d, json.RawMessage(entry)); err == nil || !strings.HasPrefix(err.Error(), member+": ") {
			t.Errorf("%s: %v, want an error naming %s", entry, err, member)
		}
	}
}

// substProject is ${project} as the target writes it (R10).
func substProject(tg Target, s string) string {
	return strings.ReplaceAll(s, ProjectVar, tg.ProjectValue())
}

// readRulesByComparing is Claude Code's ReadRules as it was: every rule compared with
// every server's prefix, the longest first.
func readRulesByComparing(rules, servers []string) map[string]*ServerFilters {
	byLen := slices.Clone(servers)
	slices.SortStableFunc(byLen, func(a, b string) int { return len(rulePrefix(b)) - len(rulePrefix(a)) })
	out := map[string]*ServerFilters{}
	for _, rule := range rules {
		for _, s := range byLen {
			prefix := rulePrefix(s)
			tool, isTool := strings.CutPrefix(rule, prefix+"__")
			if rule != prefix && (!isTool || tool == "") {
				continue
			}
			if out[s] == nil {
				out[s] = &ServerFilters{}
			}
			if rule == prefix || tool == "*" {
				out[s].DenyAll = true
			} else {
				out[s].Deny = AppendNew(out[s].Deny, []string{tool})
			}
			break
		}
	}
	return out
}

// Claude Code's deny rules are read back by looking each up (K7: 200,000 rules and
// servers are not compared pairwise), to what comparing each with every server gives.
func FuzzReadRules(f *testing.F) {
	f.Add("mcp__a,mcp__a__t,mcp__a___b,mcp__a_b__x,mcp__a__*,mcp__gh__get__file,Bash(x),mcp__", "a,a_b,a.b,gh,gh__get,b")
	f.Fuzz(func(t *testing.T, rules, servers string) {
		rs, ss := strings.Split(rules, ","), strings.Split(servers, ",")
		seen := map[string]bool{}
		for _, s := range ss { // distinct prefixes: which of two servers of one prefix wins was never said
			if s == "" || seen[rulePrefix(s)] {
				return
			}
			seen[rulePrefix(s)] = true
		}
		got, want := claude{}.ReadRules(rs, ss), readRulesByComparing(rs, ss)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("rules %q servers %q: %v, want %v", rs, ss, got, want)
		}
	})
}
