package write

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/hint"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
)

// RuntimeDir is the directory of runtime homes inside a client's home (X1).
const RuntimeDir = "roles-runtime"

// ValidRuntimeName reports whether name may name a Codex runtime home (X1): the
// profile-name alphabet [a-z0-9-]+, so it can never escape roles-runtime.
func ValidRuntimeName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// RuntimeResult describes a runtime home.
type RuntimeResult struct {
	// Home is <client home>/roles-runtime/<name> (CODEX_HOME or ~/.codex for Codex).
	Home string
	// Config is the runtime home's config file.
	Config  string
	Written []string
	// InputVars are the variables standing for inputs the client cannot ask for (T3).
	InputVars []string
	// Secrets says how the servers written get their secrets (S2).
	Secrets Secrets
	// Launch starts the client in the runtime home.
	Launch providers.Launch
	// Line is Launch as the person types it: the variable naming the home only.
	Line providers.Launch
	// LoginLinked is the link to the person's login this run made in the runtime home
	// ("" when it was there already, or the runtime home has a login of its own, X3).
	LoginLinked string
}

// LaunchLine is the command that starts the client with the runtime home.
func (r *RuntimeResult) LaunchLine() string { return r.Line.String() }

// RuntimeHome builds the runtime home of one profile (X1, Codex's): a 0700 directory
// whose 0600 config file is the client's own without its whole servers subtree,
// followed by the profile's servers and filters. The name is checked before
// any filesystem access; the policy (P6) and every server are checked before anything
// is created; a malformed global config fails closed and leaves the previous runtime
// config as it was.
func RuntimeHome(f fsys.FS, r Request, name string) (*RuntimeResult, error) {
	if !ValidRuntimeName(name) {
		return nil, hint.Wrap(fmt.Errorf("invalid runtime home name %q", name), "a runtime home is named with lowercase letters, digits and '-'")
	}
	p := r.Provider
	spec := p.RuntimeHome
	if spec == nil {
		return nil, fmt.Errorf("%s has no runtime homes", p.Name)
	}
	t, servers, err := r.standalone(false)
	if err != nil {
		return nil, err
	}
	entries, _, written, err := r.plan(t, servers)
	if err != nil {
		return nil, err
	}
	clientHome, err := p.User.Directory(r.pathEnv())
	if err != nil {
		return nil, err
	}
	global := filepath.Join(clientHome, p.User.Files[0])
	roles := filepath.Join(clientHome, RuntimeDir)
	home := filepath.Join(roles, name)
	cfg := filepath.Join(home, p.User.Files[0])
	res := &RuntimeResult{Home: home, Config: cfg, Written: written, InputVars: inputVarsOf(entries), Secrets: secretsOf(entries)}
	res.Launch = providers.Launch{Binary: p.Binary}
	for _, k := range spec.Env {
		res.Launch.Env = append(res.Launch.Env, k, home)
	}
	res.Line = providers.Launch{Env: []string{spec.LineEnv, home}, Binary: p.Binary}
	content, err := runtimeConfig(f, p, global, entries)
	if err != nil {
		return nil, err
	}
	check := func() error { return checkRealPath(f, spec.Called, roles, home, cfg) }
	if err := check(); err != nil {
		return nil, err
	}
	if _, err := fsys.Apply(f, []fsys.Target{{
		Path: cfg, DirPerm: 0o700, Check: check,
		Edit: func(fsys.Snapshot) ([]byte, fs.FileMode, bool, error) { return content, 0o600, false, nil },
	}}); err != nil {
		return nil, err
	}
	if fi, err := f.Lstat(home); err == nil && fi.Mode().Perm() != 0o700 {
		if err := f.Chmod(home, 0o700); err != nil {
			return nil, err
		}
	}
	made, err := linkShared(f, clientHome, home, spec.Linked)
	if err != nil {
		return nil, err
	}
	if spec.Login != "" && slices.Contains(made, spec.Login) {
		res.LoginLinked = filepath.Join(home, spec.Login)
	}
	return res, nil
}

// runtimeConfig is the client's own config file without its servers, then the
// profile's entries. A malformed config fails closed.
func runtimeConfig(f fsys.FS, p *providers.Provider, global string, entries []namedEntry) ([]byte, error) {
	base, err := f.ReadFile(global)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	doc, err := format.Parse(p.Format, global, base, true)
	var pe *format.ParseError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: invalid TOML, runtime home not updated: %w", global, pe.Err)
	}
	if err != nil {
		return nil, err
	}
	if _, err := doc.Delete([]string{p.ServersKey}); err != nil {
		return nil, err
	}
	es, err := doc.Entries(format.Container{Path: []string{p.ServersKey}})
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if _, err := es.Set(e.name, e.entry); err != nil {
			return nil, err
		}
	}
	return doc.Bytes()
}

// linkShared links the entries of the client's home a runtime home shares, when they
// exist and the runtime home has none of its own (a role with a login of its own keeps
// its auth.json, X3). It returns the links it made.
func linkShared(f fsys.FS, clientHome, home string, linked []string) ([]string, error) {
	var made []string
	for _, n := range linked {
		src, dst := filepath.Join(clientHome, n), filepath.Join(home, n)
		if _, err := f.Lstat(src); err != nil {
			continue
		}
		if _, err := f.Lstat(dst); err == nil {
			continue // already linked, or the runtime home has its own
		}
		if err := f.Symlink(src, dst); err != nil {
			return made, err
		}
		made = append(made, n)
	}
	return made, nil
}

// checkRealPath refuses symlinks at roles-runtime, the profile directory and its
// config.toml (X1); the Codex home above them may be a symlink.
func checkRealPath(f fsys.FS, called string, paths ...string) error {
	for _, p := range paths {
		fi, err := f.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: is a symlink; %ss must be real directories and files", p, called)
		}
	}
	return nil
}
