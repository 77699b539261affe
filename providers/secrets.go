package providers

import (
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// Secrets delivered when a server starts (S2): the values step writes references,
// never values, in the forms a client can deliver them.
//
//   - A stdio server with envSecret starts "mcpwire exec --env-secret K=REF … --
//     COMMAND ARG…" (every client takes a command and arguments).
//   - A remote server's headerSecret and bearerSecret: a client with a headers helper
//     (Provider.HeadersHelper, Claude Code) runs "mcpwire headers …"; any
//     other gets a reference to a variable standing for each secret (SecretVariable),
//     set by mcpwire session or mcpwire exec -- CLIENT where the client starts
//     (Values.SecretVars); a client that takes no reference in headers is refused.
//
// A private file names mcpwire by its absolute path (a client started from a desktop
// has no shell's PATH); a project file, which is committed, names "mcpwire".

// execName is the mcpwire command an entry starts, and whether it is the bare name (a
// project file: mcpwire must then be on the client's PATH).
func (t Target) execName() (string, bool) {
	if t.Scope == Project && !t.Ephemeral {
		return "mcpwire", true
	}
	if t.Exec == "" {
		return "mcpwire", false
	}
	return t.Exec, false
}

// SecretVariable is the variable standing for a remote server's secret header in a
// client without a headers helper: MCPWIRE_SECRET_, the server's name, "_" and the
// header's (BEARER for the bearer token), in upper case, every character other than a
// letter, a digit or _ as _ ("notes", "X-Api-Key" → MCPWIRE_SECRET_NOTES_X_API_KEY).
func SecretVariable(server, header string) string {
	var b strings.Builder
	b.WriteString("MCPWIRE_SECRET_")
	for _, r := range strings.ToUpper(server + "_" + header) {
		if r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// bearerName is the header part of the bearer token's SecretVariable.
const bearerName = "BEARER"

// secrets prepares a remote server's secrets for the client: with a headers helper,
// its command line in v; otherwise each secret as a reference to the variable standing
// for it (in a copy of s, which is returned), with the variable and its reference in
// v.SecretVars; where the client takes no reference in headers, a problem naming it.
func (sp *speller) secrets(s *registry.Server, v *Values) *registry.Server {
	if !s.Remote() || len(s.HeaderSecret) == 0 && s.BearerSecret == "" {
		return s
	}
	t := sp.t
	if t.P.HeadersHelper {
		bin, _ := t.execName()
		words := append([]string{bin}, secretref.HeadersArgs(s.HeaderSecret, s.BearerSecret)...)
		v.HeadersHelper = secretref.ShellLine(words, t.GOOS == "windows")
		return s
	}
	fields := secretFields(s)
	if why := t.refused("headerEnv.X"); why != "" || !t.P.TakesRefs() {
		for _, f := range fields {
			sp.refuse(f, t.P.Display+" runs no headers helper and expands no variable in headers, so a secret cannot reach a remote server there")
		}
		return s
	}
	c := s.Clone()
	if sp.origin == nil {
		sp.origin = map[string]string{}
	}
	for _, h := range slices.Sorted(maps.Keys(s.HeaderSecret)) {
		vr := SecretVariable(s.Name, h)
		c.HeaderEnv = setKey(c.HeaderEnv, h, vr)
		v.SecretVars = append(v.SecretVars, vr+"="+s.HeaderSecret[h])
		sp.from("headerEnv."+h, "headerSecret."+h)
	}
	if s.BearerSecret != "" {
		vr := SecretVariable(s.Name, bearerName)
		c.BearerEnv = vr
		v.SecretVars = append(v.SecretVars, vr+"="+s.BearerSecret)
		sp.from("bearerEnv", "bearerSecret")
	}
	c.HeaderSecret, c.BearerSecret = nil, ""
	return c
}

// from notes that field was filled from the registry's field, unless an earlier step
// moved it there from another (readStoreRefs: a header holding an op:// reference).
func (sp *speller) from(field, registryField string) {
	if _, ok := sp.origin[field]; ok {
		return
	}
	if f, ok := sp.origin[registryField]; ok {
		registryField = f
	}
	sp.origin[field] = registryField
}

// secretFields names a remote server's secret fields.
func secretFields(s *registry.Server) []string {
	var out []string
	for _, u := range s.Secrets() {
		out = append(out, u.Field)
	}
	return out
}

// wrapExec makes a stdio server with envSecret start through mcpwire exec.
func (sp *speller) wrapExec(s *registry.Server, v *Values) {
	if s.Remote() || len(s.EnvSecret) == 0 {
		return
	}
	bin, byName := sp.t.execName()
	v.Args = secretref.ExecArgs(s.EnvSecret, v.Command, v.Args)
	v.Command, v.ExecByName = bin, byName
}

// StyleStoreRef names a 1Password reference left in a client's file, where no client
// resolves one (S4).
const StyleStoreRef = "a 1Password reference (op://…)"

// opWhole reports whether a value is one 1Password reference: a client passes it as
// written, so the values step delivers it as a secret (T2), and status says that an
// entry holding one is not resolved (S4). Other stores' prefixes (file:, pass:) are
// taken as the text they may well be (SQLite's file: URLs).
func opWhole(v string) bool {
	st, ok := secretref.StoreOf(v)
	return ok && st == secretref.OnePassword && secretref.Is(v)
}

// readStoreRefs moves env and header values that are one 1Password reference whole
// into the secret fields (an Authorization of "Bearer " and one into bearerSecret),
// noting where each came from.
func (sp *speller) readStoreRefs(c *registry.Server) {
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		if opWhole(c.Env[k]) {
			c.EnvSecret = setKey(c.EnvSecret, k, c.Env[k])
			delete(c.Env, k)
			sp.origin["envSecret."+k] = "env." + k
		}
	}
	for _, h := range slices.Sorted(maps.Keys(c.Headers)) {
		v := c.Headers[h]
		if tok, ok := strings.CutPrefix(v, policy.BearerScheme); ok && strings.EqualFold(h, "Authorization") && opWhole(tok) && c.BearerEnv == "" && c.BearerInput == "" && c.BearerSecret == "" {
			c.BearerSecret = tok
			sp.origin["bearerSecret"], sp.origin["bearerEnv"] = "headers."+h, "headers."+h
		} else if opWhole(v) {
			c.HeaderSecret = setKey(c.HeaderSecret, h, v)
			sp.origin["headerSecret."+h], sp.origin["headerEnv."+h] = "headers."+h, "headers."+h
		} else {
			continue
		}
		delete(c.Headers, h)
	}
}

// readExec reads an entry that starts mcpwire exec back as the server it starts, its
// references in envSecret (the inverse of wrapExec). Any other entry is left as it is.
func readExec(s *registry.Server) {
	if !isMcpwire(s.Command) || len(s.Args) == 0 || s.Args[0] != secretref.ExecCommand {
		return
	}
	x, err := secretref.ParseExec(s.Args[1:])
	if err != nil {
		return
	}
	for k := range x.Env {
		if _, taken := s.Env[k]; taken {
			return
		}
	}
	s.Command, s.Args = x.Command[0], slices.Clone(x.Command[1:])
	if len(s.Args) == 0 {
		s.Args = nil
	}
	s.EnvSecret = x.Env
}

// ReadHeadersHelper reads a headers helper's command line that runs mcpwire headers
// into the server's headerSecret and bearerSecret; false for any other command.
func ReadHeadersHelper(line string, s *registry.Server) bool {
	words, ok := secretref.SplitShellLine(line)
	if !ok || len(words) < 2 || !isMcpwire(words[0]) || words[1] != secretref.HeadersCommand {
		return false
	}
	h, err := secretref.ParseHeaders(words[2:])
	if err != nil {
		return false
	}
	if len(h.Headers) > 0 {
		s.HeaderSecret = h.Headers
	}
	s.BearerSecret = h.Bearer
	return true
}

// isMcpwire reports whether a command names mcpwire: by name, or a path to it (with
// .exe on Windows).
func isMcpwire(cmd string) bool {
	base := cmd[strings.LastIndexAny(cmd, `/\`)+1:]
	return strings.TrimSuffix(strings.ToLower(base), ".exe") == "mcpwire"
}
