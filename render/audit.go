package render

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// Finding kinds of audit (B6).
const (
	// FindingCredential is a literal credential in a committed project file, or in a
	// user file the group or others can read.
	FindingCredential = "credential"
	// FindingShadow is a server no configuration layer defines.
	FindingShadow = "shadow"
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
}

// Audit reads every file of the request's providers that exists here and reports, by
// name only (B6): literal credentials in project files, which are committed (P7's
// rules, whoever wrote the entry); literal credentials in user files that the group or
// others can read (P1's references rule); servers no layer defines. An env value that
// could be declared plain (P11: neither its name nor its value looks like a
// credential) is not a finding. Files that cannot be read are returned as errors.
func Audit(f fsys.FS, r AuditRequest) ([]Finding, []error) {
	files, errs := ClientFiles(f, r.Providers, r.Env, "")
	var out []Finding
	seen := map[string]bool{} // a file several clients read (V10) is audited once
	for _, c := range files {
		if seen[c.Key()] {
			continue
		}
		seen[c.Key()] = true
		committed := c.Scope == providers.Project && !c.Provider.GitIgnored
		exposed := !committed && r.GOOS != "windows" && c.Mode&0o077 != 0
		for _, e := range c.Entries {
			if _, defined := r.Registry.Server(e.Name); !defined {
				out = append(out, c.finding(FindingShadow, e.Name, "", "no configuration layer defines it"))
			}
			if e.Err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", c.Path, e.Name, e.Err))
				continue
			}
			fields := auditFields(e.Name, e.Read.Server)
			switch {
			case committed:
				for _, v := range policy.CheckProject(fields) {
					out = append(out, c.finding(FindingCredential, e.Name, v.Field, "a project file, usually committed"))
				}
			case exposed:
				for _, v := range policy.Check(policy.References, fields) {
					out = append(out, c.finding(FindingCredential, e.Name, v.Field, exposedWhy(c.Mode)))
				}
			}
		}
	}
	return out, errs
}

// exposedWhy says who besides the owner can get at a user file: "a user file the
// group can read (mode 0640)", "… others can read …", "… the group and others can
// read …"; "access" instead of "read" when one of them has other bits than read.
func exposedWhy(mode fs.FileMode) string {
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
	return fmt.Sprintf("a user file %s can %s (mode %04o)", strings.Join(who, " and "), verb, perm)
}

// finding is a finding of the file.
func (c *ClientFile) finding(kind, server, field, why string) Finding {
	return Finding{Kind: kind, Provider: c.Provider.Name, Scope: c.Scope, Path: c.Path, Server: server, Field: field, Why: why}
}

// auditFields are the checked fields of an entry read back: its env values that
// could be declared plain (P11) are taken as such.
func auditFields(name string, s *registry.Server) policy.Fields {
	plain := map[string]bool{}
	for k, v := range s.Env {
		if policy.PlainEnvProblem(k, v) == "" {
			plain[k] = true
		}
	}
	return policy.Fields{Server: name, URL: s.URL, Command: s.Command, Args: s.Args, Env: s.Env, Headers: s.Headers,
		HeaderEnv: s.HeaderEnv, EnvFrom: s.EnvFrom, BearerEnv: s.BearerEnv, Auth: s.Auth, OAuth: s.OAuth, PlainEnv: plain}
}
