//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// Codex 0.169.0, user scope only (~/.codex/config.toml, or $CODEX_HOME/config.toml;
// Codex's project file is not an mcpwire destination). Codex reports references by name and the tool filters as lists.
//
// What Codex prints (stdout; stderr gets a "WARNING: proceeding, even though we could
// not create PATH aliases" line when CODEX_HOME is under /tmp):
//
//	codex mcp list --json   [{name, enabled, disabled_reason, transport:{type:"stdio", command,
//	                        args, env, env_vars, cwd} | {type:"streamable_http", url,
//	                        bearer_token_env_var, http_headers, env_http_headers,
//	                        http_headers_helper}, startup_timeout_sec, tool_timeout_sec,
//	                        auth_status}], sorted by name
//	codex mcp get N --json  the same object plus enabled_tools and disabled_tools (null when unset)
//
// Neither command connects to a server.
//
// spec: Q3 V1 V3 V4 F2 F3 F4
func TestCodex(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"user", "relocated"} {
		t.Run(variant, func(t *testing.T) { testCodex(t, variant) })
	}
}

func testCodex(t *testing.T, variant string) {
	s := newScenario(t, "codex", "codex", variant)
	s.define()
	file := filepath.Join(s.home, ".codex", "config.toml")
	if variant == "relocated" {
		file = filepath.Join(s.relocate("CODEX_HOME"), "config.toml")
	}
	s.inject("conf", file)

	type transport struct {
		Type              string            `json:"type"`
		Command           *string           `json:"command"`
		Args              []string          `json:"args"`
		Env               map[string]string `json:"env"`
		EnvVars           []string          `json:"env_vars"`
		Cwd               *string           `json:"cwd"`
		URL               *string           `json:"url"`
		BearerTokenEnvVar *string           `json:"bearer_token_env_var"`
		HTTPHeaders       map[string]string `json:"http_headers"`
		EnvHTTPHeaders    map[string]string `json:"env_http_headers"`
	}
	type server struct {
		Name          string    `json:"name"`
		Enabled       bool      `json:"enabled"`
		Transport     transport `json:"transport"`
		EnabledTools  []string  `json:"enabled_tools"`
		DisabledTools []string  `json:"disabled_tools"`
	}
	str := func(s string) *string { return &s }
	want := map[string]server{
		"everything": {Name: "everything", Enabled: true,
			Transport:    transport{Type: "stdio", Command: str("node"), Args: []string{cl.everything, "stdio"}, EnvVars: []string{"CONF_STDIO_TOKEN"}},
			EnabledTools: []string{"get-sum", "get-env"}, DisabledTools: []string{"echo"}},
		// the codex-only deny tickets__* switches the whole server off (F2, F3)
		"tickets": {Name: "tickets", Enabled: false,
			Transport:     transport{Type: "streamable_http", URL: str(s.url("tickets")), EnvHTTPHeaders: map[string]string{"Authorization": "CONF_TICKETS_TOKEN"}},
			DisabledTools: []string{"delete_ticket"}},
		"wd": {Name: "wd", Enabled: true,
			Transport: transport{Type: "stdio", Command: str("node"), Args: []string{"everything.js", "stdio"}, EnvVars: []string{}, Cwd: str(s.srv)}},
		"notes": {Name: "notes", Enabled: true,
			Transport:    transport{Type: "streamable_http", URL: str(s.url("notes")), BearerTokenEnvVar: str("CONF_NOTES_TOKEN")},
			EnabledTools: []string{"search"}},
	}
	compare := func(c *checker, got, w server, withTools bool) {
		p := w.Name + "."
		c.equal(p+"enabled", got.Enabled, w.Enabled)
		c.equal(p+"transport.type", got.Transport.Type, w.Transport.Type)
		c.equal(p+"transport.command", deref(got.Transport.Command), deref(w.Transport.Command))
		c.equal(p+"transport.args", got.Transport.Args, w.Transport.Args)
		c.equal(p+"transport.env", got.Transport.Env, w.Transport.Env)
		c.equal(p+"transport.env_vars", got.Transport.EnvVars, w.Transport.EnvVars)
		c.equal(p+"transport.cwd", deref(got.Transport.Cwd), deref(w.Transport.Cwd))
		c.equal(p+"transport.url", deref(got.Transport.URL), deref(w.Transport.URL))
		c.equal(p+"transport.bearer_token_env_var", deref(got.Transport.BearerTokenEnvVar), deref(w.Transport.BearerTokenEnvVar))
		c.equal(p+"transport.http_headers", got.Transport.HTTPHeaders, w.Transport.HTTPHeaders)
		c.equal(p+"transport.env_http_headers", got.Transport.EnvHTTPHeaders, w.Transport.EnvHTTPHeaders)
		if withTools {
			c.equal(p+"enabled_tools", got.EnabledTools, w.EnabledTools)
			c.equal(p+"disabled_tools", got.DisabledTools, w.DisabledTools)
		}
	}

	{
		s.check(func(c *checker) result {
			r := s.client(cl.codex, "mcp", "list", "--json")
			var got []server
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				c.errorf("stdout is not a JSON array of servers: %v", err)
			}
			seen := map[string]bool{}
			for _, g := range got {
				seen[g.Name] = true
				if w, ok := want[g.Name]; ok {
					compare(c, g, w, false)
				} else {
					c.errorf("unexpected server %q", g.Name)
				}
			}
			for n := range want {
				if !seen[n] {
					c.errorf("%s is not listed", n)
				}
			}
			if r.exit != 0 {
				c.errorf("exit %d", r.exit)
			}
			return r
		})
	}
	for _, name := range []string{"everything", "tickets", "notes", "wd"} {
		s.check(func(c *checker) result {
			r := s.client(cl.codex, "mcp", "get", name, "--json")
			var got server
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				c.errorf("stdout is not a JSON server object: %v", err)
			} else {
				c.equal("name", got.Name, name)
				compare(c, got, want[name], true)
			}
			if r.exit != 0 {
				c.errorf("exit %d", r.exit)
			}
			return r
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}
