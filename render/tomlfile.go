package render

import (
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
	"github.com/mcpwire/mcpwire/render/tomledit"
)

// Grok Build marker comments around every block mcpwire writes (C6). tomledit knows
// them: a table owns its marker lines, and no other comment around it (W1).
const (
	markerStart = tomledit.MarkerStart
	markerEnd   = tomledit.MarkerEnd
)

// tomlEntry builds one server's table for Codex or Grok Build (V3, V4, F3).
func (t target) tomlEntry(s *registry.Server, v values, sf *serverFilters) format.Object {
	var kvs format.Object
	add := func(k string, val any) { kvs = append(kvs, format.Member{Key: k, Value: val}) }
	if s.Remote() {
		add("url", v.URL)
		hk := "http_headers"
		if t.p.Shape == providers.ShapeGrok {
			hk = "headers"
		}
		if len(v.Headers) > 0 {
			add(hk, v.Headers)
		}
		if len(v.EnvHTTPHeaders) > 0 {
			add("env_http_headers", v.EnvHTTPHeaders)
		}
		if v.BearerVar != "" {
			add("bearer_token_env_var", v.BearerVar)
		}
	} else {
		args := v.Args
		if args == nil {
			args = []string{}
		}
		add("command", v.Command)
		add("args", args)
		if len(v.Env) > 0 {
			add("env", v.Env)
		}
		if len(v.EnvVars) > 0 {
			add("env_vars", v.EnvVars)
		}
		if v.Cwd != "" && t.p.CwdKey != "" {
			add(t.p.CwdKey, v.Cwd)
		}
	}
	off := disabled(s)
	if sf != nil && t.p.Deny == providers.DenyCodex {
		off = off || sf.DenyAll
		if sf.Allow != nil {
			names, _ := exact(sf.Allow)
			if names == nil {
				names = []string{}
			}
			add("enabled_tools", names)
		}
		if names, _ := exact(sf.Deny); len(names) > 0 {
			add("disabled_tools", names)
		}
	}
	if off {
		add("enabled", false)
	}
	return kvs
}
