package render

import (
	"errors"
	"fmt"
	"io/fs"
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

// resolveScope returns the scope to write: the explicit one, or the provider's
// default. An explicit scope without a destination is refused, never replaced (V6).
func resolveScope(p *providers.Provider, s providers.Scope) (providers.Scope, error) {
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

// choosePath picks a packaged build's existing file (Claude Desktop's MSIX copy), or
// the file in the directory a pointer file names (LM Studio's home), else the first
// existing candidate, else the first one.
func choosePath(f fsys.FS, d *providers.Dest, env providers.PathEnv) (string, error) {
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
	s, err := resolveScope(p, scope)
	if err != nil {
		return "", "", err
	}
	path, err := choosePath(f, p.Dest(s), env)
	return path, s, err
}

// fileMode returns the mode for a client file (W4): user and local scope (private to
// the person) and private clients 0600; an existing project file keeps its mode; a new
// project file 0666 minus the umask (0600 when newPrivate).
func fileMode(scope providers.Scope, cur fsys.Snapshot, private, newPrivate bool) fs.FileMode {
	switch {
	case scope == providers.User || scope == providers.Local || private:
		return 0o600
	case cur.Exists:
		return cur.Mode.Perm()
	case newPrivate:
		return 0o600
	}
	return 0o666 &^ fsys.Umask()
}

// dirMode is the mode of directories created for a file of a scope (W4): a project's
// own directories get the project's mode (0777 minus the umask), the person's own
// (user scope, and a local file outside the project) 0700.
func dirMode(scope providers.Scope, project, path string) fs.FileMode {
	if scope == providers.User || scope == providers.Local && !within(path, project) {
		return 0o700
	}
	return 0o777 &^ fsys.Umask()
}

// parentCheck returns the W5 parent check of a destination: for a file in the project
// (project scope, and a local file there) every directory between the project root and
// the file must be real (the root may be a symlink); an explicit --out path is checked
// from the filesystem root; user scope, and a local file in the person's home (Claude
// Code's ~/.claude.json), allow symlinked parents.
func parentCheck(f fsys.FS, scope providers.Scope, project, path string) func() error {
	switch {
	case scope != providers.User && within(path, project):
		return func() error { return fsys.CheckRealDirs(f, project, path) }
	case scope == providers.Project:
		return func() error { return fsys.CheckRealDirs(f, filepath.Dir(path), path) }
	}
	return nil
}

func within(path, dir string) bool {
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

// checkNotUserFile refuses a project-scope path that is also the provider's user-scope
// file for this environment.
func checkNotUserFile(p *providers.Provider, path string, env providers.PathEnv) error {
	if p.User == nil {
		return nil
	}
	cands, err := p.User.Candidates(env)
	if err != nil {
		return nil // no user file here (no home directory): nothing to collide with
	}
	canon := canonicalOrClean(path)
	for _, c := range cands {
		if canonicalOrClean(c) == canon {
			return &UserFileError{Provider: p, Path: path, UserFile: c}
		}
	}
	return nil
}

// samePath reports whether two paths name one file, by their canonical paths
// (symlinked parents resolved).
func samePath(a, b string) bool {
	return canonicalOrClean(a) == canonicalOrClean(b)
}

func canonicalOrClean(p string) string {
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
				if samePath(dest, c) {
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

// destination returns the scope and the file a request writes: the explicit or the
// provider's default scope (V6), the first existing candidate file, and never the
// client's user-scope file written as a project file.
func (r *Request) destination(f fsys.FS) (providers.Scope, string, error) {
	p := r.Provider
	if p.Manual() {
		return "", "", &ManualError{Provider: p}
	}
	scope, err := resolveScope(p, r.Scope)
	if err != nil {
		return "", "", err
	}
	env := r.pathEnv()
	path, err := choosePath(f, p.Dest(scope), env)
	var other *providers.OnlyError
	if errors.As(err, &other) {
		return "", "", fmt.Errorf("%s runs only on %s: it has no %s-scope file on %s", p.Display, providers.OSName(other.Only), scope, providers.OSName(other.GOOS))
	}
	if err != nil {
		return "", "", err
	}
	if scope == providers.Project {
		if err := checkNotUserFile(p, path, env); err != nil {
			return "", "", err
		}
	}
	return scope, path, nil
}

// YieldError is a client file mcpwire would create while the client reads another
// file beside it instead (providers.Dest.Yields: Continue's config.json).
type YieldError struct {
	Provider    *providers.Provider
	Path, Other string
}

func (e *YieldError) Error() string {
	return fmt.Sprintf("%s does not exist and %s does: %s reads %s while %s is missing, so creating it would hide that file",
		e.Path, e.Other, e.Provider.Display, filepath.Base(e.Other), filepath.Base(e.Path))
}

// Hints says how to go on.
func (e *YieldError) Hints() []string {
	return []string{fmt.Sprintf("move your %s configuration into %s (or remove %s), then run again", e.Provider.Display, filepath.Base(e.Path), filepath.Base(e.Other))}
}

// yieldCheck refuses to create path (which does not exist) while a file the client
// reads instead exists beside it.
func yieldCheck(f fsys.FS, p *providers.Provider, d *providers.Dest, path string) error {
	if d == nil {
		return nil
	}
	for _, y := range d.Yields {
		other := filepath.Join(filepath.Dir(path), y)
		if _, err := f.Lstat(other); err == nil {
			return &YieldError{Provider: p, Path: path, Other: other}
		}
	}
	return nil
}
