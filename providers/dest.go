package providers

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Base is the directory a destination's path starts from.
type Base string

// Bases.
const (
	// ProjectDir is the --project directory.
	ProjectDir Base = "project"
	// Home is the user's home directory.
	Home Base = "home"
	// XDGConfig is $XDG_CONFIG_HOME, else ~/.config, on every OS.
	XDGConfig Base = "xdg-config"
	// AppData is the per-OS application data directory: macOS ~/Library/Application
	// Support; Windows %APPDATA% (else ~/AppData/Roaming); elsewhere $XDG_CONFIG_HOME,
	// else ~/.config.
	AppData Base = "app-data"
)

// Dest is where one client file lives.
type Dest struct {
	// Env names a variable that, when set, replaces the directory: the file is
	// $Env/EnvDir…/Files[0].
	Env    string
	EnvDir []string
	// Base and Dir give the default directory.
	Base Base
	Dir  []string
	// Files are candidate names: the first that exists is used, else Files[0].
	Files []string
}

// PathEnv is what resolving a path may look at: no I/O.
type PathEnv struct {
	GOOS    string
	Home    string
	Project string
	Getenv  func(string) string
}

// Candidates returns the absolute candidate paths of a destination, preferred first.
func (d *Dest) Candidates(in PathEnv) ([]string, error) {
	dir, err := d.Directory(in)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(d.Files))
	for i, f := range d.Files {
		out[i] = filepath.Join(dir, f)
	}
	return out, nil
}

// Directory returns the directory of a destination.
func (d *Dest) Directory(in PathEnv) (string, error) {
	getenv := in.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if d.Env != "" {
		if v := strings.TrimSpace(getenv(d.Env)); v != "" {
			if !filepath.IsAbs(v) {
				return "", fmt.Errorf("%s must be an absolute path", d.Env)
			}
			if filepath.Clean(v) == filepath.VolumeName(v)+string(filepath.Separator) {
				return "", fmt.Errorf("%s must not be the filesystem root", d.Env)
			}
			return filepath.Join(append([]string{v}, d.EnvDir...)...), nil
		}
	}
	base, err := d.base(in, getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{base}, d.Dir...)...), nil
}

var errNoHome = errors.New("cannot find the home directory; set HOME")

func (d *Dest) base(in PathEnv, getenv func(string) string) (string, error) {
	if d.Base == ProjectDir {
		if in.Project == "" {
			return "", errors.New("no project directory")
		}
		return in.Project, nil
	}
	if in.Home == "" {
		return "", errNoHome
	}
	switch d.Base {
	case Home:
		return in.Home, nil
	case XDGConfig:
		return xdgConfig(in, getenv), nil
	case AppData:
		switch in.GOOS {
		case "darwin":
			return filepath.Join(in.Home, "Library", "Application Support"), nil
		case "windows":
			if v := getenv("APPDATA"); v != "" {
				return v, nil
			}
			return filepath.Join(in.Home, "AppData", "Roaming"), nil
		}
		return xdgConfig(in, getenv), nil
	}
	return "", fmt.Errorf("unknown base %q", d.Base)
}

func xdgConfig(in PathEnv, getenv func(string) string) string {
	if v := getenv("XDG_CONFIG_HOME"); v != "" && filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(in.Home, ".config")
}

// Variables names the environment variables that relocate a destination on goos, in
// the order they are consulted (V1): the client's own variable, then the base
// directory's (XDG_CONFIG_HOME, or APPDATA on Windows). HOME is implied.
func (d *Dest) Variables(goos string) []string {
	var out []string
	if d.Env != "" {
		out = append(out, d.Env)
	}
	switch {
	case d.Base == XDGConfig, d.Base == AppData && goos != "darwin" && goos != "windows":
		out = append(out, "XDG_CONFIG_HOME")
	case d.Base == AppData && goos == "windows":
		out = append(out, "APPDATA")
	}
	return out
}
