package providers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// The reverse direction (issue 14): a client entry read back into the registry's
// terms, for import, server add-json, status and audit. Each dialect's Read sits
// beside its Entry and reads the same member names; ReadBack then turns the client's
// reference spelling and its workspace variable back into the registry's fields, so
// that the dialects read values exactly as they are in the file.

// errNoReader is the Read of a client without a file (ChatGPT Desktop's connectors):
// nothing to read back.
var errNoReader = errors.New("no reader")

// Imported is one client entry read back.
type Imported struct {
	// Server is the entry as a registry server (no name: the caller's).
	Server *registry.Server
	// Filters are the entry's tool filters; nil when it has none.
	Filters *ServerFilters
	// Dropped are the members mcpwire does not import, sorted: the client's own with
	// no registry equivalent (autoApprove, timeout, trust…) and any it does not know.
	Dropped []string
	// Unknown are the members of Dropped the client does not document: an entry
	// with some does not have this client's shape (server add-json).
	Unknown []string
	// Unresolved are the forms in the entry's values the client does not resolve
	// (T2): the server gets them as written.
	Unresolved []Unresolved
}

// EntryError is an entry that cannot be read back: the member and why, never a value.
type EntryError struct{ Member, Reason string }

func (e *EntryError) Error() string { return e.Member + ": " + e.Reason }

// reading reads the members of one entry, remembering which it used.
type reading struct {
	members
	// used are the names of the members used, each once: a handful, which a list
	// holds for less than a map (K7: an entry of a file of 200,000 is read in
	// microseconds)
	used    []string
	usedBuf [16]string // a Goose extension's reading uses 11
	err     error
	// extra are members inside other members that are dropped (drop).
	extra, extraUnknown []string
	// types are the client's own type values (Provider.Types), if any.
	types *TypeNames
}

// newReading decodes an entry of p's file, which must be an object.
func newReading(p *Provider, entry json.RawMessage) (*reading, error) {
	if !jsonc.Valid(entry) { // K7: json.Valid's scanner takes twice as long
		return nil, &EntryError{"entry", "not an object"}
	}
	r := readings.Get().(*reading)
	*r = reading{types: p.Types}
	r.used = r.usedBuf[:0]
	if !splitObject(entry, &r.members) { // split.go
		var m map[string]json.RawMessage
		if err := json.Unmarshal(entry, &m); err != nil || m == nil {
			return nil, &EntryError{"entry", "not an object"}
		}
		r.members = members{}
		for k, v := range m {
			r.set(k, v)
		}
	}
	return r, nil
}

// has reports whether the entry holds a member (and marks it used).
func (r *reading) has(key string) bool {
	_, ok := r.get(key)
	if ok {
		r.use(key)
	}
	return ok
}

// use marks a member used.
func (r *reading) use(key string) {
	if !slices.Contains(r.used, key) {
		r.used = append(r.used, key)
	}
}

// decode decodes a member into dst; false when it is absent or null.
func (r *reading) decode(key, want string, dst any) bool {
	raw, ok := r.get(key)
	if !ok {
		return false
	}
	r.use(key)
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return false
	}
	if quickDecode(raw, dst) { // split.go
		return r.err == nil
	}
	if err := json.Unmarshal(raw, dst); err != nil && r.err == nil {
		r.err = &EntryError{key, "must be " + want}
	}
	return r.err == nil
}

func (r *reading) str(key string) string {
	var s string
	r.decode(key, "a string", &s)
	return s
}

func (r *reading) strs(key string) []string {
	var out []string
	if r.decode(key, "an array of strings", &out) && len(out) == 0 {
		return nil
	}
	return out
}

func (r *reading) strMap(key string) map[string]string {
	var out map[string]string
	if r.decode(key, "an object of strings", &out) && len(out) == 0 {
		return nil
	}
	return out
}

// unnest moves the members of an entry's nested transport member (key, "" for none)
// up into the entry: Cline's {"transport": {"type": "stdio", "command": …},
// "disabled": …} reads as {"type": "stdio", "command": …, "disabled": …}. An entry
// without it is returned as it is.
func unnest(entry json.RawMessage, key string) (json.RawMessage, error) {
	if key == "" || !bytes.Contains(entry, []byte(`"`+key+`"`)) {
		return entry, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(entry, &m) != nil || m[key] == nil {
		return entry, nil // not an object, or no such member: newReading says so
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(m[key], &inner) != nil || inner == nil {
		return nil, &EntryError{key, "must be an object"}
	}
	delete(m, key)
	for _, k := range slices.Sorted(maps.Keys(inner)) {
		if _, both := m[k]; both {
			return nil, &EntryError{key + "." + k, "is also outside " + key}
		}
		m[k] = inner[k]
	}
	return json.Marshal(m)
}

// names reads a list of tool names; set is false when it is absent ([] is an empty
// allowlist, not no list).
func (r *reading) names(key string) (out []string, set bool) {
	if !r.decode(key, "an array of tool names", &out) {
		return nil, false
	}
	if out == nil {
		out = []string{}
	}
	return out, true
}

// filterLists reads a deny list and an allowlist of tool names; nil when neither is
// there (an empty allowlist is one).
func (r *reading) filterLists(denyKey, allowKey string) *ServerFilters {
	deny, _ := r.names(denyKey)
	allow, allowSet := r.names(allowKey)
	if len(deny) == 0 && !allowSet {
		return nil
	}
	sf := &ServerFilters{Deny: deny}
	if allowSet {
		sf.Allow = allow
	}
	return sf
}

// flag reads a boolean member; set is false when it is absent.
func (r *reading) flag(key string) (v, set bool) {
	set = r.decode(key, "true or false", &v)
	return v, set
}

// switchOff reads the client's switch member (the inverse of switchOff): enabled:
// false or disabled: true turn the server off.
func (r *reading) switchOff(p *Provider, s *registry.Server) {
	if p.Switch == "" {
		return
	}
	v, set := r.flag(p.Switch)
	if set && off(p.Switch, v) {
		f := false
		s.Enabled = &f
	}
}

// drop names a member inside another (requestOptions.timeout) as dropped: one the
// client documents when own, else unknown.
func (r *reading) drop(name string, own bool) {
	r.extra = append(r.extra, name)
	if !own {
		r.extraUnknown = append(r.extraUnknown, name)
	}
}

// done finishes a reading: the members not used are dropped, and those the client
// does not document (not in own) are unknown.
func (r *reading) done(s *registry.Server, sf *ServerFilters, own ...string) (*Imported, error) {
	if r.err != nil {
		return nil, r.err
	}
	im := &Imported{Server: s, Filters: sf, Dropped: r.extra, Unknown: r.extraUnknown}
	for _, m := range r.list {
		k := m.key
		if slices.Contains(r.used, k) {
			continue
		}
		im.Dropped = append(im.Dropped, k)
		if !slices.Contains(own, k) {
			im.Unknown = append(im.Unknown, k)
		}
	}
	sort.Strings(im.Dropped)
	sort.Strings(im.Unknown)
	*r = reading{} // nothing of it is kept: im holds no part of it
	readings.Put(r)
	return im, nil
}

// readings are readings done with, for the next entry: status reads 600,000 entries
// back (200,000 of a file three clients read), a reading each (K7).
var readings = sync.Pool{New: func() any { return new(reading) }}

// transport maps a client's spelling of a transport to the registry's: "" when it
// has none.
func transport(typ string) (string, bool) {
	switch strings.ToLower(typ) {
	case "stdio", "local":
		return registry.Stdio, true
	case "http", "streamable-http", "streamable_http", "streamablehttp", "remote":
		return registry.HTTP, true
	case registry.SSE:
		return registry.SSE, true
	}
	return "", false
}

// readType reads a type member; a value that names no transport mcpwire has is an
// error naming the member.
func (r *reading) readType(key string) string {
	t := r.str(key)
	if t == "" {
		return ""
	}
	if r.types != nil {
		for _, tr := range []string{registry.Stdio, registry.HTTP, registry.SSE} {
			if r.types.Of(tr) == t {
				return tr
			}
		}
	}
	typ, ok := transport(t)
	if !ok && r.err == nil {
		r.err = &EntryError{key, "transport " + fmt.Sprintf("%q", t) + " is not one mcpwire writes (stdio, http, sse)"}
	}
	return typ
}

// ReadBack reads entry in the file of target t with dialect d: d's Read, then every
// value in the forms the client resolves (T1): a value that is one reference whole
// becomes envFrom, headerEnv or bearerEnv (V4) — envInput, headerInput or bearerInput
// for a prompted input (T3) — and a placeholder inside a value is written in the
// registry's form (${VAR}, ${input:ID}, ${workspaceFolder}, ${userHome}); the
// workspace variable of a project file becomes ${project} (R10). A form the client
// does not resolve stays as it is, and Imported.Unresolved names it.
func ReadBack(t Target, d Dialect, entry json.RawMessage) (*Imported, error) {
	im, err := d.Read(entry)
	if errors.Is(err, errNoReader) {
		return nil, fmt.Errorf("mcpwire cannot read %s's entries back", t.P.Display)
	}
	if err != nil {
		return nil, err
	}
	s := im.Server
	readExec(s)
	if mayHoldForms(s) {
		forms := clientForms(t.P)
		im.Unresolved = unresolved(t.P, d, s)
		readWhole(s, forms)
		respell(s, forms)
	} else {
		// no value holds a placeholder: what readWhole leaves of empty maps (K7: most
		// entries have none, and the scans below cost more than reading the entry)
		if len(s.Env) == 0 {
			s.Env = nil
		}
		if len(s.Headers) == 0 {
			s.Headers = nil
		}
	}
	if t.Scope != User && !t.Ephemeral && t.Project != "" {
		unsubst(t.ProjectValue(), s) // a project's file, or its own servers (Claude Code's local scope)
	}
	defaultType(s)
	return im, nil
}

// ReadSnippet reads an entry pasted from a client's documentation as client p's
// (server add-json, B3): references in any client's form come back as reference
// fields, since the snippet's client is not known.
func ReadSnippet(p *Provider, entry json.RawMessage) (*Imported, error) {
	im, err := p.Dialect().Read(entry)
	if err != nil {
		return nil, err
	}
	if !p.Refs.ByName {
		// a bare $VAR only as a whole value: inside a value of a client that does not
		// expand it, it is text (a password may hold a "$")
		readWhole(im.Server, policy.KnownForms())
		respell(im.Server, policy.RegistryForms())
	}
	defaultType(im.Server)
	return im, nil
}

// clientForms are the forms a client resolves in the values ReadBack reads: none for
// a client that names variables in members of its own (its Read reads those).
func clientForms(p *Provider) []string {
	if p.Refs.ByName {
		return nil
	}
	return p.Forms()
}

// defaultType sets an entry's transport where the shape does not say it: a URL means
// http, else stdio.
func defaultType(s *registry.Server) {
	if s.Type == "" {
		s.Type = registry.Stdio
		if s.URL != "" {
			s.Type = registry.HTTP
		}
	}
}

// readWhole turns values that are one reference whole, in the given forms, into
// reference fields: an env value into envFrom (envInput for an input), a header into
// headerEnv (headerInput), "Authorization: Bearer <ref>" into bearerEnv (bearerInput).
// A reference with a default stays a value (the client uses the default when the
// variable is unset).
func readWhole(s *registry.Server, forms []string) {
	if len(s.Env) == 0 && len(s.Headers) == 0 {
		s.Env, s.Headers = nil, nil // as below, without sorting nothing
		return
	}
	whole := func(v string) (*policy.Placeholder, bool) {
		ph, ok := policy.Scan(v, forms).Whole()
		if !ok || ph.Kind == policy.KindPath || ph.HasDefault {
			return nil, false
		}
		return ph, true
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		if ph, ok := whole(s.Env[k]); ok {
			if ph.Kind == policy.KindInput {
				s.EnvInput = setKey(s.EnvInput, k, ph.Name)
			} else {
				s.EnvFrom = setKey(s.EnvFrom, k, ph.Name)
			}
			delete(s.Env, k)
		}
	}
	for _, h := range slices.Sorted(maps.Keys(s.Headers)) {
		v := s.Headers[h]
		token, bearer := strings.CutPrefix(v, policy.BearerScheme)
		bearer = bearer && strings.EqualFold(h, "Authorization") && s.BearerEnv == "" && s.BearerInput == ""
		if ph, ok := whole(token); ok && bearer {
			if ph.Kind == policy.KindInput {
				s.BearerInput = ph.Name
			} else {
				s.BearerEnv = ph.Name
			}
			delete(s.Headers, h)
		} else if ph, ok := whole(v); ok {
			if ph.Kind == policy.KindInput {
				s.HeaderInput = setKey(s.HeaderInput, h, ph.Name)
			} else {
				s.HeaderEnv = setKey(s.HeaderEnv, h, ph.Name)
			}
			delete(s.Headers, h)
		}
	}
	if len(s.Env) == 0 {
		s.Env = nil
	}
	if len(s.Headers) == 0 {
		s.Headers = nil
	}
}

// respell writes every placeholder of the given forms left inside a value in the
// registry's form: ${env:HOME}/x is ${HOME}/x, $TOKEN ${TOKEN} (a bare $VAR only where
// the forms hold it, Gemini CLI's).
func respell(s *registry.Server, forms []string) {
	each(s, func(_ string, v *string) {
		tpl := policy.Scan(*v, forms)
		if len(tpl.Refs()) == 0 {
			return
		}
		var b strings.Builder
		for _, part := range tpl {
			if part.Ref == nil {
				b.WriteString(part.Text)
			} else {
				b.WriteString(part.Ref.RegistryText())
			}
		}
		*v = b.String()
	})
}

// each calls fn with every string value of a server that may hold a placeholder, by
// field: command, args[i], cwd, env.K, url, headers.H, and with an env or header value
// that is a 1Password reference (unresolved names it). Other values without a '$' or
// a '{' hold none (policy.Scan) and are passed over.
func each(s *registry.Server, fn func(field string, v *string)) {
	may := func(v string) bool { return strings.ContainsAny(v, "${") }
	mayEnv := func(v string) bool { return may(v) || opWhole(strings.TrimPrefix(v, policy.BearerScheme)) }
	if may(s.Command) {
		fn("command", &s.Command)
	}
	for i := range s.Args {
		if may(s.Args[i]) {
			fn("args["+strconv.Itoa(i)+"]", &s.Args[i])
		}
	}
	if may(s.Cwd) {
		fn("cwd", &s.Cwd)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		if v := s.Env[k]; mayEnv(v) {
			fn("env."+k, &v)
			s.Env[k] = v
		}
	}
	if may(s.URL) {
		fn("url", &s.URL)
	}
	for _, h := range slices.Sorted(maps.Keys(s.Headers)) {
		if v := s.Headers[h]; mayEnv(v) {
			fn("headers."+h, &v)
			s.Headers[h] = v
		}
	}
}

// mayHoldForms reports whether a value each visits may hold a placeholder, or an env
// or header value is a 1Password reference (which unresolved reports).
func mayHoldForms(s *registry.Server) bool {
	found := false
	visit := func(v string) {
		found = found || strings.ContainsAny(v, "${")
	}
	storeRef := func(v string) {
		found = found || opWhole(strings.TrimPrefix(v, policy.BearerScheme))
	}
	visit(s.Command)
	visit(s.Cwd)
	visit(s.URL)
	for _, a := range s.Args {
		visit(a)
	}
	for _, v := range s.Env {
		visit(v)
		storeRef(v)
	}
	for _, v := range s.Headers {
		visit(v)
		storeRef(v)
	}
	return found
}

// Unresolved is a form in a client's entry the client does not resolve: the server
// gets it as written (T2). It names the field and the form, never the value.
type Unresolved struct {
	Field, Style string
}

// unresolved finds the forms in an entry's values its client does not resolve: a
// placeholder of another client's (${input:ID} outside VS Code, ${env:VAR} in Claude
// Code, ${VAR} in Codex), or a bare $VAR that is the whole value where the client does
// not expand one.
func unresolved(p *Provider, d Dialect, s *registry.Server) []Unresolved {
	var out []Unresolved
	own := clientForms(p)
	each(s, func(field string, v *string) {
		if !strings.ContainsAny(*v, "${") {
			// a 1Password reference holds neither (secretref refuses them)
			if (strings.HasPrefix(field, "env.") || strings.HasPrefix(field, "headers.")) && opWhole(strings.TrimPrefix(*v, policy.BearerScheme)) {
				out = append(out, Unresolved{field, StyleStoreRef})
			}
			return
		}
		forms := own
		if ff := d.fieldForms(field); ff != nil {
			forms = ff
		}
		for _, part := range policy.Scan(*v, forms) {
			if part.Ref != nil {
				continue
			}
			for _, ph := range policy.Scan(part.Text, policy.RegistryForms()).Refs() {
				out = append(out, Unresolved{field, ph.Style})
			}
		}
		if !slices.Contains(forms, policy.StyleBareDollar) {
			if ph, ok := policy.Scan(*v, []string{policy.StyleBareDollar}).Whole(); ok {
				out = append(out, Unresolved{field, ph.Style})
			}
		}
	})
	return out
}

// unsubst writes the project directory as ${project} again in a stdio server's
// command, arguments, working directory and env values (R10): the client's workspace
// variable, or the absolute directory where the path continues or ends (on Windows,
// spelled with forward slashes or backslashes).
func unsubst(pv string, s *registry.Server) {
	if pv == "" || s.Remote() {
		return
	}
	if native := filepath.FromSlash(pv); native != pv {
		defer unsubst(native, s) // then the backslash spelling
	}
	back := func(v string) string {
		if !strings.Contains(v, pv) {
			return v
		}
		var b strings.Builder
		for {
			i := strings.Index(v, pv)
			if i < 0 {
				b.WriteString(v)
				return b.String()
			}
			end := i + len(pv)
			b.WriteString(v[:i])
			if strings.HasPrefix(pv, "$") || end == len(v) || v[end] == '/' || v[end] == '\\' {
				b.WriteString(ProjectVar)
			} else {
				b.WriteString(pv)
			}
			v = v[end:]
		}
	}
	s.Command, s.Cwd = back(s.Command), back(s.Cwd)
	for i, a := range s.Args {
		s.Args[i] = back(a)
	}
	for k, v := range s.Env {
		s.Env[k] = back(v)
	}
}

// bearerHeader is the header rendering writes for bearerEnv.
func bearerHeader(ref string) string { return policy.BearerScheme + ref }

// UsedInputs are the ids of the inputs a server asks for, sorted: in envInput,
// headerInput, bearerInput and as ${input:ID} inside its values.
func UsedInputs(s *registry.Server) []string {
	ids := s.InputIDs()
	c := *s
	c.Args, c.Env, c.Headers = slices.Clone(s.Args), maps.Clone(s.Env), maps.Clone(s.Headers)
	each(&c, func(_ string, v *string) {
		for _, ph := range policy.Scan(*v, []string{policy.StyleInput}).Refs() {
			ids = AppendNew(ids, []string{ph.Name})
		}
	})
	slices.Sort(ids)
	return ids
}

// AttachInputs gives a server read back the declarations of the inputs it asks for
// (a file's inputs, T3).
func AttachInputs(s *registry.Server, decls []registry.Input) {
	for _, id := range UsedInputs(s) {
		if _, ok := s.Input(id); ok {
			continue
		}
		for _, in := range decls {
			if in.ID == id {
				s.Inputs = append(s.Inputs, in)
				break
			}
		}
	}
}
