// Package redact hides credentials in what mcpwire prints (R8): the lines of a dry
// run's diff of client files in any format (Redactor), messages such as a server's
// stderr (Values) and launch lines (Launch). What counts as a credential is the
// policy's word: its classifier (policy.SecretName, policy.CredentialMap,
// policy.SecretShaped), its table of reference spellings (policy.IsReference) and
// its findings in free text (policy.RedactText). This package finds them in files
// and lines and replaces them with policy.Redacted.
package redact

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
)

// Redactor hides credentials in lines of JSON, JSONC or TOML text (a dry run's
// diff). It learns them from the registry's servers (Server) and from every version
// of every file the diff shows (File), and knows them two ways: exact, a whole
// string value and what to show instead ("sk-live-1" → "REDACTED", "--token=x" →
// "--token=REDACTED"), matched against each quoted string of a line after decoding
// it, whatever its escapes; and anywhere, values hidden wherever they appear, in
// their raw, JSON-escaped and TOML-escaped spellings.
type Redactor struct {
	exact    map[string]string
	anywhere map[string]bool
	rep      *strings.Replacer
	// paths are the files of the diff, slash-separated without the leading slash,
	// whose "--- a/PATH" and "+++ b/PATH" lines are kept as they are
	paths map[string]bool
	// names caches what each member name says (see learner)
	names map[string]nameKind
	// servers are the normalised names of the members that hold servers
	servers map[string]bool
	// plain are values the registry declares plain (P11, H10): shown, never learnt as
	// credentials (Plain)
	plain map[string]bool
	// texts, commands and argLists were learnt from already (once)
	texts, commands, argLists map[string]bool
}

// New returns a Redactor that knows no credential yet. servers are the names of the
// members under which client files keep their servers (the provider table's
// ServersKey): the names of the members inside them are server names, which say
// nothing about the values under them. A server called "token" or "auth" is not a
// credential, and neither is its command.
func New(servers ...string) *Redactor {
	r := &Redactor{exact: map[string]string{}, anywhere: map[string]bool{}, paths: map[string]bool{},
		names: map[string]nameKind{}, servers: map[string]bool{}}
	for _, s := range servers {
		r.servers[policy.NormName(s)] = true
	}
	return r
}

// DiffPath names a file of the diff: its header lines ("--- a/PATH", "+++ b/PATH")
// are printed as they are, even when a hidden value is part of the path.
func (r *Redactor) DiffPath(path string) {
	r.paths[strings.TrimPrefix(filepath.ToSlash(path), "/")] = true
}

// Plain names values declared plain (P11, H10): a dry run's diff shows them where
// every other value of env or headers is REDACTED. The caller passes only values
// that are plain wherever the registry holds them (a value some server holds as a
// credential stays hidden) and that pass policy.PlainEnvProblem. Call it before
// anything is learnt.
func (r *Redactor) Plain(values ...string) {
	if r.plain == nil {
		r.plain = map[string]bool{}
	}
	for _, v := range values {
		r.plain[v] = true
	}
}

// Server learns the credentials of one registry server: its env and header values
// (those declared plain aside), its URL's userinfo and credential query parameters,
// the credential arguments of its command and arguments, and every string of its
// auth and oauth settings.
func (r *Redactor) Server(f policy.Fields) {
	for k, v := range f.Env {
		if !f.PlainEnv[k] {
			r.addCredential(v)
		}
	}
	for k, v := range f.Headers {
		if !f.PlainHeaders[k] {
			r.addCredential(v)
		}
	}
	r.addText(f.URL)
	if red := policy.RedactURL(f.URL); red != f.URL {
		r.setExact(f.URL, red)
	}
	if userinfo, ok := urlUserinfo(f.URL); ok {
		r.addAnywhere(userinfo)
	}
	r.addCommand(f.Command)
	r.addArgs(f.Args)
	for _, m := range []map[string]any{f.Auth, f.OAuth} {
		if len(m) > 0 { // nothing to learn from none (K7: 200,000 servers, most without)
			learn[any](r, policy.Decoded{}, m, true, true)
		}
	}
}

// urlUserinfo returns the userinfo of a URL (user:password before '@').
func urlUserinfo(u string) (string, bool) {
	i := strings.Index(u, "://")
	if i < 0 || !policy.HasUserinfo(u) {
		return "", false
	}
	host := strings.SplitN(u[i+3:], "/", 2)[0]
	if j := strings.LastIndex(host, "@"); j >= 0 {
		return host[:j], true
	}
	return "", false
}

// Line hides every known credential in one line of a diff. The diff's own lines
// (file and hunk headers, mkdir, "would also write") are kept as they are; in a
// line of a file, keys are never changed: a server called "pw" keeps its name.
func (r *Redactor) Line(s string) string {
	if s == "" || r.diffMeta(s) {
		return s
	}
	return s[:1] + r.content(s[1:])
}

// diffMeta reports whether a line of a diff is mcpwire's own (a file header, a hunk
// header, mkdir, mode, "would also write"), not a line of a file: it names paths and
// modes only, and is printed as it is (a hidden value that happens to be part of a
// path, such as a project directory in env, would garble it).
func (r *Redactor) diffMeta(line string) bool {
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

// setExact records that the string value v is shown as shown.
func (r *Redactor) setExact(v, shown string) {
	if v == "" || v == shown {
		return
	}
	if old, ok := r.exact[v]; ok && old == policy.Redacted {
		return
	}
	r.exact[v] = shown
}

// addAnywhere records a value to hide wherever it appears.
func (r *Redactor) addAnywhere(v string) {
	if len(v) >= policy.MinSecret && !policy.IsReference(v) && !r.anywhere[v] {
		r.anywhere[v] = true
		r.rep = nil
	}
}

// addCredential records a value that is a credential as a whole (an env or header
// value, an auth field): hidden as a whole string always, and anywhere when it looks
// like a secret rather than a setting such as "true" or "info".
func (r *Redactor) addCredential(v string) {
	if v == "" || policy.IsReference(v) || r.plain[v] {
		return
	}
	r.setExact(v, policy.Redacted)
	if policy.SecretShaped(v) {
		r.addAnywhere(v)
	}
	// "Bearer X", "token X": X alone too
	if _, rest, ok := strings.Cut(v, " "); ok && policy.SecretShaped(rest) {
		r.addAnywhere(rest)
	}
	r.addText(v)
}

// addText records the credential-shaped parts of any string: URL userinfo, credential
// query parameters, Bearer tokens.
func (r *Redactor) addText(s string) {
	if r.once(&r.texts, s) {
		return
	}
	if red := policy.RedactText(s); red != s {
		r.setExact(s, red)
		for _, v := range policy.TextSecrets(s) {
			r.addAnywhere(v)
		}
	}
}

// addArgs records the credential values of an argument list.
func (r *Redactor) addArgs(args []string) {
	if len(args) > 0 && r.once(&r.argLists, strings.Join(args, "\x00")) {
		return
	}
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
func (r *Redactor) addCommand(cmd string) {
	if r.once(&r.commands, cmd) {
		return
	}
	r.addText(cmd)
	for _, v := range policy.ArgSecrets(strings.Fields(cmd)) {
		r.addAnywhere(v)
	}
}

// maxLearnt bounds each set of what was learnt from already (once).
const maxLearnt = 1 << 16

// once reports whether s is in the set, and adds it: what was learnt from once
// teaches nothing the second time (K7: the 200,000 servers of an import's dry run
// mostly share their commands and arguments). A full set stops growing.
func (r *Redactor) once(set *map[string]bool, s string) bool {
	if (*set)[s] {
		return true
	}
	if *set == nil {
		*set = map[string]bool{}
	}
	if len(*set) < maxLearnt {
		(*set)[s] = true
	}
	return false
}

// replacer hides every spelling of every value hidden anywhere (see spellings),
// longest first: at one position the first matching argument of a Replacer wins.
func (r *Redactor) replacer() *strings.Replacer {
	if r.rep != nil {
		return r.rep
	}
	var olds []string
	seen := map[string]bool{}
	for v := range r.anywhere {
		for _, sp := range spellings(v) {
			if !seen[sp] {
				seen[sp] = true
				olds = append(olds, sp)
			}
		}
	}
	sort.Slice(olds, func(i, j int) bool {
		if len(olds[i]) != len(olds[j]) {
			return len(olds[i]) > len(olds[j])
		}
		return olds[i] < olds[j]
	})
	pairs := make([]string, 0, 2*len(olds))
	for _, o := range olds {
		pairs = append(pairs, o, policy.Redacted)
	}
	r.rep = strings.NewReplacer(pairs...)
	return r.rep
}
