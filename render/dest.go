package render

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
)

// ScopeError is an explicit scope the provider has no destination for (V6).
type ScopeError struct {
	Provider *providers.Provider
	Scope    providers.Scope
}

func (e *ScopeError) Error() string {
	var have []string
	for _, s := range e.Provider.Scopes() {
		have = append(have, string(s))
	}
	if len(have) == 0 {
		return fmt.Sprintf("%s has no config file mcpwire can write", e.Provider.Name)
	}
	return fmt.Sprintf("%s has no %s-scope config file (it has: %s)", e.Provider.Name, e.Scope, strings.Join(have, ", "))
}

// Hints says why the client has no file of that scope, when the table says (the
// provider's Absent).
func (e *ScopeError) Hints() []string {
	if why := e.Provider.Absent[e.Scope]; why != "" {
		return []string{why}
	}
	return nil
}

// ResolveScope returns the scope to write: the explicit one, or the provider's
// default. An explicit scope without a destination is refused, never replaced (V6).
func ResolveScope(p *providers.Provider, s providers.Scope) (providers.Scope, error) {
	if s == "" {
		s = p.DefaultScope
	}
	if !slices.Contains(providers.AllScopes, s) {
		return "", fmt.Errorf("unknown scope %q (want project, local or user)", s)
	}
	if p.Dest(s) == nil {
		return "", &ScopeError{Provider: p, Scope: s}
	}
	return s, nil
}

// ChoosePath picks a packaged build's existing file (Claude Desktop's MSIX copy), or
// the file in the directory a pointer file names (LM Studio's home), else the first
// existing candidate, else the first one.
func ChoosePath(f fsys.FS, d *providers.Dest, env providers.PathEnv) (string, error) {
	if dir, err := pointedDir(f, d, env); dir != "" || err != nil {
		return filepath.Join(dir, d.Files[0]), err
	}
	globs, err := d.Globs(env)
	if err != nil {
		return "", err
	}
	for _, g := range globs {
		if p := existingMatch(f, g); p != "" {
			return p, nil
		}
	}
	cands, err := d.Candidates(env)
	if err != nil {
		return "", err
	}
	for _, c := range cands {
		if _, err := f.Lstat(c); err == nil {
			return c, nil
		}
	}
	return cands[0], nil
}

// pointedDir is the directory a destination's pointer file names, else its first
// fallback directory that exists; "" when it has no pointer file or neither is there.
func pointedDir(f fsys.FS, d *providers.Dest, env providers.PathEnv) (string, error) {
	pointer, fallback, ok := d.Pointed(env)
	if !ok {
		return "", nil
	}
	data, err := f.ReadFile(pointer)
	switch {
	case err == nil:
		dir := strings.TrimSpace(string(data))
		if !filepath.IsAbs(dir) {
			return "", fmt.Errorf("%s: names %q, not an absolute directory", pointer, dir)
		}
		return dir, nil
	case !fsys.IsNotExist(err):
		return "", err
	}
	for _, dir := range fallback {
		if fi, err := f.Stat(dir); err == nil && fi.IsDir() {
			return dir, nil
		}
	}
	return "", nil
}

// existingMatch returns g's first existing file, directories taken in name order,
// or "" when there is none.
func existingMatch(f fsys.FS, g providers.Glob) string {
	entries, err := f.ReadDir(g.Dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if !e.IsDir() || !g.Match(e.Name()) {
			continue
		}
		if _, err := f.Lstat(g.Path(e.Name())); err == nil {
			return g.Path(e.Name())
		}
	}
	return ""
}

// Destination returns the server file a provider uses for a scope.
func Destination(f fsys.FS, p *providers.Provider, scope providers.Scope, env providers.PathEnv) (string, providers.Scope, error) {
	s, err := ResolveScope(p, scope)
	if err != nil {
		return "", "", err
	}
	path, err := ChoosePath(f, p.Dest(s), env)
	return path, s, err
}

func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ManualError is a client without a config file mcpwire can write (ChatGPT Desktop).
type ManualError struct{ Provider *providers.Provider }

func (e *ManualError) Error() string {
	return fmt.Sprintf("%s has no config file mcpwire can write", e.Provider.Display)
}

// Hints points at install, which prints the steps to add the servers by hand.
func (e *ManualError) Hints() []string {
	return []string{"mcpwire install " + e.Provider.Name + " prints the steps to add the servers in " + e.Provider.Display + " yourself"}
}

// UserFileError is a project-scope destination that is the client's user-scope file
// (the project directory is the home directory: ~/.cursor/mcp.json is Cursor's own).
type UserFileError struct {
	Provider       *providers.Provider
	Path, UserFile string
}

func (e *UserFileError) Error() string {
	return fmt.Sprintf("the project-scope file %s is %s's user-scope file %s; mcpwire does not write it as a project file", e.Path, e.Provider.Display, e.UserFile)
}

// Hints says how to write the file on purpose, or a project's file instead.
func (e *UserFileError) Hints() []string {
	return []string{"to write your user-scope file, add --scope user; for a project, run in its directory or give --project DIR"}
}

// CheckNotUserFile refuses a project-scope path that is also the provider's user-scope
// file for this environment.
func CheckNotUserFile(p *providers.Provider, path string, env providers.PathEnv) error {
	if p.User == nil {
		return nil
	}
	cands, err := p.User.Candidates(env)
	if err != nil {
		return nil // no user file here (no home directory): nothing to collide with
	}
	canon := CanonicalOrClean(path)
	for _, c := range cands {
		if CanonicalOrClean(c) == canon {
			return &UserFileError{Provider: p, Path: path, UserFile: c}
		}
	}
	return nil
}

// SamePath reports whether two paths name one file, by their canonical paths
// (symlinked parents resolved).
func SamePath(a, b string) bool {
	return CanonicalOrClean(a) == CanonicalOrClean(b)
}

func CanonicalOrClean(p string) string {
	if c, err := fsys.Canonical(p); err == nil {
		return c
	}
	return filepath.Clean(p)
}

// ScopeOf tells which scope of p a client file dest is, for this environment: user
// when it is p's user-scope file; else project or local (a file in the project), with
// the project directory dest minus p's path for that scope (".cursor/mcp.json"). ok is
// false when it is none of them. A local scope kept inside the user file (Claude
// Code's projects["<abs>"]) is told by its ownership record, not by its path.
func ScopeOf(p *providers.Provider, dest string, env providers.PathEnv) (scope providers.Scope, project string, ok bool) {
	if p.User != nil {
		if cands, err := p.User.Candidates(env); err == nil {
			for _, c := range cands {
				if SamePath(dest, c) {
					return providers.User, "", true
				}
			}
		}
		if globs, err := p.User.Globs(env); err == nil {
			for _, g := range globs {
				if g.Matches(dest) {
					return providers.User, "", true
				}
			}
		}
	}
	dest = filepath.Clean(dest)
	for _, sc := range []providers.Scope{providers.Project, providers.Local} {
		d := p.Dest(sc)
		if d == nil || d.Base != providers.ProjectDir || d.Env != "" {
			continue
		}
		for _, f := range d.Files {
			rel := filepath.Join(append(slices.Clone(d.Dir), f)...)
			dir, found := strings.CutSuffix(dest, string(filepath.Separator)+rel)
			if !found {
				continue
			}
			if dir == "" || dir == filepath.VolumeName(dir) {
				dir += string(filepath.Separator)
			}
			return sc, dir, true
		}
	}
	return "", "", false
}
