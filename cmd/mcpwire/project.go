package main

import (
	"fmt"
	"path/filepath"

	"github.com/mcpwire/mcpwire/internal/projectdir"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/urfave/cli/v2"
)

// project resolves --project (default: the discovered project, U4). An explicit one
// must be an existing directory: a mistyped path must not become a new directory tree.
func project(env *Env, c *cli.Context) (string, error) {
	dir := projectDir(env, c)
	if c.String("project") == "" {
		return dir, nil
	}
	return dir, checkProjectDir(env, dir)
}

// checkProjectDir refuses a project directory that does not exist or is not a directory.
func checkProjectDir(env *Env, dir string) error { return projectdir.Check(env.FS, dir) }

// projectDir reads --project, made absolute; without it, the root of the git work
// tree holding the working directory, else the working directory (U4).
func projectDir(env *Env, c *cli.Context) string {
	p := c.String("project")
	if p == "" {
		return env.workTree()
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(env.Cwd, p)
	}
	return filepath.Clean(p)
}

// workTree returns the root of the git work tree holding the working directory
// (projectdir.WorkTree), looked for once per process.
func (e *Env) workTree() string {
	if e.tree == "" {
		e.tree = projectdir.WorkTree(e.FS, e.Cwd)
	}
	return e.tree
}

// checkProject guards a command that writes a project's file (U4: project scope, and
// local scope, a project's private servers): unless the directory was given explicitly
// (--project, install's DIR), the filesystem root and the home directory are refused
// as a project; a project found above the working directory is said on stdout. User
// scope needs no project.
func (e *Env) checkProject(dir string, explicit bool, scope providers.Scope) error {
	if scope != providers.Project && scope != providers.Local || explicit {
		return nil
	}
	what := ""
	switch {
	case filepath.Dir(dir) == dir:
		what = "the filesystem root"
	case e.Home != "" && sameDir(e, dir, e.Home):
		what = "your home directory"
	}
	if what != "" {
		how := "the working directory"
		if dir != filepath.Clean(e.Cwd) {
			how = "the git work tree holding the working directory"
		}
		return withHint(fmt.Errorf("%s %s is %s, not a project: a project-scope file there would apply to everything below it", how, dir, what),
			"run the command inside a project directory, or name one with --project DIR (--project "+dir+" writes there on purpose)")
	}
	if dir != filepath.Clean(e.Cwd) && !e.saidProject {
		e.saidProject = true
		printf(e.Stdout, "project: %s (the git work tree holding the working directory; --project DIR chooses another)\n", dir)
	}
	return nil
}

// sameDir reports whether two directories are the same, by path or by real path.
func sameDir(e *Env, a, b string) bool { return projectdir.Same(e.FS, a, b) }

// projectScopes returns the scope that needs a project among those the providers write
// for the --scope given (their default scope when none is, V6): project, else local,
// else the scope given.
func projectScopes(scope providers.Scope, ps ...*providers.Provider) providers.Scope {
	out := scope
	for _, p := range ps {
		s := scope
		if s == "" {
			s = p.DefaultScope
		}
		if s == providers.Project {
			return providers.Project
		}
		if s == providers.Local {
			out = providers.Local
		}
	}
	return out
}
