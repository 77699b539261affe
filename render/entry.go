package render

import (
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// disabled reports whether the registry switches the server off.
func disabled(s *registry.Server) bool { return s.Enabled != nil && !*s.Enabled }

// jsonEntry builds one server's entry for a JSON or JSONC client file (V3, F3).
func (t target) jsonEntry(s *registry.Server, v values, sf *serverFilters) object {
	p := t.p
	var e object
	remote := s.Remote()
	urlKey := p.URLKey
	if urlKey == "" {
		urlKey = "url"
	}
	switch p.Shape {
	case providers.ShapeOpencode:
		if remote {
			e = object{{"type", "remote"}, {"url", v.URL}}
			if len(v.Headers) > 0 {
				e.set("headers", v.Headers)
			}
		} else {
			e = object{{"type", "local"}, {"command", append([]string{v.Command}, v.Args...)}}
			if len(v.Env) > 0 {
				e.set("environment", v.Env)
			}
			if v.Cwd != "" {
				e.set("cwd", v.Cwd)
			}
		}
	case providers.ShapeVSCode:
		if remote {
			e = object{{"type", s.Type}}
		} else {
			e = object{{"type", "stdio"}}
		}
		e = t.launch(e, s, v, "url")
	case providers.ShapeClaude, providers.ShapeOMP:
		if remote {
			e = object{{"type", s.Type}}
		}
		e = t.launch(e, s, v, "url")
		if p.Shape == providers.ShapeOMP {
			if s.Timeout != nil {
				e.set("timeout", s.Timeout)
			}
			if len(s.Auth) > 0 {
				e.set("auth", s.Auth)
			}
			if len(s.OAuth) > 0 {
				e.set("oauth", s.OAuth)
			}
		}
	case providers.ShapeFactory:
		typ := "stdio"
		if remote {
			typ = s.Type
		}
		e = t.launch(object{{"type", typ}}, s, v, "url")
		e.set("disabled", disabled(s) || (sf != nil && sf.DenyAll))
	case providers.ShapeGemini:
		if remote && s.Type == registry.HTTP {
			urlKey = "httpUrl"
		}
		var head object
		if remote && s.Type == registry.SSE {
			// Gemini CLI 0.61 takes a bare "url" for streamable HTTP; SSE needs the type
			// (found by the conformance suite).
			head = object{{"type", "sse"}}
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
func (t target) launch(e object, s *registry.Server, v values, urlKey string) object {
	if s.Remote() {
		e.set(urlKey, v.URL)
		if len(v.Headers) > 0 {
			e.set("headers", v.Headers)
		}
		return e
	}
	args := v.Args
	if args == nil {
		args = []string{}
	}
	e.set("command", v.Command)
	e.set("args", args)
	if len(v.Env) > 0 {
		e.set("env", v.Env)
	}
	if v.Cwd != "" && t.p.CwdKey != "" {
		e.set(t.p.CwdKey, v.Cwd)
	}
	return e
}

// switchOff writes a disabled registry server (or a whole-server deny where the client
// has a switch).
func (t target) switchOff(e *object, s *registry.Server, sf *serverFilters) {
	off := disabled(s)
	if sf != nil && sf.DenyAll && t.p.DisableWhole {
		off = true
	}
	if !off || t.p.Shape == providers.ShapeFactory {
		return
	}
	switch t.p.Switch {
	case "enabled":
		e.set("enabled", false)
	case "disabled":
		e.set("disabled", true)
	}
}

// filterMembers adds the per-server tool filter members (F3).
func (t target) filterMembers(e *object, sf *serverFilters) {
	if sf == nil {
		return
	}
	switch t.p.Deny {
	case providers.DenyDisabledTools:
		if names, _ := exact(sf.Deny); len(names) > 0 {
			e.set("disabledTools", names)
		}
	case providers.DenyGemini:
		if names, _ := exact(sf.Deny); len(names) > 0 {
			e.set("excludeTools", names)
		}
	}
	if t.p.Allow == providers.AllowGemini && sf.Allow != nil {
		names, _ := exact(sf.Allow)
		if names == nil {
			names = []string{}
		}
		e.set("includeTools", names)
	}
}
