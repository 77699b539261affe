package render

import (
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// disabled reports whether the registry switches the server off.
func disabled(s *registry.Server) bool { return s.Enabled != nil && !*s.Enabled }

// jsonEntry builds one server's entry for a JSON or JSONC client file (V3, F3).
func (t target) jsonEntry(s *registry.Server, v values, sf *serverFilters) format.Object {
	p := t.p
	var e format.Object
	remote := s.Remote()
	urlKey := p.URLKey
	if urlKey == "" {
		urlKey = "url"
	}
	switch p.Shape {
	case providers.ShapeOpencode:
		if remote {
			e = format.Object{{Key: "type", Value: "remote"}, {Key: "url", Value: v.URL}}
			if len(v.Headers) > 0 {
				e.Set("headers", v.Headers)
			}
		} else {
			e = format.Object{{Key: "type", Value: "local"}, {Key: "command", Value: append([]string{v.Command}, v.Args...)}}
			if len(v.Env) > 0 {
				e.Set("environment", v.Env)
			}
			if v.Cwd != "" {
				e.Set("cwd", v.Cwd)
			}
		}
	case providers.ShapeVSCode:
		if remote {
			e = format.Object{{Key: "type", Value: s.Type}}
		} else {
			e = format.Object{{Key: "type", Value: "stdio"}}
		}
		e = t.launch(e, s, v, "url")
	case providers.ShapeClaude, providers.ShapeOMP:
		if remote {
			e = format.Object{{Key: "type", Value: s.Type}}
		}
		e = t.launch(e, s, v, "url")
		if p.Shape == providers.ShapeOMP {
			if s.Timeout != nil {
				e.Set("timeout", s.Timeout)
			}
			if len(s.Auth) > 0 {
				e.Set("auth", s.Auth)
			}
			if len(s.OAuth) > 0 {
				e.Set("oauth", s.OAuth)
			}
		}
	case providers.ShapeFactory:
		typ := "stdio"
		if remote {
			typ = s.Type
		}
		e = t.launch(format.Object{{Key: "type", Value: typ}}, s, v, "url")
		e.Set("disabled", disabled(s) || (sf != nil && sf.DenyAll))
	case providers.ShapeGemini:
		if remote && s.Type == registry.HTTP {
			urlKey = "httpUrl"
		}
		var head format.Object
		if remote && s.Type == registry.SSE {
			// Gemini CLI 0.61 takes a bare "url" for streamable HTTP; SSE needs the type
			// (found by the conformance suite).
			head = format.Object{{Key: "type", Value: "sse"}}
		}
		e = t.launch(head, s, v, urlKey)
	default: // ShapePlain
		e = t.launch(nil, s, v, urlKey)
	}
	t.switchOff(&e, s, sf)
	t.filterMembers(&e, sf)
	return e
}

// launch adds the launch members: command, args, env, cwd or the URL and headers.
func (t target) launch(e format.Object, s *registry.Server, v values, urlKey string) format.Object {
	if s.Remote() {
		e.Set(urlKey, v.URL)
		if len(v.Headers) > 0 {
			e.Set("headers", v.Headers)
		}
		return e
	}
	args := v.Args
	if args == nil {
		args = []string{}
	}
	e.Set("command", v.Command)
	e.Set("args", args)
	if len(v.Env) > 0 {
		e.Set("env", v.Env)
	}
	if v.Cwd != "" && t.p.CwdKey != "" {
		e.Set(t.p.CwdKey, v.Cwd)
	}
	return e
}

// switchOff writes a disabled registry server (or a whole-server deny where the client
// has a switch).
func (t target) switchOff(e *format.Object, s *registry.Server, sf *serverFilters) {
	off := disabled(s)
	if sf != nil && sf.DenyAll && t.p.DisableWhole {
		off = true
	}
	if !off || t.p.Shape == providers.ShapeFactory {
		return
	}
	switch t.p.Switch {
	case "enabled":
		e.Set("enabled", false)
	case "disabled":
		e.Set("disabled", true)
	}
}

// filterMembers adds the per-server tool filter members (F3).
func (t target) filterMembers(e *format.Object, sf *serverFilters) {
	if sf == nil {
		return
	}
	switch t.p.Deny {
	case providers.DenyDisabledTools:
		if names, _ := exact(sf.Deny); len(names) > 0 {
			e.Set("disabledTools", names)
		}
	case providers.DenyGemini:
		if names, _ := exact(sf.Deny); len(names) > 0 {
			e.Set("excludeTools", names)
		}
	}
	if t.p.Allow == providers.AllowGemini && sf.Allow != nil {
		names, _ := exact(sf.Allow)
		if names == nil {
			names = []string{}
		}
		e.Set("includeTools", names)
	}
}
