package providers

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// gooseClient is Goose.
var gooseClient = &Provider{
	Name: "goose", Display: "Goose", DefaultScope: User,
	Order:   210,
	dialect: newGoose,
	// etcetera's app strategy: XDG on Linux and macOS, %APPDATA%\Block\goose\config
	// on Windows; GOOSE_PATH_ROOT (absolute) moves it to $GOOSE_PATH_ROOT/config
	User: &Dest{Env: "GOOSE_PATH_ROOT", EnvDir: []string{"config"}, Base: XDGConfig, Dir: []string{"goose"}, Files: []string{"config.yaml"},
		OS: map[string]*Dest{"windows": {Env: "GOOSE_PATH_ROOT", EnvDir: []string{"config"}, Base: AppData, Dir: []string{"Block", "goose", "config"}, Files: []string{"config.yaml"}}}},
	Format: format.YAML, ServersKey: "extensions", Switch: "enabled", Refs: refEnvKeys,
	Remote: RemoteHTTP, Deny: denyGoose, Allow: allowGoose, DisableWhole: true, Binary: "goose",
	Sources: []string{"aaif-goose/goose documentation/docs/guides/config-files.md", "aaif-goose/goose crates/goose/src/agents/extension.rs",
		"aaif-goose/goose crates/goose/src/config/extensions.rs", "block/goose crates/goose/src/config/paths.rs"},
}

func init() { register(gooseClient) }

// goose is Goose's extensions entry (~/.config/goose/config.yaml, a YAML mapping keyed
// by name). mcpwire writes an entry the way Goose itself saves one (its serde form,
// aaif-goose/goose crates/goose/src/agents/extension.rs), every member present, so
// that Goose re-saving its file (it does when it updates its platform extensions or
// when you toggle an extension) leaves the entry's data, and so mcpwire's ownership,
// as it was:
//
//	stdio:  enabled, type: stdio, name, description, cmd, args, envs, env_keys,
//	        timeout, bundled, available_tools
//	remote: enabled, type: streamable_http, name, description, uri, envs, env_keys,
//	        headers, timeout, socket, bundled, available_tools
//
// References go by variable name (V4): Goose reads each name in env_keys from the
// environment (then its keyring) and passes it to a stdio server under that name, and
// substitutes ${VAR} in a remote server's headers from the same variables; so envFrom
// must be VAR=VAR, and headerEnv and bearerEnv become ${VAR} headers with VAR in
// env_keys. Goose has no SSE client. Tool filter: available_tools, an allowlist of
// exact names ([] is every tool); no denylist in the entry; enabled: false for a
// whole-server deny.
type goose struct {
	base
	p *Provider
}

func newGoose(p *Provider) Dialect { return goose{p: p} }

// Goose's members.
const (
	gooseEnabled   = "enabled"
	gooseName      = "name"
	gooseDesc      = "description"
	gooseCmd       = "cmd"
	gooseEnvs      = "envs"
	gooseEnvKeys   = "env_keys"
	gooseURI       = "uri"
	gooseTimeout   = "timeout"
	gooseSocket    = "socket"
	gooseBundled   = "bundled"
	gooseAvailable = "available_tools"
	// gooseDefaultTimeout is Goose's DEFAULT_EXTENSION_TIMEOUT, which it writes for an
	// extension added from its own settings.
	gooseDefaultTimeout = 300
)

func (d goose) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := format.Object{{Key: gooseEnabled, Value: !Disabled(s) && (sf == nil || !sf.DenyAll)}}
	envs := v.Env
	if envs == nil {
		envs = format.Object{}
	}
	keys := append([]string{}, v.EnvVars...)
	if s.Remote() {
		e = append(e, format.Member{Key: memberType, Value: "streamable_http"}, format.Member{Key: gooseName, Value: s.Name},
			format.Member{Key: gooseDesc, Value: s.Description}, format.Member{Key: gooseURI, Value: v.URL},
			format.Member{Key: gooseEnvs, Value: envs})
		headers := map[string]string{}
		for _, h := range v.Headers {
			headers[h.Key] = fmt.Sprint(h.Value)
		}
		dollar, _ := policy.SpellingOf(policy.StyleDollar) // remote headers take ${VAR}
		for _, h := range v.EnvHTTPHeaders {
			vr := fmt.Sprint(h.Value)
			headers[h.Key] = dollar.Spell(vr)
			keys = AppendNew(keys, []string{vr})
		}
		if v.BearerVar != "" {
			headers["Authorization"] = "Bearer " + dollar.Spell(v.BearerVar)
			keys = AppendNew(keys, []string{v.BearerVar})
		}
		sort.Strings(keys)
		e = append(e, format.Member{Key: gooseEnvKeys, Value: keys}, format.Member{Key: memberHeaders, Value: format.Sorted(headers)},
			format.Member{Key: gooseTimeout, Value: gooseDefaultTimeout}, format.Member{Key: gooseSocket, Value: nil})
	} else {
		args := v.Args
		if args == nil {
			args = []string{}
		}
		e = append(e, format.Member{Key: memberType, Value: "stdio"}, format.Member{Key: gooseName, Value: s.Name},
			format.Member{Key: gooseDesc, Value: s.Description}, format.Member{Key: gooseCmd, Value: v.Command},
			format.Member{Key: memberArgs, Value: args}, format.Member{Key: gooseEnvs, Value: envs},
			format.Member{Key: gooseEnvKeys, Value: keys}, format.Member{Key: gooseTimeout, Value: gooseDefaultTimeout})
	}
	tools := []string{}
	if sf != nil && sf.Allow != nil {
		tools = exactNames(sf.Allow)
	}
	return append(e, format.Member{Key: gooseBundled, Value: nil}, format.Member{Key: gooseAvailable, Value: tools})
}

// Read reads an extension back: stdio (cmd, args, envs, env_keys passed under their
// own names) or streamable_http (uri, headers: ${VAR} is a header from a variable,
// Authorization: Bearer ${VAR} the bearer token, env_keys naming them), enabled,
// description and available_tools. What Goose writes for every extension (name, its
// default timeout, bundled, socket) is read and left.
func (d goose) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	s := &registry.Server{Type: r.readType(memberType)}
	r.has(gooseName)
	s.Description = r.str(gooseDesc)
	if on, set := r.flag(gooseEnabled); set && !on {
		f := false
		s.Enabled = &f
	}
	keys := r.strs(gooseEnvKeys)
	if s.Remote() {
		s.URL = r.str(gooseURI)
		d.readHeaders(s, r.strMap(memberHeaders))
		if envs := r.strMap(gooseEnvs); len(envs) > 0 {
			r.drop(gooseEnvs, true)
		}
		r.has(gooseSocket)
	} else {
		s.Command, s.Args, s.Env = r.str(gooseCmd), r.strs(memberArgs), r.strMap(gooseEnvs)
		for _, k := range keys {
			if s.EnvFrom == nil {
				s.EnvFrom = map[string]string{}
			}
			s.EnvFrom[k] = k
		}
	}
	var timeout float64
	if r.decode(gooseTimeout, "a number", &timeout) && timeout != gooseDefaultTimeout {
		r.drop(gooseTimeout, true)
	}
	r.has(gooseBundled)
	var sf *ServerFilters
	if tools, _ := r.names(gooseAvailable); len(tools) > 0 {
		sf = &ServerFilters{Allow: tools}
	}
	return r.done(s, sf)
}

// readHeaders reads a remote extension's headers: ${VAR} or $VAR whole is a header
// from a variable, Authorization: Bearer ${VAR} the bearer token, a placeholder
// inside a value the registry's ${VAR}, anything else literal.
func (d goose) readHeaders(s *registry.Server, headers map[string]string) {
	h := &registry.Server{Headers: headers}
	readWhole(h, gooseHeaderForms)
	respell(h, gooseHeaderForms)
	s.Headers, s.HeaderEnv, s.BearerEnv = h.Headers, h.HeaderEnv, h.BearerEnv
}

// gooseHeaderForms are the forms Goose expands in a header value (substitute_env_vars,
// from envs and env_keys): ${VAR}, which mcpwire writes, and $VAR.
var gooseHeaderForms = []string{policy.StyleDollar, policy.StyleBareDollar}

// fieldForms: Goose expands placeholders inside header values only.
func (goose) fieldForms(field string) []string {
	if strings.HasPrefix(field, memberHeaders+".") {
		return gooseHeaderForms
	}
	return nil
}

// Filters: an allowlist of exact names; [] is what a server without one gets, which the
// allowlist already in the file replaces under KeepFilters. A whole-server deny
// (SERVER__*) is enabled: false. Goose's denials of single tools are "never allow"
// tool permissions in its permission.yaml (crates/goose/src/config/permission.rs),
// which Goose rewrites whole under its own lock and refuses to start over when it
// cannot parse it: mcpwire does not write them.
func (goose) Filters() FilterSpec {
	return FilterSpec{Allow: true, ExactAllow: true, DenyAll: true, Members: []string{gooseAvailable}, Switch: gooseEnabled,
		Defaults: map[string]any{gooseAvailable: []string{}}, DenyElsewhere: "never_allow in its permission.yaml"}
}

// CheckNames refuses a name Goose would file under another key: Goose keys an
// extension by its name in lower case without spaces (name_to_key), and finds, turns
// on or off an extension by that key. Entries already in the file (present) are
// Goose's own business.
func (goose) CheckNames(names, _ []string) error {
	var bad []string
	for _, n := range names {
		if k := gooseKey(n); k != n {
			bad = append(bad, fmt.Sprintf("%q (Goose's key %q)", n, k))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return &nameClash{"Goose keys its extensions by lower-case names without spaces: " + strings.Join(bad, ", ")}
}

// gooseKey is Goose's name_to_key.
func gooseKey(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), ""))
}

// denyGoose is how the client takes deny filters.
const denyGoose DenyStyle = "enabled: false for SERVER__* (no per-tool denylist in the config)"

// allowGoose is how the client takes allow filters.
const allowGoose AllowStyle = "available_tools (exact names; [] for all)"

// refEnvKeys is how the client spells a reference to a variable (V4).
var refEnvKeys = policy.Spelling{Style: "variable names (env_keys; ${VAR} in remote headers)", ByName: true}
