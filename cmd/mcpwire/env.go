package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

// Env is what a command may touch: the environment, the streams and the filesystem.
type Env struct {
	Getenv func(string) string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	FS     fsys.FS
	// Home is the user's home directory ("" when unknown).
	Home string
	// Cwd is the working directory.
	Cwd string
	// Environ lists the environment as KEY=VALUE (a value given where a variable's
	// name belongs is checked against it, T4); nil when it cannot be listed.
	Environ func() []string
	// Executable is mcpwire's own binary, which private client files name where an
	// entry starts mcpwire exec or mcpwire headers (S2); nil names it "mcpwire".
	Executable func() (string, error)

	configDir string
	reg       *registry.Registry
	// exec is self's answer, once known.
	exec *string
	// tree is the discovered project (workTree); saidProject is set once it was said.
	tree        string
	saidProject bool
	// interrupt is how a signal stops FS's writes (nil when FS is not the real one).
	interrupt *fsys.Interrupt
	// step is the test hook of FS's steps, which a secret store's writes count too
	// (testhook.go); nil outside the crash tests.
	step func(stage, name string)
	// passthrough holds the arguments after "--" (session).
	passthrough []string
	dashdash    bool
	// errs is stderr as decided once per run (colour, terminal; U7).
	errs *stream
	// warnings, when set, collects every warning too (--json, U5).
	warnings *[]string
	// setGC sets the process's garbage collector goal (gc.go); nil in process and
	// when the user chose GOGC.
	setGC func(percent int)
}

// NewOSEnv returns the real process environment.
func NewOSEnv() *Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	intr := newSignalStop(os.Stderr)
	step := testStepHook(os.Getenv, os.Stderr, intr)
	return &Env{
		Getenv:  os.Getenv,
		Environ: os.Environ,
		Executable: func() (string, error) {
			p, err := os.Executable()
			if err != nil {
				return "", err
			}
			return filepath.EvalSymlinks(p)
		},
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		FS:        fsys.NewOSWith(fsys.OSOptions{Interrupt: intr, AfterStep: step}),
		step:      step,
		Home:      home,
		Cwd:       cwd,
		interrupt: intr,
		setGC:     gcSetter(os.Getenv),
	}
}

// self is mcpwire's own binary as client files name it (S2): its absolute path, with
// symbolic links resolved; "" when unknown (the files then name "mcpwire").
func (e *Env) self() string {
	if e.Executable == nil {
		return ""
	}
	if e.exec == nil {
		p, err := e.Executable()
		if err != nil || !filepath.IsAbs(p) {
			p = ""
		}
		e.exec = &p
	}
	return *e.exec
}

// environ is the environment as KEY=VALUE entries, nil when it cannot be listed.
func (e *Env) environ() []string {
	if e.Environ == nil {
		return nil
	}
	return e.Environ()
}

// warn prints one warning line on stderr, its control characters escaped (K4: a
// warning may name what a file holds). The --json document gets it as it is.
func (e *Env) warn(msg string) {
	if e.warnings != nil {
		*e.warnings = append(*e.warnings, msg)
	}
	d := e.diag()
	io.WriteString(d.w, d.paint(sgrWarning, "WARNING")+" "+termtext.Line(msg)+"\n")
}

// registry loads the layered registry once.
func (e *Env) registry() (*registry.Registry, error) {
	if e.reg != nil {
		return e.reg, nil
	}
	cfg, err := layers.Resolve(e.Getenv, e.configDir, e.Home, e.Cwd)
	if err != nil {
		return nil, err
	}
	reg, err := registry.Open(e.FS, cfg)
	if err != nil {
		return nil, err
	}
	reg.Warn = e.warn
	e.reg = reg
	return reg, nil
}

// writeFS returns the filesystem a command writes through: for --dry-run, a dry run
// over the real one that records intents and is returned too, for the diff.
func (e *Env) writeFS(dry bool) (fsys.FS, *fsys.DryRun) {
	if !dry {
		return e.FS, nil
	}
	dr := fsys.NewDryRun(e.FS)
	return dr, dr
}

// registryFor checks a command's positional arguments (n of them, described by
// names), then loads the registry.
func (e *Env) registryFor(c *cli.Context, n int, names string) (*registry.Registry, error) {
	if err := exactArgs(c, n, names); err != nil {
		return nil, err
	}
	return e.registry()
}
