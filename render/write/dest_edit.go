package write

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

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
	if scope == providers.User || scope == providers.Local && !render.Within(path, project) {
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
	case scope != providers.User && render.Within(path, project):
		return func() error { return fsys.CheckRealDirs(f, project, path) }
	case scope == providers.Project:
		return func() error { return fsys.CheckRealDirs(f, filepath.Dir(path), path) }
	}
	return nil
}

// destination returns the scope and the file a request writes: the explicit or the
// provider's default scope (V6), the first existing candidate file, and never the
// client's user-scope file written as a project file.
func (r *Request) destination(f fsys.FS) (providers.Scope, string, error) {
	p := r.Provider
	if p.Manual() {
		return "", "", &render.ManualError{Provider: p}
	}
	scope, err := render.ResolveScope(p, r.Scope)
	if err != nil {
		return "", "", err
	}
	env := r.pathEnv()
	path, err := render.ChoosePath(f, p.Dest(scope), env)
	var other *providers.OnlyError
	if errors.As(err, &other) {
		return "", "", fmt.Errorf("%s runs only on %s: it has no %s-scope file on %s", p.Display, providers.OSName(other.Only), scope, providers.OSName(other.GOOS))
	}
	if err != nil {
		return "", "", err
	}
	if scope == providers.Project {
		if err := render.CheckNotUserFile(p, path, env); err != nil {
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
