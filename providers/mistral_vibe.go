package providers

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// mistralVibeClient is Mistral Vibe.
var mistralVibeClient = &Provider{
	Name: "mistral-vibe", Display: "Mistral Vibe", DefaultScope: User,
	Order: 230, Aliases: []string{"mistral", "vibe"},
	dialect: newVibe,
	Project: &Dest{Base: ProjectDir, Dir: []string{".vibe"}, Files: []string{"config.toml"}},
	User:    &Dest{Env: "VIBE_HOME", Base: Home, Dir: []string{".vibe"}, Files: []string{"config.toml"}},
	Format:  format.TOML, ServersKey: "mcp_servers", EntryName: "name", Switch: "disabled", Refs: refAPIKeyEnv,
	Remote: RemoteHTTP, CwdKey: "cwd", Deny: denyVibe, Allow: AllowNone, DisableWhole: true, Binary: "vibe",
	ProjectNote: "Mistral Vibe reads .vibe/config.toml only in a folder you trust: it asks when it starts there, and keeps the answer in its trusted_folders.toml",
	Sources: []string{"mistralai/mistral-vibe vibe/core/config/models.py", "mistralai/mistral-vibe vibe/core/config/vibe_schema.py",
		"mistralai/mistral-vibe vibe/core/config/layers/project.py", "mistralai/mistral-vibe vibe/core/paths/_vibe_home.py"},
}

func init() { register(mistralVibeClient) }

// vibe is Mistral Vibe's [[mcp_servers]] table (TOML, named by "name";
// mistralai/mistral-vibe vibe/core/config/models.py): {name, transport = "stdio",
// command, args, env, cwd} and {name, transport = "streamable-http", url, auth =
// {type = "static", headers, api_key_env, api_key_header, api_key_format}} (the
// legacy top-level headers are promoted into auth by Vibe; mcpwire writes auth).
// Vibe has no SSE client and no placeholder in values: a remote server can take one
// header from a variable (api_key_env, its header and its format; bearerEnv is the
// default Authorization: Bearer {token}), and a stdio server none (the MCP SDK starts
// it with a few safe variables plus env as written). Filters: disabled_tools (exact
// names) and disabled = true for a whole-server deny.
type vibe struct {
	base
	p *Provider
}

func newVibe(p *Provider) Dialect { return vibe{p: p} }

// Vibe's members.
const (
	vibeTransport     = "transport"
	vibeAuth          = "auth"
	vibeAPIKeyEnv     = "api_key_env"
	vibeAPIKeyHeader  = "api_key_header"
	vibeAPIKeyFormat  = "api_key_format"
	vibeDisabledTools = "disabled_tools"
	vibeDisabled      = "disabled"
	vibeHTTP          = "streamable-http"
)

func (d vibe) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	var e format.Object
	if s.Remote() {
		e = format.Object{{Key: vibeTransport, Value: vibeHTTP}, {Key: memberURL, Value: v.URL}}
		if auth := vibeAuthOf(v); len(auth) > 1 {
			e.Set(vibeAuth, auth)
		}
	} else {
		e = launch(d.p, format.Object{{Key: vibeTransport, Value: "stdio"}}, s, v, memberURL)
		if strings.ContainsAny(v.Command, " \t\n'\"\\") {
			// Vibe splits a command string like a shell; a list is taken as it is
			e.Set(memberCommand, []string{v.Command})
		}
	}
	switchOff(d.p, &e, s, sf)
	if sf != nil {
		if names, _ := Exact(sf.Deny); len(names) > 0 {
			e.Set(vibeDisabledTools, names)
		}
	}
	return e
}

// vibeAuthOf is a remote server's static auth: its literal headers and the one header
// taken from a variable.
func vibeAuthOf(v *Values) format.Object {
	auth := format.Object{{Key: memberType, Value: "static"}}
	if len(v.Headers) > 0 {
		auth.Set(memberHeaders, v.Headers)
	}
	switch {
	case v.BearerVar != "":
		auth.Set(vibeAPIKeyEnv, v.BearerVar)
	case len(v.EnvHTTPHeaders) > 0:
		h := v.EnvHTTPHeaders[0]
		auth.Set(vibeAPIKeyEnv, h.Value)
		auth.Set(vibeAPIKeyHeader, h.Key)
		auth.Set(vibeAPIKeyFormat, "{token}")
	}
	return auth
}

// vibeOwn are Vibe's members with no registry equivalent.
var vibeOwn = []string{"prompt", "startup_timeout_sec", "tool_timeout_sec", "sampling_enabled"}

// vibeBearerFormat is api_key_format's default: the token of api_key_env as a bearer
// token in api_key_header's default, Authorization.
const vibeBearerFormat = "Bearer {token}"

// Read reads a table back: its name member, transport, the launch members (a command
// list or a command line split into command and arguments), a remote server's static
// auth (or the legacy top-level headers and api_key_*): its literal headers, and the
// header from api_key_env as bearerEnv (the default Authorization: Bearer {token}) or
// headerEnv ({token} in another header); disabled and disabled_tools.
func (d vibe) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	r.has(d.p.EntryName)
	typ := r.readType(vibeTransport)
	var cmd []string
	if raw, ok := r.get(memberCommand); ok && json.Unmarshal(raw, &cmd) == nil {
		r.remove(memberCommand)
	}
	s := readLaunch(d.p, r, "", memberURL)
	s.Type = typ
	if cmd != nil || strings.ContainsAny(s.Command, " \t") {
		if cmd == nil && strings.ContainsAny(s.Command, "'\"\\") {
			return nil, &EntryError{memberCommand, "a command line with quotes, which mcpwire does not split as Vibe does"}
		}
		if cmd == nil {
			cmd = strings.Fields(s.Command)
		}
		if len(cmd) == 0 {
			return nil, &EntryError{memberCommand, "empty"}
		}
		s.Command, s.Args = cmd[0], append(cmd[1:len(cmd):len(cmd)], s.Args...)
		if len(s.Args) == 0 {
			s.Args = nil
		}
	}
	auth := map[string]json.RawMessage{}
	if !r.decode(vibeAuth, "a table", &auth) {
		for _, k := range []string{memberHeaders, vibeAPIKeyEnv, vibeAPIKeyHeader, vibeAPIKeyFormat} {
			if raw, ok := r.get(k); ok && r.has(k) {
				auth[k] = raw
			}
		}
	}
	if err := d.readAuth(s, auth); err != nil {
		return nil, err
	}
	r.switchOff(d.p, s)
	var sf *ServerFilters
	if names, _ := r.names(vibeDisabledTools); len(names) > 0 {
		sf = &ServerFilters{Deny: names}
	}
	return r.done(s, sf, vibeOwn...)
}

// readAuth reads a static auth table into the server's headers and references.
func (vibe) readAuth(s *registry.Server, auth map[string]json.RawMessage) error {
	str := func(k string) string {
		var v string
		json.Unmarshal(auth[k], &v)
		return v
	}
	if t := str(memberType); len(auth) > 0 && t != "" && t != "static" {
		return &EntryError{vibeAuth + ".type", fmt.Sprintf("%q auth is not one mcpwire writes (static headers and api_key_env)", t)}
	}
	if raw, ok := auth[memberHeaders]; ok && json.Unmarshal(raw, &s.Headers) != nil {
		return &EntryError{vibeAuth + ".headers", "must be a table of strings"}
	}
	vr := str(vibeAPIKeyEnv)
	if vr == "" {
		return nil
	}
	header, form := str(vibeAPIKeyHeader), str(vibeAPIKeyFormat)
	if header == "" {
		header = "Authorization"
	}
	if form == "" {
		form = vibeBearerFormat
	}
	switch {
	case form == vibeBearerFormat && strings.EqualFold(header, "Authorization"):
		s.BearerEnv = vr
	case form == "{token}":
		s.HeaderEnv = map[string]string{header: vr}
	default:
		return &EntryError{vibeAuth + "." + vibeAPIKeyFormat, "a format mcpwire does not write (it writes {token} and Bearer {token})"}
	}
	return nil
}

func (vibe) Filters() FilterSpec {
	return FilterSpec{Deny: true, ExactDeny: true, DenyAll: true, Members: []string{vibeDisabledTools}, Switch: vibeDisabled}
}

// passesNoVariables: Vibe starts a stdio server with env as written.
func (vibe) passesNoVariables() bool { return true }

// refuse refuses the references Vibe cannot take: any for a stdio server, and more
// than one header from a variable for a remote one.
func (d vibe) refuse(s *registry.Server, v *Values) []Problem {
	var probs []Problem
	for _, vr := range v.EnvVars {
		probs = append(probs, Problem{Server: s.Name, Field: "envFrom", Reason: d.p.Display + " passes no variable from its environment to a stdio server (it sets env values as written), so " + vr + " cannot reach it"})
	}
	var fields []string
	if v.BearerVar != "" {
		fields = append(fields, "bearerEnv")
	}
	for _, h := range v.EnvHTTPHeaders {
		fields = append(fields, "headerEnv."+h.Key)
	}
	for _, f := range fields[min(1, len(fields)):] {
		probs = append(probs, Problem{Server: s.Name, Field: f, Reason: d.p.Display + " takes one header from a variable per server (api_key_env); " + fields[0] + " is that one"})
	}
	if len(fields) > 0 {
		target := "Authorization"
		if v.BearerVar == "" {
			target = v.EnvHTTPHeaders[0].Key
		}
		for _, h := range v.Headers {
			if strings.EqualFold(h.Key, target) {
				probs = append(probs, Problem{Server: s.Name, Field: "headers." + h.Key, Reason: d.p.Display + " keeps a literal header over the one from " + fields[0]})
			}
		}
	}
	return probs
}

// vibeNameRE is what Vibe replaces in a server name (normalize_name).
var vibeNameRE = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// vibeName is the name Vibe gives a server: other characters become "_", "_" and
// "-" are trimmed at both ends, and at most 256 are kept.
func vibeName(n string) string {
	n = strings.Trim(vibeNameRE.ReplaceAllString(n, "_"), "_-")
	if len(n) > 256 {
		n = n[:256]
	}
	return n
}

// EditFile refuses servers whose names Vibe would read as one (its names must be
// unique once normalised, or it refuses the whole config), or as nothing.
func (d vibe) EditFile(_ format.Document, es format.Entries, st *FileState) error {
	if len(st.Set) == 0 {
		return nil
	}
	byName := map[string][]string{}
	for _, n := range es.Names() {
		k := vibeName(n)
		byName[k] = append(byName[k], n)
	}
	var clashes []string
	said := map[string]bool{}
	for _, n := range st.Set {
		k := vibeName(n)
		switch g := byName[k]; {
		case k == "":
			clashes = append(clashes, fmt.Sprintf("%q (no letter or digit left)", n))
		case len(g) > 1 && !said[k]:
			clashes = append(clashes, fmt.Sprintf("%s (all %s)", quoteAll(g), k))
			said[k] = true
		}
	}
	if len(clashes) == 0 {
		return nil
	}
	sort.Strings(clashes)
	return &nameClash{fmt.Sprintf("%s: %s reads server names with other characters than letters, digits, '_' and '-' replaced by '_', and these would be one server: %s",
		st.Path, d.p.Display, strings.Join(clashes, "; "))}
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " and ")
}

// denyVibe is how the client takes deny filters.
const denyVibe DenyStyle = "disabled_tools (exact names); disabled = true for SERVER__*"

// refAPIKeyEnv is how the client spells a reference to a variable (V4).
var refAPIKeyEnv = policy.Spelling{Style: "one variable name per remote server (api_key_env)", ByName: true}
