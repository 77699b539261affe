package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// The launch members most dialects share.
const (
	memberCommand = "command"
	memberArgs    = "args"
	memberEnv     = "env"
	memberURL     = "url"
	memberHeaders = "headers"
	memberType    = "type"
)

// launch adds the launch members to e: command, args, env and the client's cwd member
// for a stdio server; the URL (under urlKey) and headers for a remote one.
func launch(p *Provider, e format.Object, s *registry.Server, v *Values, urlKey string) format.Object {
	if s.Remote() {
		e.Set(urlKey, v.URL)
		if len(v.Headers) > 0 {
			e.Set(memberHeaders, v.Headers)
		}
		return e
	}
	args := v.Args
	if args == nil {
		args = []string{}
	}
	e.Set(memberCommand, v.Command)
	e.Set(memberArgs, args)
	if len(v.Env) > 0 {
		e.Set(memberEnv, v.Env)
	}
	if v.Cwd != "" && p.CwdKey != "" {
		e.Set(p.CwdKey, v.Cwd)
	}
	return e
}

// typeMember is an entry's "type" member from the client's table of type values
// (Types), or nothing when the client has no value for the server's transport.
func typeMember(p *Provider, s *registry.Server) format.Object {
	transport := registry.Stdio
	if s.Remote() {
		transport = s.Type
	}
	if typ := p.Types.Of(transport); typ != "" {
		return format.Object{{Key: p.Types.Member(), Value: typ}}
	}
	return nil
}

// readLaunch reads what launch writes: command, args, env and the client's cwd member
// of a stdio entry; the URL (under the first of urlKeys the entry has) and the headers
// (under headersKey) of a remote one. The type is the caller's to read.
func readLaunch(p *Provider, r *reading, headersKey string, urlKeys ...string) *registry.Server {
	s := &registry.Server{}
	for _, k := range urlKeys {
		if r.has(k) {
			s.URL = r.str(k)
			break
		}
	}
	s.Command = r.str(memberCommand)
	s.Args = r.strs(memberArgs)
	s.Env = r.strMap(memberEnv)
	s.Headers = r.strMap(headersKey)
	if p.CwdKey != "" {
		s.Cwd = r.str(p.CwdKey)
	}
	return s
}

// readTyped starts reading an entry of a shape that says its transport (Claude Code,
// oh-my-pi, VS Code, Factory, Copilot CLI): the type, the launch members, the switch.
func readTyped(p *Provider, entry json.RawMessage) (*reading, *registry.Server, error) {
	r, err := newReading(p, entry)
	if err != nil {
		return nil, nil, err
	}
	typ := r.readType(memberType)
	s := readLaunch(p, r, memberHeaders, memberURL)
	s.Type = typ
	r.switchOff(p, s)
	return r, s, nil
}

// typedLaunch is Claude Code's launch members: "type" first on a remote entry only.
func typedLaunch(p *Provider, s *registry.Server, v *Values) format.Object {
	var e format.Object
	if s.Remote() {
		e = format.Object{{Key: memberType, Value: s.Type}}
	}
	return launch(p, e, s, v, memberURL)
}

// typedEntry is the entry of Claude Code's .mcp.json spelling, which Copilot CLI and
// Qoder read too (V10): typedLaunch and the client's switch.
func typedEntry(p *Provider, s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := typedLaunch(p, s, v)
	switchOff(p, &e, s, sf)
	return e
}

// urlKey is the member holding a remote server's URL.
func urlKey(p *Provider) string {
	if p.URLKey == "" {
		return memberURL
	}
	return p.URLKey
}

// switchOff writes the client's switch member for a server the registry disables, or
// for a whole-server deny where the client switches a server off for it.
func switchOff(p *Provider, e *format.Object, s *registry.Server, sf *ServerFilters) {
	off := Disabled(s)
	if sf != nil && sf.DenyAll && p.DisableWhole {
		off = true
	}
	if !off {
		return
	}
	switch p.Switch {
	case "enabled":
		e.Set("enabled", false)
	case "disabled":
		e.Set("disabled", true)
	}
}

// exactNames is the exact tool names of a list, never nil (an empty allowlist is
// written as []).
func exactNames(tools []string) []string {
	names, _ := Exact(tools)
	if names == nil {
		names = []string{}
	}
	return names
}
