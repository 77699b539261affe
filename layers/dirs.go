// Package layers finds the configuration directories, reads their registry files and
// writes changes back to the last one.
//
// # Precedence
//
// Without AIWG_CONFIG_LAYERS there is one directory: --config-dir when given, else
// AIWG_CONFIG, else ~/.aiwg (L1). With AIWG_CONFIG_LAYERS set (non-blank), its
// directories are read lowest precedence first and AIWG_CONFIG is ignored (L2). A
// server or profile of a later layer replaces the same-named entry of an earlier one
// whole: fields are never merged (L3). The last directory is the write layer: every
// write goes there and nowhere else (L4). A missing write layer and missing files are
// empty; a lower layer whose directory is missing or unreadable is an error before
// anything is read (L13: a mistyped organisation layer must not drop its policy
// floor); malformed files are errors that name the file, and every bad file is
// reported at once (L11, L12).
package layers

import (
	"errors"
	"github.com/mcpwire/mcpwire/internal/hint"
	"os"
	"path/filepath"
	"strings"
)

// Env variables that choose the configuration directories.
const (
	EnvLayers = "AIWG_CONFIG_LAYERS"
	EnvConfig = "AIWG_CONFIG"
)

// Config is the list of configuration directories, lowest precedence first.
type Config struct {
	// Dirs are absolute directories; the last one is the write layer.
	Dirs []string
	// Given are the entries as the user wrote them (AIWG_CONFIG_LAYERS, --config-dir,
	// AIWG_CONFIG; "" for the default ~/.aiwg), one per directory, for messages.
	Given []string
	// Layered is true when the list came from AIWG_CONFIG_LAYERS.
	Layered bool
	// Source names where the directories came from, for messages: "--config-dir",
	// AIWG_CONFIG_LAYERS, AIWG_CONFIG, or "" for the default ~/.aiwg.
	Source string
}

// Resolve picks the configuration directories (L1, L2). explicit is --config-dir; a
// leading ~/ in it is the home directory, as in AIWG_CONFIG (the shell leaves the ~ of
// --config-dir=~/x alone). Relative entries are resolved against cwd (the process's
// working directory when cwd is "").
func Resolve(getenv func(string) string, explicit, home, cwd string) (Config, error) {
	abs := func(p string) (string, error) {
		p = expandHome(p, home)
		if cwd != "" && !filepath.IsAbs(p) {
			return filepath.Join(cwd, p), nil
		}
		return filepath.Abs(p)
	}
	single := func(given, source string) (Config, error) {
		d, err := abs(given)
		return Config{Dirs: []string{d}, Given: []string{given}, Source: source}, err
	}
	if explicit != "" {
		if home == "" && homeRelative(explicit) {
			return Config{}, hint.Wrap(errors.New("cannot expand ~ in --config-dir: the home directory is unknown"), "set HOME, or give --config-dir as an absolute path")
		}
		return single(explicit, "--config-dir")
	}
	if v := getenv(EnvLayers); strings.TrimSpace(v) != "" {
		var cfg Config
		for _, part := range filepath.SplitList(v) {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			d, err := abs(part)
			if err != nil {
				return Config{}, err
			}
			cfg.Dirs, cfg.Given = append(cfg.Dirs, d), append(cfg.Given, part)
		}
		if len(cfg.Dirs) > 0 {
			cfg.Layered, cfg.Source = true, EnvLayers
			return cfg, nil
		}
	}
	if v := strings.TrimSpace(getenv(EnvConfig)); v != "" {
		return single(v, EnvConfig)
	}
	if home == "" {
		return Config{}, hint.Wrap(errors.New("cannot find the home directory for ~/.aiwg"), "set HOME, or AIWG_CONFIG to the configuration directory")
	}
	return Config{Dirs: []string{filepath.Join(home, ".aiwg")}, Given: []string{""}}, nil
}

// Relative reports whether a directory was given relative to the working directory
// (not absolute, not under ~): run from another directory, the same setting names
// another directory (H8).
func Relative(given string) bool {
	return given != "" && !homeRelative(given) && !filepath.IsAbs(given) && !strings.HasPrefix(given, `\`)
}

// expandHome replaces a leading ~/ with the home directory.
func expandHome(p, home string) string {
	if home != "" && homeRelative(p) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// homeRelative reports whether p is ~ or starts with ~/.
func homeRelative(p string) bool {
	return p == "~" || strings.HasPrefix(p, "~"+string(os.PathSeparator)) || strings.HasPrefix(p, "~/")
}
