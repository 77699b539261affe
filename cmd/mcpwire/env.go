package main

import (
	"io"
	"os"

	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/fsys"
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

	configDir string
	reg       *registry.Registry
	// passthrough holds the arguments after "--" (session).
	passthrough []string
	dashdash    bool
}

// NewOSEnv returns the real process environment.
func NewOSEnv() *Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return &Env{
		Getenv: os.Getenv,
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		FS:     fsys.NewOS(),
		Home:   home,
		Cwd:    cwd,
	}
}

// warn prints one warning line on stderr.
func (e *Env) warn(msg string) {
	io.WriteString(e.Stderr, "WARNING "+msg+"\n")
}

// registry loads the layered registry once.
func (e *Env) registry() (*registry.Registry, error) {
	if e.reg != nil {
		return e.reg, nil
	}
	cfg, err := layers.Resolve(e.Getenv, e.configDir, e.Home)
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
