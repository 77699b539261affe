package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/fsys"
	"github.com/mcpwire/mcpwire/render/jsonc"
	"github.com/mcpwire/mcpwire/render/tomledit"
	"github.com/pelletier/go-toml/v2"
)

// minSecret is the shortest value hidden wherever it appears: shorter values ("1",
// "on") are settings, and hiding them everywhere would garble the output. Shorter
// credential values are still hidden where they stand as a whole string.
const minSecret = 4

// printRedactedDiff prints the dry run's diff of the client files (not mcpwire's own
// records, which are listed by name), with every credential hidden (R8): the values
// the registry holds, and every credential-shaped value of every file the dry run
// touches, before and after, whoever wrote it.
func printRedactedDiff(env *Env, dr *fsys.DryRun, reg *registry.Registry) {
	layer := reg.Set().Write().Dir
	records := []string{filepath.Join(layer, render.OwnershipDir), filepath.Join(layer, render.PermissionsDir)}
	include := func(p string) bool {
		if p == layer {
			return false
		}
		for _, r := range records {
			if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
				return false
			}
		}
		return true
	}
	r := newRedactor()
	r.addRegistry(reg)
	for _, in := range dr.Intents() {
		r.paths[strings.TrimPrefix(filepath.ToSlash(in.Path), "/")] = true
		if !include(in.Path) {
			continue
		}
		if in.Old != nil && in.Old.Exists {
			r.addFile(in.Path, in.Old.Data)
		}
		if in.Op == "write" {
			r.addFile(in.Path, in.Data)
		}
	}
	printf(env.Stdout, "%s", dr.DiffOnly(r.line, include))
}

// redactLine replaces every secret in a line with REDACTED, and then every
// credential-shaped value (policy.RedactText).
func redactLine(line string, secrets []string) string {
	for _, s := range secrets {
		if strings.Contains(line, s) {
			line = strings.ReplaceAll(line, s, policy.Redacted)
		}
	}
	return policy.RedactText(line)
}

// redactor hides credentials in lines of JSON, JSONC or TOML text (a dry run's
// diff). It knows credentials two ways: exact, a whole string value and what to
// show instead ("sk-live-1" → "REDACTED", "--token=x" → "--token=REDACTED"), matched
// against each quoted string of a line after decoding it, whatever its escapes; and
// anywhere, values hidden wherever they appear, in their raw, JSON-escaped and
// TOML-escaped spellings.
type redactor struct {
	exact    map[string]string
	anywhere map[string]bool
	rep      *strings.Replacer
	// paths are the files of the diff, slash-separated without the leading slash,
	// whose "--- a/PATH" and "+++ b/PATH" lines are kept as they are
	paths map[string]bool
}

func newRedactor() *redactor {
	return &redactor{exact: map[string]string{}, anywhere: map[string]bool{}, paths: map[string]bool{}}
}

// diffMeta reports whether a line of a diff is mcpwire's own (a file header, a hunk
// header, mkdir, mode, "would also write"), not a line of a file: it names paths and
// modes only, and is printed as it is (a hidden value that happens to be part of a
// path, such as a project directory in env, would garble it).
func (r *redactor) diffMeta(line string) bool {
	if line == "" {
		return false
	}
	switch line[0] {
	case ' ', '+', '-':
		if rest, ok := strings.CutPrefix(line, "--- a/"); ok {
			return r.paths[rest]
		}
		if rest, ok := strings.CutPrefix(line, "+++ b/"); ok {
			return r.paths[rest]
		}
		return line == "--- /dev/null" || line == "+++ /dev/null"
	}
	return true
}

// secrets returns the values hidden anywhere, longest first.
func (r *redactor) secrets() []string {
	out := make([]string, 0, len(r.anywhere))
	for v := range r.anywhere {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

// setExact records that the string value v is shown as shown.
func (r *redactor) setExact(v, shown string) {
	if v == "" || v == shown {
		return
	}
	if old, ok := r.exact[v]; ok && old == policy.Redacted {
		return
	}
	r.exact[v] = shown
	r.rep = nil
}

// addAnywhere records a value to hide wherever it appears.
func (r *redactor) addAnywhere(v string) {
	if len(v) >= minSecret && !policy.IsReference(v) && !r.anywhere[v] {
		r.anywhere[v] = true
		r.rep = nil
	}
}

// addCredential records a value that is a credential as a whole (an env or header
// value, an auth field): hidden as a whole string always, and anywhere when it looks
// like a secret rather than a setting such as "true" or "info".
func (r *redactor) addCredential(v string) {
	if v == "" || policy.IsReference(v) {
		return
	}
	r.setExact(v, policy.Redacted)
	if looksSecret(v) {
		r.addAnywhere(v)
	}
	// "Bearer X", "token X": X alone too
	if _, rest, ok := strings.Cut(v, " "); ok && looksSecret(rest) && !policy.IsReference(rest) {
		r.addAnywhere(rest)
	}
	r.addText(v)
}

// addText records the credential-shaped parts of any string: URL userinfo, credential
// query parameters, Bearer tokens.
func (r *redactor) addText(s string) {
	if red := policy.RedactText(s); red != s {
		r.setExact(s, red)
		for _, v := range policy.TextSecrets(s) {
			r.addAnywhere(v)
		}
	}
}

// addArgs records the credential values of an argument list.
func (r *redactor) addArgs(args []string) {
	red := policy.RedactArgs(args)
	for i, a := range args {
		if red[i] != a {
			r.setExact(a, red[i])
		}
		r.addText(a)
	}
	for _, v := range policy.ArgSecrets(args) {
		r.addAnywhere(v)
	}
}

// addCommand records the credential values of a command line.
func (r *redactor) addCommand(cmd string) {
	r.addText(cmd)
	for _, v := range policy.ArgSecrets(strings.Fields(cmd)) {
		r.addAnywhere(v)
	}
}

// looksSecret reports whether a value is hidden wherever it appears: at least 8
// bytes, or at least minSecret and not a plain word or number.
func looksSecret(v string) bool {
	if len(v) >= 8 {
		return true
	}
	if len(v) < minSecret {
		return false
	}
	var letters, digits, other bool
	for _, c := range v {
		switch {
		case unicode.IsLetter(c):
			letters = true
		case unicode.IsDigit(c):
			digits = true
		default:
			other = true
		}
	}
	return other || letters && digits
}

// addRegistry records the credentials of every server of the registry.
func (r *redactor) addRegistry(reg *registry.Registry) {
	for _, n := range reg.ServerNames() {
		s, ok := reg.Server(n)
		if !ok {
			continue
		}
		for _, v := range s.Env {
			r.addCredential(v)
		}
		for _, v := range s.Headers {
			r.addCredential(v)
		}
		r.addText(s.URL)
		if red := policy.RedactURL(s.URL); red != s.URL {
			r.setExact(s.URL, red)
		}
		if i := strings.Index(s.URL, "://"); i >= 0 && policy.HasUserinfo(s.URL) {
			if j := strings.LastIndex(strings.SplitN(s.URL[i+3:], "/", 2)[0], "@"); j >= 0 {
				r.addAnywhere(s.URL[i+3 : i+3+j])
			}
		}
		r.addCommand(s.Command)
		r.addArgs(s.Args)
		for _, m := range []map[string]any{s.Auth, s.OAuth} {
			r.walk(m, true, "")
		}
	}
}

// credContainers are the keys (normalised, policy.NormName) whose whole content is
// credentials: env, environment, headers, http_headers, auth, oauth.
var credContainers = map[string]bool{
	"env": true, "environment": true, "headers": true, "httpheaders": true, "auth": true, "oauth": true,
}

// argKeys hold argument lists (or a command line).
var argKeys = map[string]bool{"args": true, "command": true, "cmd": true}

// addFile records the credentials of one version of a client file: JSON or JSONC,
// or TOML (by extension, then by content). A file that parses as neither is read
// line by line.
func (r *redactor) addFile(path string, data []byte) {
	if len(bytes.TrimSpace(data)) == 0 {
		return
	}
	parsers := []func([]byte) bool{r.addJSON, r.addTOML}
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		parsers = []func([]byte) bool{r.addTOML, r.addJSON}
	}
	for _, p := range parsers {
		if p(data) {
			return
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		r.addText(line)
		for _, v := range policy.TextSecrets(line) {
			r.setExact(v, policy.Redacted)
		}
	}
}

// addJSON walks a JSON or JSONC document (see jsonWalker): plain JSON as it is,
// JSONC (comments, trailing commas) once made standard.
func (r *redactor) addJSON(data []byte) bool {
	keys := map[string]keyKind{}
	w := &jsonWalker{b: data, r: r, keys: keys}
	if w.value(false, "") && w.skip() == len(data) {
		return true
	}
	doc, err := jsonc.Parse(data)
	if err != nil {
		return false
	}
	w = &jsonWalker{b: doc.Root().JSON(), r: r, keys: keys}
	return w.value(false, "") && w.skip() == len(w.b)
}

// addTOML walks a TOML document. Every string is also searched for URL userinfo and
// the like here, as a TOML string may span lines.
func (r *redactor) addTOML(data []byte) bool {
	var v map[string]any
	if toml.Unmarshal(data, &v) != nil {
		return false
	}
	r.walk(v, false, "")
	return true
}

// walk records the credentials in a parsed document: every string under a
// credential container (env, headers, auth, …) or a key with a credential name
// (clientSecret, primaryApiKey, …), at any depth and in any entry; the credential
// arguments of args and command; URL userinfo and credential query parameters in
// any string.
func (r *redactor) walk(v any, cred bool, key string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			n := policy.NormName(k)
			r.walk(e, cred || credContainers[n] || policy.SecretName(k), n)
		}
	case []any:
		if argKeys[key] && !cred {
			var args []string
			for _, e := range x {
				if s, ok := e.(string); ok {
					args = append(args, s)
				} else {
					r.walk(e, cred, key)
				}
			}
			r.addArgs(args)
			return
		}
		for _, e := range x {
			r.walk(e, cred, key)
		}
	case []map[string]any:
		for _, e := range x {
			r.walk(e, cred, key)
		}
	case string:
		switch {
		case cred && key != "type":
			r.addCredential(x)
		case argKeys[key]:
			r.addCommand(x)
		default:
			r.addText(x)
		}
	}
}

// line hides every known credential in one line of a diff.
func (r *redactor) line(s string) string {
	if r.diffMeta(s) {
		return s
	}
	s = r.literals(s)
	if len(r.anywhere) > 0 && len(s) >= minSecret {
		if r.rep == nil {
			// every spelling of every value, longest first: at one position the
			// first matching argument of a Replacer wins
			var olds []string
			seen := map[string]bool{}
			for _, v := range r.secrets() {
				for _, sp := range spellings(v) {
					if !seen[sp] {
						seen[sp] = true
						olds = append(olds, sp)
					}
				}
			}
			sort.SliceStable(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
			pairs := make([]string, 0, 2*len(olds))
			for _, o := range olds {
				pairs = append(pairs, o, policy.Redacted)
			}
			r.rep = strings.NewReplacer(pairs...)
		}
		s = r.rep.Replace(s)
	}
	return policy.RedactText(s)
}

// spellings are the ways a value is written in a file: raw (also TOML literal
// strings), JSON-escaped with and without HTML escapes, TOML-escaped.
func spellings(v string) []string {
	return []string{v, jsonEscape(v, false), jsonEscape(v, true), tomlEscape(v)}
}

func jsonEscape(v string, html bool) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(html)
	_ = e.Encode(v)
	q := strings.TrimSuffix(b.String(), "\n")
	return q[1 : len(q)-1]
}

// tomlEscape is v as it appears inside a TOML basic string.
func tomlEscape(v string) string {
	q := tomledit.Quote(v)
	return q[1 : len(q)-1]
}

// literals replaces each quoted string of a line ("…" with escapes, TOML '…') that
// is a known credential, or holds a credential-shaped value (policy.RedactText),
// whatever its escapes, by its shown form. Keys (a string followed by ':' or '=')
// are kept.
func (r *redactor) literals(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '"' && q != '\'' {
			continue
		}
		end := i + 1
		for end < len(s) && s[end] != q {
			if q == '"' && s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			break
		}
		raw := s[i : end+1]
		next := strings.TrimLeft(s[end+1:], " \t")
		isKey := next != "" && (next[0] == ':' || next[0] == '=')
		if v, ok := decodeLiteral(raw); ok && !isKey {
			shown, found := r.exact[v]
			if !found {
				// free text, decoded: URL userinfo, Bearer tokens, password=…
				shown = policy.RedactText(v)
				found = shown != v
			}
			if found {
				b.WriteString(s[last:i])
				b.WriteString(encodeLike(raw, shown))
				last = end + 1
			}
		}
		i = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// decodeLiteral decodes a JSON or TOML basic string ("…") or a TOML literal
// string ('…').
func decodeLiteral(raw string) (string, bool) {
	if raw[0] == '\'' {
		return raw[1 : len(raw)-1], true
	}
	if !strings.Contains(raw, `\`) {
		return raw[1 : len(raw)-1], true
	}
	var v string
	if json.Unmarshal([]byte(raw), &v) == nil {
		return v, true
	}
	// TOML escapes JSON lacks: \e, \UXXXXXXXX
	var m map[string]string
	if toml.Unmarshal([]byte("v = "+raw), &m) == nil {
		return m["v"], true
	}
	return "", false
}

// encodeLike spells shown in the quoting of raw.
func encodeLike(raw, shown string) string {
	if raw[0] == '\'' && !strings.ContainsAny(shown, "'\n\r") {
		return "'" + shown + "'"
	}
	return `"` + tomlEscape(shown) + `"`
}

// keyKind is what a key says about its value, cached per key spelling.
type keyKind struct {
	norm string
	cred bool // a credential container or a credential name
}

// jsonWalker records the credentials of a standard JSON document, as walk does for
// a decoded one, without decoding it: a client file can be 50 MB (~/.claude.json),
// and only strings under credential keys and argument lists are decoded. Free text
// elsewhere (URL userinfo, Bearer tokens) is left to line time, where only the
// printed lines are searched: a JSON string never spans lines.
type jsonWalker struct {
	b    []byte
	i    int
	r    *redactor
	keys map[string]keyKind
}

func (w *jsonWalker) key(raw []byte) keyKind {
	if k, ok := w.keys[string(raw)]; ok {
		return k
	}
	name := decodeJSONString(raw)
	k := keyKind{norm: policy.NormName(name)}
	k.cred = credContainers[k.norm] || policy.SecretName(name)
	w.keys[string(raw)] = k
	return k
}

// value walks the value at w.i; cred says it is under a credential key, key is the
// normalised key it is the value of. It reports false for malformed input.
func (w *jsonWalker) value(cred bool, key string) bool {
	if w.skip() >= len(w.b) {
		return false
	}
	switch w.b[w.i] {
	case '{':
		w.i++
		if w.skip() < len(w.b) && w.b[w.i] == '}' {
			w.i++
			return true
		}
		for {
			w.skip()
			raw, ok := w.str()
			if !ok || w.skip() >= len(w.b) || w.b[w.i] != ':' {
				return false
			}
			w.i++
			k := w.key(raw)
			if !w.value(cred || k.cred, k.norm) {
				return false
			}
			if done, ok := w.next('}'); !ok || done {
				return ok
			}
		}
	case '[':
		w.i++
		if w.skip() < len(w.b) && w.b[w.i] == ']' {
			w.i++
			return true
		}
		collect := argKeys[key] && !cred
		var args []string
		for {
			if collect && w.skip() < len(w.b) && w.b[w.i] == '"' {
				raw, ok := w.str()
				if !ok {
					return false
				}
				args = append(args, decodeJSONString(raw))
			} else if !w.value(cred, key) {
				return false
			}
			if done, ok := w.next(']'); !ok || done {
				if collect && ok {
					w.r.addArgs(args)
				}
				return ok
			}
		}
	case '"':
		raw, ok := w.str()
		if !ok {
			return false
		}
		switch {
		case cred && key != "type":
			w.r.addCredential(decodeJSONString(raw))
		case argKeys[key]:
			w.r.addCommand(decodeJSONString(raw))
		}
		return true
	default:
		for w.i < len(w.b) && !strings.ContainsRune(",}] \t\r\n/", rune(w.b[w.i])) {
			w.i++
		}
		return true
	}
}

// skip moves past blanks and returns the new offset.
func (w *jsonWalker) skip() int {
	for w.i < len(w.b) && (w.b[w.i] == ' ' || w.b[w.i] == '\t' || w.b[w.i] == '\r' || w.b[w.i] == '\n') {
		w.i++
	}
	return w.i
}

// next consumes ',' (more to come) or end (done).
func (w *jsonWalker) next(end byte) (done, ok bool) {
	if w.skip() >= len(w.b) {
		return false, false
	}
	switch w.b[w.i] {
	case ',':
		w.i++
		return false, w.i < len(w.b)
	case end:
		w.i++
		return true, true
	}
	return false, false
}

// str returns the string literal at w.i, quotes included.
func (w *jsonWalker) str() ([]byte, bool) {
	if w.i >= len(w.b) || w.b[w.i] != '"' {
		return nil, false
	}
	start := w.i
	for w.i++; w.i < len(w.b); w.i++ {
		switch w.b[w.i] {
		case '\\':
			w.i++
		case '"':
			w.i++
			return w.b[start:w.i], true
		}
	}
	return nil, false
}

// decodeJSONString decodes a JSON string literal (quotes included).
func decodeJSONString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(raw[1 : len(raw)-1])
	}
	return s
}
