package registry

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/layers"
)

// spec: R1
func TestServerRoundTripKeepsUnknownFields(t *testing.T) {
	f := newFixture(t, []string{"me"}, map[string]string{"me/mcp-servers.json": `{
  // comment kept
  "apiVersion": "aiwg.io/v1",
  "kind": "McpServerRegistry",
  "x-top": {"n": 12345678901234567890},
  "servers": {
    "a": {
      "name": "a", "type": "stdio", "command": "run", "args": ["x"],
      "requestIdFormat": 1, "envPolicy": "strict", "nested": {"deep": [1, {"k": null}]},
      "timeout": 30000, "enabled": false, "workerQualification": {"tier": 2},
      "auth": {"type": "apikey", "credentialId": "c"}, "injectedProviders": ["codex"],
      "addedAt": "2025-01-01T00:00:00Z", "Command": "case-differs"
    },
    "b": {"command": "untouched", "x-b": true}
  }
}`})
	r, _ := f.load()
	a, _ := r.Server("a")
	if a.Command != "run" || string(a.Extra["Command"]) != `"case-differs"` {
		t.Fatalf("member names must match exactly: command %q, extra %q", a.Command, a.Extra)
	}
	if err := r.UpdateServer("a", func(s *Server) { s.Description = "changed" }); err != nil {
		t.Fatal(err)
	}
	got := f.fileEntry("me/mcp-servers.json", "servers", "a")
	want := object(t, `{
      "name": "a", "type": "stdio", "command": "run", "args": ["x"],
      "requestIdFormat": 1, "envPolicy": "strict", "nested": {"deep": [1, {"k": null}]},
      "timeout": 30000, "enabled": false, "workerQualification": {"tier": 2},
      "auth": {"type": "apikey", "credentialId": "c"}, "injectedProviders": ["codex"],
      "addedAt": "2025-01-01T00:00:00Z", "Command": "case-differs",
      "description": "changed", "updatedAt": "2026-01-02T03:04:05Z"}`)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("written entry\n%v\nwant\n%v", got, want)
	}
	text := f.read("me/mcp-servers.json")
	for _, keep := range []string{"// comment kept", `"x-top": {"n": 12345678901234567890}`, `"b": {"command": "untouched", "x-b": true}`} {
		if !strings.Contains(text, keep) {
			t.Errorf("lost %q:\n%s", keep, text)
		}
	}
	// Decoding and encoding one entry is lossless for unknown members.
	var s Server
	raw := `{"name":"x","command":"c","zeta":[1,2],"alpha":{"b":"c"}}`
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(s)
	if !reflect.DeepEqual(object(t, string(out)), object(t, raw)) {
		t.Errorf("round trip %s → %s", raw, out)
	}
}

// spec: R3 R1
func TestProfileRoundTripAndAliases(t *testing.T) {
	var p Profile
	raw := `{"name":"p","servers":["a"],"x-p":1,
		"providerOverrides":{"claude":{"toolDeny":["a__x"],"x-f":"kept"},"claude-code":{"toolDeny":["a__y"],"toolAllow":["a__z"]},"*":{"toolAllow":[]}}}`
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.ProviderOverrides) != 2 {
		t.Fatalf("claude and claude-code must be one key: %v", p.OverrideKeys())
	}
	cc := p.ProviderOverrides["claude-code"]
	if !slices.Equal(cc.ToolDeny, []string{"a__x", "a__y"}) || !slices.Equal(cc.ToolAllow, []string{"a__z"}) || string(cc.Extra["x-f"]) != `"kept"` {
		t.Fatalf("merged key %+v", cc)
	}
	if a := p.ProviderOverrides["*"].ToolAllow; a == nil || len(a) != 0 {
		t.Fatalf("an empty allow list must stay set (not nil): %#v", a)
	}
	if !slices.Equal(p.OverrideKeys(), []string{"*", "claude-code"}) {
		t.Errorf("keys %q", p.OverrideKeys())
	}
	out, _ := json.Marshal(p)
	m := object(t, string(out))
	if m["x-p"] != float64(1) {
		t.Errorf("unknown profile member lost: %s", out)
	}
	var empty Profile
	json.Unmarshal([]byte(`{"name":"e"}`), &empty)
	out, _ = json.Marshal(empty)
	if !strings.Contains(string(out), `"servers":[]`) {
		t.Errorf("servers must always be written: %s", out)
	}
}

// spec: R2 L14 — Validate checks a server as read from a layer file (AddServer
// checks R2's stricter names, TestLoadableNames).
func TestServerValidate(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		name string
		s    Server
		err  string // "" = valid
		typ  string // the type after validation
	}{
		{"stdio by command", Server{Name: "a", Command: "x"}, "", "stdio"},
		{"http by default", Server{Name: "a", URL: "https://h/mcp"}, "", "http"},
		{"sse", Server{Name: "a_b-C9", Type: "sse", URL: "http://h:8080/sse"}, "", "sse"},
		{"64 characters", Server{Name: long, Command: "x"}, "", "stdio"},
		{"257 characters", Server{Name: strings.Repeat(long, 4) + "a", Command: "x"}, "invalid server name", ""},
		{"65 characters load (L14)", Server{Name: long + "a", Command: "x"}, "", "stdio"},
		{"empty name", Server{Command: "x"}, "invalid server name", ""},
		{"dot in name loads (L14)", Server{Name: "a.b", Command: "x"}, "", "stdio"},
		{"slash in name loads (L14)", Server{Name: "@org/srv", Command: "x"}, "", "stdio"},
		{"newline in name", Server{Name: "a\nb", Command: "x"}, "invalid server name", ""},
		{"unknown type", Server{Name: "a", Type: "websocket", URL: "https://h"}, `type: unknown type "websocket" (want stdio, http or sse)`, ""},
		{"type case matters", Server{Name: "a", Type: "HTTP", URL: "https://h"}, "type: unknown type", ""},
		{"stdio without command", Server{Name: "a", Type: "stdio"}, "type: a stdio server needs a command", ""},
		{"stdio with url", Server{Name: "a", Type: "stdio", Command: "x", URL: "https://h"}, "url: a stdio server takes a command, not a url", ""},
		{"http without url", Server{Name: "a", Type: "http"}, "url: an http or sse server needs a url", ""},
		{"http relative url", Server{Name: "a", URL: "/mcp"}, "url: must be an absolute http:// or https:// URL", ""},
		{"http host-relative url", Server{Name: "a", URL: "h.example/mcp"}, "url: must be an absolute", ""},
		{"ftp url", Server{Name: "a", URL: "ftp://h/x"}, "url: must be an absolute", ""},
		{"http with command", Server{Name: "a", Type: "http", URL: "https://h", Command: "x"}, "command: an http server takes a url, not a command", ""},
		{"headerEnv var", Server{Name: "a", URL: "https://h", HeaderEnv: map[string]string{"Authorization": "1TOKEN"}}, `headerEnv.Authorization: not a valid variable name`, ""},
		{"headerEnv var with dash", Server{Name: "a", URL: "https://h", HeaderEnv: map[string]string{"X": "MY-TOKEN"}}, `headerEnv.X: not a valid variable name`, ""},
		{"headerEnv header name", Server{Name: "a", URL: "https://h", HeaderEnv: map[string]string{"Bad Header": "T"}}, `headerEnv: a key is not a valid header name`, ""},
		{"headers name", Server{Name: "a", URL: "https://h", Headers: map[string]string{"X:Y": "v"}}, `headers: a key is not a valid header name`, ""},
		{"envFrom server var", Server{Name: "a", Command: "x", EnvFrom: map[string]string{"A-B": "C"}}, `envFrom: a key is not a valid variable name`, ""},
		{"envFrom client var", Server{Name: "a", Command: "x", EnvFrom: map[string]string{"A": "$C"}}, `envFrom.A: not a valid variable name`, ""},
		{"envFrom ok", Server{Name: "a", Command: "x", EnvFrom: map[string]string{"_A1": "b_2"}}, "", "stdio"},
		{"env key with =", Server{Name: "a", Command: "x", Env: map[string]string{"A=B": "v"}}, `env: a key is not a valid variable name`, ""},
		{"bearerEnv var", Server{Name: "a", URL: "https://h", BearerEnv: "9"}, `bearerEnv: not a valid variable name`, ""},
		{"bearerEnv on stdio", Server{Name: "a", Command: "x", BearerEnv: "T"}, "bearerEnv: only http and sse servers send headers", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			err := s.Validate()
			if tt.err == "" {
				if err != nil || s.Type != tt.typ {
					t.Fatalf("err %v, type %q", err, s.Type)
				}
				return
			}
			contains(t, err, tt.err)
		})
	}
	// no error quotes a URL: it may carry userinfo
	s := Server{Name: "a", URL: "ftp://user:SECRET@h/"}
	if err := s.Validate(); err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("%v", err)
	}
	for name, ok := range map[string]bool{"A": true, "_": true, "a_1": true, "": false, "1a": false, "a-b": false, "a b": false, "é": false} {
		if ValidVarName(name) != ok {
			t.Errorf("ValidVarName(%q) != %v", name, ok)
		}
	}
}

// spec: R3 L14 — Validate checks a profile as read from a layer file: names AIWG
// accepts load (AddProfile checks R3's stricter names, TestLoadableNames).
func TestProfileValidate(t *testing.T) {
	for _, tt := range []struct {
		p   Profile
		err string
	}{
		{Profile{Name: "dev-2"}, ""},
		{Profile{Name: "Dev"}, ""},
		{Profile{Name: "dev.x"}, ""},
		{Profile{Name: "default"}, ""},
		{Profile{Name: ""}, "invalid profile name"},
		{Profile{Name: "team/dev"}, ""},
		{Profile{Name: "a\x01b"}, `invalid profile name "a\x01b"`},
		{Profile{Name: "p", Servers: []string{"__all__", "ok_1", "my.server"}}, ""},
		{Profile{Name: "p", Servers: []string{"bad\nname"}}, `servers: invalid server name "bad\nname"`},
		{Profile{Name: "p", Extends: []string{"a\tb"}}, `extends: invalid profile name "a\tb"`},
		{Profile{Name: "p", ProviderOverrides: map[string]*Filters{"nope": {}}}, `providerOverrides: unknown provider "nope"`},
		{Profile{Name: "p", ProviderOverrides: map[string]*Filters{"*": {}, "copilot": {}}}, ""},
	} {
		err := tt.p.Validate()
		if tt.err == "" {
			if err != nil {
				t.Errorf("%+v: %v", tt.p, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%+v: %v, want %q", tt.p, err, tt.err)
		}
	}
}

// spec: R1 R2 R3 L11 L12
func TestLoadReportsEveryBadEntry(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, map[string]string{
		"org/mcp-servers.json": `{"servers": {
			"ok": {"command": "x"},
			"t": {"type": "ws", "url": "https://h"},
			"nocmd": {"type": "stdio"},
			"rel": {"url": "/mcp"},
			"badenv": {"command": "x", "envFrom": {"A": "not-valid"}},
			"badhdr": {"url": "https://h", "headerEnv": {"Authorization": "1X"}},
			"str": {"command": 3},
			"arr": {"command": "x", "args": "one"},
			"elem": {"command": "x", "args": ["a", 1]},
			"map": {"command": "x", "env": {"A": 1}},
			"bool": {"command": "x", "enabled": "yes"},
			"auth": {"url": "https://h", "auth": "x"},
			"nul": null,
			"num": 5,
			"named": {"name": "other", "command": "x"},
			"bad name": {"command": "x"},
			"bad\u0001name": {"command": "x"}
		}}`,
		"me/mcp-profiles.json": `{"profiles": {
			"Upper": {"servers": []},
			"all": {"servers": []},
			"up\u0001per": {"servers": []},
			"sv": {"servers": [1]},
			"ov": {"providerOverrides": {"bogus": {}}},
			"ovt": {"providerOverrides": {"*": {"toolDeny": "x"}}},
			"ovo": {"providerOverrides": {"*": []}},
			"good": {"servers": ["ok"]}
		}}`,
	})
	_, _, err := f.open()
	var le *layers.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v", err)
	}
	sv, pf := f.path("org/mcp-servers.json")+": ", f.path("me/mcp-profiles.json")+": "
	want := []string{
		sv + `server "arr": args: must be an array of strings, not a string`,
		sv + `server "auth": auth: must be an object, not a string`,
		sv + `server "bad\x01name": invalid server name "bad\x01name": a name may not be empty, hold control characters, or be longer than 256 bytes`,
		sv + `server "badenv": envFrom.A: not a valid variable name`,
		sv + `server "badhdr": headerEnv.Authorization: not a valid variable name`,
		sv + `server "bool": enabled: must be a boolean, not a string`,
		sv + `server "elem": args[1]: must be a string, not a number`,
		sv + `server "map": env.A: must be a string, not a number`,
		sv + `server "named": name: "other" does not match its key`,
		sv + `server "nocmd": type: a stdio server needs a command`,
		sv + `server "nul": must be an object, not null`,
		sv + `server "num": must be an object, not a number`,
		sv + `server "rel": url: must be an absolute http:// or https:// URL`,
		sv + `server "str": command: must be a string, not a number`,
		sv + `server "t": type: unknown type "ws" (want stdio, http or sse)`,
		pf + `profile "ov": providerOverrides: unknown provider "bogus"`,
		pf + `profile "ovo": providerOverrides.*: must be an object, not an array`,
		pf + `profile "ovt": providerOverrides.*.toolDeny: must be an array of strings, not a string`,
		pf + `profile "sv": servers[0]: must be a string, not a number`,
		pf + `profile "up\x01per": invalid profile name "up\x01per": a name may not be empty, hold control characters, or be longer than 256 bytes`,
	}
	if !slices.Equal(le.Problems, want) {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(le.Problems, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(err.Error(), "20 configuration problems:\n") {
		t.Errorf("message starts %q", err.Error()[:40])
	}
}

// spec: L12 L11
func TestOpenReportsSyntaxAndEntryProblemsTogether(t *testing.T) {
	f := newFixture(t, []string{"org", "team", "me"}, map[string]string{
		"org/mcp-servers.json":  `{"servers": {`,
		"team/mcp-servers.json": `{"servers": {"x": {"type": "foo"}}}`,
		"me/mcp-profiles.json":  `{"profiles": [], }`,
		"me/mcp-servers.json":   `{"credentialPolicy": "LITERAL"}`,
	})
	_, _, err := f.open()
	var le *layers.LoadError
	if !errors.As(err, &le) || len(le.Problems) != 4 {
		t.Fatalf("err = %v", err)
	}
	for i, file := range []string{"org/mcp-servers.json", "team/mcp-servers.json", "me/mcp-servers.json", "me/mcp-profiles.json"} {
		if !strings.HasPrefix(le.Problems[i], f.path(file)+": ") {
			t.Errorf("problem %d %q does not name %s", i, le.Problems[i], file)
		}
	}
}
