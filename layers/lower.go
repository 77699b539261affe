package layers

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/sysmsg"
	"github.com/mcpwire/mcpwire/internal/termtext"
)

// LowerLayerError names every lower layer (every layer but the write layer) whose
// directory is missing, unreadable or not a directory (L13). A lower layer is usually
// an organisation's: dropping it silently would drop its servers and its credential
// policy floor, so nothing is read or written while one is missing.
type LowerLayerError struct {
	// Problems are one line per bad layer: as given, as resolved, and what is wrong.
	Problems []string
	// Source names where the list of layers came from (AIWG_CONFIG_LAYERS).
	Source string
	// Unreadable is set when a layer directory exists but cannot be read (its mode,
	// its owner).
	Unreadable bool
}

func (e *LowerLayerError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0]
	}
	return fmt.Sprintf("%d configuration layers cannot be read:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// Hints says what to do about a bad lower layer.
func (e *LowerLayerError) Hints() []string {
	hints := []string{
		"fix " + e.Source + " (directories lowest precedence first; only the last one, your write layer, may be missing), or mount or create the layer directory",
		"a lower layer is never skipped: its servers and its credentialPolicy floor would silently disappear",
	}
	if e.Unreadable {
		hints = append(hints, "a layer directory that exists must be readable by you: ls -ld shows its owner and mode (it needs r and x)")
	}
	return hints
}

// checkLower checks the directory of every lower layer of cfg (L13): it exists, is a
// directory, and can be listed — a directory of mode 000 stats fine but reads as
// "permission denied" file by file. The write layer (the last one) may be missing:
// it is created on the first write.
func checkLower(f fsys.FS, cfg Config) error {
	var problems []string
	unreadable := false
	for i := 0; i < len(cfg.Dirs)-1; i++ {
		dir := cfg.Dirs[i]
		what := ""
		fi, err := f.Stat(dir)
		if err == nil && fi.IsDir() {
			_, err = f.ReadDir(dir)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			what = "does not exist"
		case err != nil:
			what = "cannot be read: " + reason(err)
			unreadable = true
		case !fi.IsDir():
			what = "is not a directory"
		default:
			continue
		}
		problems = append(problems, fmt.Sprintf("configuration layer %d of %d %s: %s", i+1, len(cfg.Dirs), describe(cfg, i), what))
	}
	if len(problems) == 0 {
		return nil
	}
	return &LowerLayerError{Problems: problems, Source: EnvLayers, Unreadable: unreadable}
}

// describe names layer i as given and as resolved: "../org" (/home/me/org).
func describe(cfg Config, i int) string {
	dir := cfg.Dirs[i]
	if i < len(cfg.Given) && cfg.Given[i] != "" && filepath.FromSlash(cfg.Given[i]) != dir { // C:/org is C:\org on Windows
		return fmt.Sprintf("%s (resolved: %s)", quote(cfg.Given[i]), dir)
	}
	return fmt.Sprintf("%s (resolved: %s)", quote(dir), dir)
}

// quote puts a layer as given in double quotes: as it is when it prints as itself
// ("C:\Users\me" would misspell a Windows path), else as a Go string literal.
func quote(s string) string {
	if termtext.Plain(s) {
		return `"` + s + `"`
	}
	return strconv.Quote(s)
}

// reason is the system's reason of a path error, without the path (already named).
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return sysmsg.Text(pe.Err)
	}
	return sysmsg.Text(err)
}
