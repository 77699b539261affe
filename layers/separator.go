package layers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// A layer list is parsed, not guessed (H2): AIWG_CONFIG_LAYERS is split on this
// system's list separator (":" on Unix, ";" on Windows, as PATH). A directory entry
// that holds another system's separator — "$ORG;$HOME/.aiwg" on Linux, a "," — and
// does not exist is a list written for another system: reading it as one directory
// would drop the organisation layer and its policy floor, and the first write would
// create a directory named with the separator. It is refused, naming the separator
// this system uses. A directory that exists under such a name is taken as it is.

// SeparatorError refuses configuration directories that hold another system's list
// separator and do not exist (H2).
type SeparatorError struct {
	// Problems are one line per directory: as given, the separator it holds.
	Problems []string
	// Source is where the directories came from (AIWG_CONFIG_LAYERS, AIWG_CONFIG,
	// --config-dir); Fixed the list written with this system's separator, when the
	// source is AIWG_CONFIG_LAYERS.
	Source, Fixed string
}

func (e *SeparatorError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0]
	}
	return fmt.Sprintf("%d configuration directories hold another list separator:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// Hints says how this system writes a list of layers.
func (e *SeparatorError) Hints() []string {
	sep := string(os.PathListSeparator)
	if e.Fixed != "" {
		return []string{fmt.Sprintf("on %s, %s separates layers with %q, lowest precedence first: %s=%s", systemName(runtime.GOOS), EnvLayers, sep, EnvLayers, e.Fixed)}
	}
	return []string{fmt.Sprintf("%s names one directory; for several layers set %s, separated by %q on %s", e.Source, EnvLayers, sep, systemName(runtime.GOOS))}
}

// checkSeparators refuses the directories of cfg that hold a separator of another
// system and do not exist (H2).
func checkSeparators(f fsys.FS, cfg Config) error {
	e := &SeparatorError{Source: cfg.Source}
	var fixed []string
	for i, dir := range cfg.Dirs {
		given := dir
		if i < len(cfg.Given) && cfg.Given[i] != "" {
			given = cfg.Given[i]
		}
		sep, what := foreignSeparator(given, os.PathListSeparator)
		if sep == 0 {
			fixed = append(fixed, given)
			continue
		}
		if namedSo(f, dir, sep) {
			fixed = append(fixed, given) // a directory so named (or one that cannot be looked at: L13's)
			continue
		}
		where := fmt.Sprintf("configuration layer %d of %d", i+1, len(cfg.Dirs))
		if len(cfg.Dirs) == 1 {
			where = "configuration directory"
		}
		e.Problems = append(e.Problems, fmt.Sprintf("%s %q (from %s) holds %q, %s, and no such directory exists: on %s, %q separates configuration layers",
			where, given, sourceName(cfg.Source), string(sep), what, systemName(runtime.GOOS), string(os.PathListSeparator)))
		for _, part := range strings.Split(given, string(sep)) {
			if part = strings.TrimSpace(part); part != "" {
				fixed = append(fixed, part)
			}
		}
	}
	if len(e.Problems) == 0 {
		return nil
	}
	if cfg.Layered {
		e.Fixed = strings.Join(fixed, string(os.PathListSeparator))
	}
	return e
}

// namedSo reports whether the separator in dir is part of a real name: dir exists,
// cannot be looked at (L13's to report), or the nearest ancestor of it that exists
// holds the separator ("/home/me/Projects, old/.aiwg", a write layer not created
// yet).
func namedSo(f fsys.FS, dir string, sep rune) bool {
	for p := dir; ; {
		_, err := f.Stat(p)
		if !errors.Is(err, fs.ErrNotExist) {
			return p == dir || strings.ContainsRune(p, sep)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		p = parent
	}
}

// foreignSeparator returns a list separator of another system that entry holds, and
// what it is ("the layer separator on Windows"), or 0: on Unix ";" (Windows) and, when
// the text after each comma starts like a path of its own (/…, ~…, ./…, C:\…), ","
// (a list separator of many tools, never a path list's); on Windows ":" that is not a
// drive letter's (Unix) and such a ",".
func foreignSeparator(entry string, listSep rune) (rune, string) {
	if listSep == ';' {
		for i := 0; i < len(entry); i++ {
			if entry[i] == ':' && !driveColon(entry, i) {
				return ':', "the layer separator on Linux and macOS"
			}
		}
	} else if strings.ContainsRune(entry, ';') {
		return ';', "the layer separator on Windows"
	}
	if parts := strings.Split(entry, ","); len(parts) > 1 {
		for _, p := range parts[1:] {
			if !startsLikePath(strings.TrimSpace(p)) {
				return 0, ""
			}
		}
		return ',', "a list separator of other tools, never of a path list"
	}
	return 0, ""
}

// startsLikePath reports whether s starts like a directory of a list: absolute, under
// the home directory, or explicitly relative.
func startsLikePath(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) || strings.HasPrefix(s, "~") ||
		strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, `.\`) || len(s) >= 3 && s[1] == ':' && driveColon(s, 1)
}

// driveColon reports whether the ':' at i of a Windows path ends a drive letter: a
// letter before it that starts the path or follows a path separator ("\\?\C:") or
// a list separator ("C:\a,D:\b").
func driveColon(p string, i int) bool {
	if i < 1 {
		return false
	}
	c := p[i-1]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	return i == 1 || strings.IndexByte(`\/,;`, p[i-2]) >= 0
}

func systemName(goos string) string {
	switch goos {
	case "windows":
		return "Windows"
	case "darwin":
		return "macOS"
	case "linux":
		return "Linux"
	}
	return goos
}

func sourceName(source string) string {
	if source == "" {
		return "the default"
	}
	return source
}
