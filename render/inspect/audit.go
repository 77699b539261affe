package inspect

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// Finding kinds of audit (B6, K5, H4).
const (
	// FindingCredential is a literal credential in a committed project file, in a
	// user file the group or others can read, or in a configuration layer that is
	// committed (a git work tree) or readable by others.
	FindingCredential = "credential"
	// FindingShadow is a server no configuration layer defines.
	FindingShadow = "shadow"
	// FindingDenied is an entry of a client file the server policy denies (G2),
	// whoever wrote it.
	FindingDenied = "denied"
	// FindingUnchecked is a file, or an entry of one, that audit could not read:
	// nothing in it was checked, so it is never taken as clean (K5, H4).
	FindingUnchecked = "unchecked"
	// FindingSecret is a reference to a secret store that does not resolve, or one
	// left in a client's file where the client passes it as written (S4).
	FindingSecret = "secret"
)

// LayerProvider and LayerScope stand in a finding of a configuration layer's own
// file, where a client file has its provider and scope (H4).
const (
	LayerProvider = "mcpwire"
	LayerScope    = providers.Scope("layer")
)

// Finding is one thing audit reports: where, which server and field, and why; never a
// value.
type Finding struct {
	Kind     string          `json:"kind"`
	Provider string          `json:"provider"`
	Scope    providers.Scope `json:"scope"`
	Path     string          `json:"path"`
	Server   string          `json:"server"`
	Field    string          `json:"field,omitempty"`
	Why      string          `json:"why"`
}

// AuditRequest is what audit looks at.
type AuditRequest struct {
	Registry  *registry.Registry
	Providers []*providers.Provider
	Env       providers.PathEnv
	// GOOS decides whether file modes mean anything (not on Windows).
	GOOS string
	// Ignored, when set, asks git about a file of the work tree at root: a layer file
	// git ignores is not committed. Without it, every layer file inside a git work
	// tree counts as committed.
	Ignored func(root string) render.IgnoreCheck
	// CheckSecret checks that a reference to a secret store resolves (S4); nil checks
	// none.
	CheckSecret render.SecretCheck
}

// Audit reads every file of the request's providers that exists here, and the
// registry's own layer files, and reports, by name only (B6, K5, H4):
//
//   - literal credentials in project files, which are committed (P7's rules, whoever
//     wrote the entry), and in user files that the group or others can read (P1's
//     references rule, and credential arguments); in every string of every entry,
//     whether or not mcpwire can read it as a server (policy.CheckEntry);
//   - literal credentials in a configuration layer's servers file inside a git work
//     tree (committed, unless git ignores it) or readable by others;
//   - servers no layer defines;
//   - entries the server policy denies (G2), whoever wrote them;
//   - every file, or entry, it could not read ("not checked: permission denied").
//
// An env value that could be declared plain (P11: neither its name nor its value
// looks like a credential) is not a finding. The errors returned are entries mcpwire
// cannot read as servers: each was checked for credentials all the same.
func Audit(f fsys.FS, r AuditRequest) ([]Finding, []error) {
	files, openErrs := render.NewClientReader(f).Distinct(r.Providers, r.Env, "")
	checks := render.NewSecretChecks(r.CheckSecret)
	var out []Finding
	var errs []error
	seen := map[string]bool{} // a file several clients read (V10) is audited once
	for _, err := range openErrs {
		var fe *render.FileError
		if !errors.As(err, &fe) || seen[fe.Path] && fe.Path != "" {
			continue
		}
		seen[fe.Path] = true
		out = append(out, Finding{Kind: FindingUnchecked, Provider: fe.Provider.Name, Scope: fe.Scope, Path: fe.Path,
			Why: "not checked: " + uncheckedWhy(fe.Err, fe.Path)})
	}
	for _, c := range files {
		if seen[c.Key()] {
			continue
		}
		seen[c.Key()] = true
		committed := c.Scope == providers.Project && !c.Provider.GitIgnored
		exposed := !committed && r.GOOS != "windows" && c.Mode&0o077 != 0
		why := "a project file, usually committed"
		if exposed {
			why = exposedWhy("a user file", c.Mode)
		}
		for _, e := range c.Entries {
			if _, defined := r.Registry.Server(e.Name); !defined {
				out = append(out, finding(c, FindingShadow, e.Name, "", "no configuration layer defines it"))
			}
			if e.Err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w (its strings were checked for credentials)", c.Path, e.Name, e.Err))
			} else {
				out = append(out, secretFindings(c, e, checks)...)
				if d := r.Registry.Denied(e.Name, e.Read.Server); d != nil {
					out = append(out, finding(c, FindingDenied, e.Name, "", "the server policy denies it: "+d.Rule+" in "+d.File))
				}
			}
			if !committed && !exposed {
				continue
			}
			var entry any
			if err := json.Unmarshal(e.JSON(), &entry); err != nil {
				out = append(out, finding(c, FindingUnchecked, e.Name, "", "not checked: the entry cannot be read: "+err.Error()))
				continue
			}
			var fields *policy.Fields
			if e.Err == nil {
				fl := auditFields(e.Name, e.Read.Server)
				fields = &fl
			}
			for _, v := range entryCredentials(e.Name, fields, entry, committed, c.Provider.Forms()) {
				out = append(out, finding(c, FindingCredential, e.Name, v.Field, why))
			}
		}
	}
	out = append(out, r.layerFindings(f)...)
	return append(out, r.layerSecretFindings(checks)...), errs
}

// secretFindings are an entry's references that do not resolve, and the 1Password
// references in it that its client passes as written (S4).
func secretFindings(c *render.ClientFile, e render.ClientEntry, checks *render.SecretChecks) []Finding {
	var out []Finding
	for _, u := range e.Read.Unresolved {
		if u.Style == providers.StyleStoreRef {
			out = append(out, finding(c, FindingSecret, e.Name, u.Field, u.Style+", which "+c.Provider.Display+
				" passes to the server as written: the server never gets the secret (import the server, then inject it: mcpwire exec resolves it)"))
		}
	}
	for _, b := range checks.Unresolved(e.Read.Server) {
		field, why, _ := strings.Cut(b, ": ")
		out = append(out, finding(c, FindingSecret, e.Name, field, "does not resolve: "+why))
	}
	return out
}

// layerSecretFindings are the references of the registry's servers that do not
// resolve (S4), each in the layer file that defines it.
func (r AuditRequest) layerSecretFindings(checks *render.SecretChecks) []Finding {
	var out []Finding
	for i, l := range r.Registry.Layers() {
		for _, n := range l.Servers {
			s, ok := r.Registry.LayerServer(i, n)
			if !ok {
				continue
			}
			for _, b := range checks.Unresolved(s) {
				field, why, _ := strings.Cut(b, ": ")
				out = append(out, Finding{Kind: FindingSecret, Provider: LayerProvider, Scope: LayerScope,
					Path: l.ServersFile, Server: n, Field: field, Why: "does not resolve: " + why})
			}
		}
	}
	return out
}

// entryCredentials are the literal credentials of one entry: P7's (committed) or
// P1's references rule and the credential arguments (exposed) on the fields of the
// server it reads as, when it reads as one; then every other string of the entry as
// it is written (policy.CheckEntry).
func entryCredentials(name string, fields *policy.Fields, entry any, committed bool, forms []string) []policy.Violation {
	var vs []policy.Violation
	var examined []string
	if fields != nil {
		if committed {
			vs = policy.CheckProject(*fields)
		} else {
			vs = policy.Check(policy.References, *fields)
			for _, flag := range policy.CredentialArgs(strings.Fields(fields.Command)) {
				vs = append(vs, policy.Violation{Server: name, Field: "command " + flag})
			}
			for _, flag := range policy.CredentialArgs(fields.Args) {
				vs = append(vs, policy.Violation{Server: name, Field: "args " + flag})
			}
		}
		// a credential where a variable's name belongs is one in any file (T4)
		vs = append(vs, policy.CheckNames(*fields)...)
		if entry != nil {
			examined = fieldStrings(*fields)
		}
	}
	if entry != nil {
		vs = append(vs, policy.CheckEntry(name, entry, examined, forms)...)
	}
	if len(vs) < 2 {
		return vs
	}
	seen := map[string]bool{}
	out := vs[:0]
	for _, v := range vs {
		if !seen[v.Field] {
			seen[v.Field] = true
			out = append(out, v)
		}
	}
	return out
}

// fieldStrings are the strings of a server's checked fields: whatever is inside them
// was judged by the checks on the fields.
func fieldStrings(f policy.Fields) []string {
	out := append([]string{f.Command, f.URL, f.BearerEnv}, f.Args...)
	for _, m := range []map[string]string{f.Env, f.Headers, f.HeaderEnv, f.EnvFrom} {
		for _, v := range m {
			out = append(out, v)
		}
	}
	for _, m := range []map[string]any{f.Auth, f.OAuth} {
		policy.Walk[any](policy.Decoded{}, m, func(_ []string, _ bool, v any) bool {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
			return true
		})
	}
	nonEmpty := out[:0]
	for _, s := range out {
		if s != "" {
			nonEmpty = append(nonEmpty, s)
		}
	}
	return nonEmpty
}

// layerFindings are the literal credentials of the registry's own layer files (H4):
// a servers file inside a git work tree is committed (unless git ignores it), and one
// the group or others can read is exposed, as a client's file would be.
func (r AuditRequest) layerFindings(f fsys.FS) []Finding {
	var out []Finding
	for i, l := range r.Registry.Layers() {
		if len(l.Servers) == 0 {
			continue
		}
		root := gitWorkTree(f, l.Dir)
		committed := root != ""
		if committed && r.Ignored != nil {
			if st, err := r.Ignored(root)(l.ServersFile); err == nil && st == render.GitIgnores {
				committed = false
			}
		}
		why := "a configuration layer in the git work tree " + root + ", usually committed"
		if !committed {
			fi, err := f.Stat(l.ServersFile)
			if err != nil || r.GOOS == "windows" || fi.Mode().Perm()&0o077 == 0 {
				continue
			}
			why = exposedWhy("a configuration layer", fi.Mode().Perm())
		}
		for _, n := range l.Servers {
			s, ok := r.Registry.LayerServer(i, n)
			if !ok {
				continue
			}
			var entry any
			if raw, err := json.Marshal(s); err == nil {
				json.Unmarshal(raw, &entry)
			}
			fields := auditFields(n, s)
			for _, v := range entryCredentials(n, &fields, entry, committed, policy.RegistryForms()) {
				out = append(out, Finding{Kind: FindingCredential, Provider: LayerProvider, Scope: LayerScope,
					Path: l.ServersFile, Server: n, Field: v.Field, Why: why})
			}
		}
	}
	return out
}

// gitWorkTree returns the root of the git work tree holding dir: the nearest
// directory, dir included, with a .git entry; "" when there is none. git is not run.
func gitWorkTree(f fsys.FS, dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := f.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// uncheckedWhy says why a file could not be read, without its path (the finding
// names it): "permission denied", "is a directory", or the parser's message.
func uncheckedWhy(err error, path string) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	msg := err.Error()
	if path != "" {
		msg = strings.TrimPrefix(msg, path+": ")
	}
	return msg
}

// exposedWhy says who besides the owner can get at a file: "a user file the group
// can read (mode 0640)", "… others can read …", "… the group and others can read
// …"; "access" instead of "read" when one of them has other bits than read.
func exposedWhy(what string, mode fs.FileMode) string {
	perm := uint32(mode & fs.ModePerm)
	var who []string
	read := true
	for _, c := range []struct {
		name  string
		shift uint
	}{{"the group", 3}, {"others", 0}} {
		if bits := perm >> c.shift & 0o7; bits != 0 {
			who = append(who, c.name)
			read = read && bits&0o4 != 0
		}
	}
	verb := "read"
	if !read {
		verb = "access"
	}
	return fmt.Sprintf("%s %s can %s (mode %04o)", what, strings.Join(who, " and "), verb, perm)
}

// finding is a finding of file c.
func finding(c *render.ClientFile, kind, server, field, why string) Finding {
	return Finding{Kind: kind, Provider: c.Provider.Name, Scope: c.Scope, Path: c.Path, Server: server, Field: field, Why: why}
}

// auditFields are the checked fields of a server: its env values and headers that
// could be declared plain (P11, H10: neither name nor value looks like a credential)
// are taken as such, declared or not.
func auditFields(name string, s *registry.Server) policy.Fields {
	plain := func(m map[string]string) map[string]bool {
		if len(m) == 0 {
			return nil
		}
		out := map[string]bool{}
		for k, v := range m {
			if policy.PlainEnvProblem(k, v) == "" {
				out[k] = true
			}
		}
		return out
	}
	return policy.Fields{Server: name, URL: s.URL, Command: s.Command, Args: s.Args, Env: s.Env, Headers: s.Headers,
		HeaderEnv: s.HeaderEnv, EnvFrom: s.EnvFrom, BearerEnv: s.BearerEnv, Auth: s.Auth, OAuth: s.OAuth,
		PlainEnv: plain(s.Env), PlainHeaders: plain(s.Headers)}
}

// LiteralCredentials are the literal credentials a registry server holds, as audit
// finds them in a file others can read: env and header values (but for those that
// could be declared plain, P11), URL userinfo and credential query parameters, auth
// and oauth secrets, credential and token-shaped arguments (K6). import says how many
// it copied into the registry (H4).
func LiteralCredentials(s *registry.Server) []policy.Violation {
	f := auditFields(s.Name, s)
	return entryCredentials(s.Name, &f, nil, false, nil)
}
