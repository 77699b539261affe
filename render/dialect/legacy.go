package dialect

import (
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// legacy is every shape not yet in a file of its own.
type legacy struct{ p *providers.Provider }

// Entry renders one server's entry.
func (d legacy) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	return d.jsonEntry(s, v, sf)
}

// Filters says which filters the client takes (F3).
func (d legacy) Filters() FilterSpec {
	p := d.p
	spec := FilterSpec{
		Deny: p.Deny != providers.DenyNone, AllowRefused: p.Allow == providers.AllowRefused,
		Allow:      p.Allow != providers.AllowNone && p.Allow != providers.AllowRefused,
		ExactDeny:  p.Deny == providers.DenyCodex || p.Deny == providers.DenyDisabledTools || p.Deny == providers.DenyGemini,
		ExactAllow: p.Allow == providers.AllowCodex || p.Allow == providers.AllowGemini,
		DenyAll:    p.Deny == providers.DenyClaudeSettings || p.Deny == providers.DenyOpencode || p.Deny == providers.DenyCodex || p.DisableWhole,
	}
	switch p.Deny {
	case providers.DenyDisabledTools:
		spec.Members = []string{"disabledTools"}
		if p.DisableWhole {
			spec.Switch = p.Switch
		}
	case providers.DenyGemini:
		spec.Members = []string{"excludeTools", "includeTools"}
	}
	return spec
}

// jsonEntry builds one server's entry for a JSON or JSONC client file (V3, F3).
func (d legacy) jsonEntry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	p := d.p
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
		e = d.launch(e, s, v, "url")
	case providers.ShapeClaude, providers.ShapeOMP:
		if remote {
			e = format.Object{{Key: "type", Value: s.Type}}
		}
		e = d.launch(e, s, v, "url")
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
		e = d.launch(format.Object{{Key: "type", Value: typ}}, s, v, "url")
		e.Set("disabled", Disabled(s) || (sf != nil && sf.DenyAll))
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
		e = d.launch(head, s, v, urlKey)
	default: // ShapePlain
		e = d.launch(nil, s, v, urlKey)
	}
	d.switchOff(&e, s, sf)
	d.filterMembers(&e, sf)
	return e
}

// launch adds the launch members: command, args, env, cwd or the URL and headers.
func (d legacy) launch(e format.Object, s *registry.Server, v *Values, urlKey string) format.Object {
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
	if v.Cwd != "" && d.p.CwdKey != "" {
		e.Set(d.p.CwdKey, v.Cwd)
	}
	return e
}

// switchOff writes a disabled registry server (or a whole-server deny where the client
// has a switch).
func (d legacy) switchOff(e *format.Object, s *registry.Server, sf *ServerFilters) {
	off := Disabled(s)
	if sf != nil && sf.DenyAll && d.p.DisableWhole {
		off = true
	}
	if !off || d.p.Shape == providers.ShapeFactory {
		return
	}
	switch d.p.Switch {
	case "enabled":
		e.Set("enabled", false)
	case "disabled":
		e.Set("disabled", true)
	}
}

// filterMembers adds the per-server tool filter members (F3).
func (d legacy) filterMembers(e *format.Object, sf *ServerFilters) {
	if sf == nil {
		return
	}
	switch d.p.Deny {
	case providers.DenyDisabledTools:
		if names, _ := Exact(sf.Deny); len(names) > 0 {
			e.Set("disabledTools", names)
		}
	case providers.DenyGemini:
		if names, _ := Exact(sf.Deny); len(names) > 0 {
			e.Set("excludeTools", names)
		}
	}
	if d.p.Allow == providers.AllowGemini && sf.Allow != nil {
		names, _ := Exact(sf.Allow)
		if names == nil {
			names = []string{}
		}
		e.Set("includeTools", names)
	}
}
