package providers

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/hint"
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
	// LocalAppData is Windows' %LOCALAPPDATA% (else ~/AppData/Local). Other systems
	// have none: only a Packaged directory for Windows uses it.
	LocalAppData Base = "local-app-data"
)

// Dest is where one client file lives, and how the client reads it.
type Dest struct {
	// Env names a variable that, when set, replaces the directory: the file is
	// $Env/EnvDir…/Files[0]; with EnvFile, $Env is the file itself.
	Env     string
	EnvDir  []string
	EnvFile bool
	// More are variables consulted after Env, in order, each replacing the directory
	// like Env (Cline: CLINE_DATA_DIR, then CLINE_DIR).
	More []Relocation
	// Base and Dir give the default directory.
	Base Base
	Dir  []string
	// Files are candidate names: the first that exists is used, else Files[0].
	Files []string
	// Packaged are directories a packaged build of the client (Microsoft Store/MSIX)
	// keeps its own copy of the file in. They come before the default directory but
	// are used only where the file exists; a relocation variable that is set turns
	// them off.
	Packaged []Packaged
	// OS replaces the whole destination on one operating system (GOOS): Zed keeps its
	// settings in ~/.config/zed on macOS and %APPDATA%\Zed on Windows.
	OS map[string]*Dest
	// Only, when set, is the one operating system the client runs on (Visual Studio:
	// windows); resolving the destination on another fails.
	Only string
	// Pointer, when set, is a file under the home directory whose content names the
	// destination's directory (LM Studio's ~/.lmstudio-home-pointer); without that
	// file, the first of Fallback (directories under the home) that exists is the
	// directory, else Dir. Reading them needs the filesystem: see Pointed.
	Pointer  []string
	Fallback [][]string
	// Yields are files beside this one that the client reads instead while this one
	// does not exist (Continue's config.json): mcpwire does not create the file while
	// one of them exists, since that would hide it from the client.
	Yields []string
	// Servers is the path of member names to the servers when it is not the
	// provider's ServersKey; ProjectKey in it stands for the absolute project
	// directory (Claude Code's projects["<abs project>"].mcpServers, V11).
	Servers []string
	// Strict: the client ignores the whole file when it is not strict JSON (a comment
	// or a trailing comma), so mcpwire refuses to write such a file (V9).
	// NoTrailingComma: the client takes comments but drops or resets the whole file
	// over a trailing comma, which mcpwire then refuses to write.
	Strict, NoTrailingComma bool
	// NoRefs: the client skips the whole file when it holds a reference to an
	// environment variable (Kilo's project files), so none is written there.
	NoRefs bool
	// FromCwd: the client looks for this project file in the folder it starts in
	// only, not up to the git root (oh-my-pi, Kimi Code, Qwen Code): inject says so
	// when it runs in another folder.
	FromCwd bool
}

// ProjectKey stands for the absolute project directory in a Dest's Servers path.
const ProjectKey = "<project>"

// ServersPath returns the member names from the top level to the servers of this
// destination: Servers with ProjectKey replaced by projectKey, else serversKey.
func (d *Dest) ServersPath(serversKey, projectKey string) []string {
	if len(d.Servers) == 0 {
		return []string{serversKey}
	}
	out := slices.Clone(d.Servers)
	for i, k := range out {
		if k == ProjectKey {
			out[i] = projectKey
		}
	}
	return out
}

// Nested reports whether the servers sit under the project's own key (ProjectKey):
// the file is shared by every project, each with its own servers.
func (d *Dest) Nested() bool { return slices.Contains(d.Servers, ProjectKey) }

// SameFile reports whether two destinations name the same file (one of their
// candidate paths, directory and name, is the same), whatever part of it each uses.
func (d *Dest) SameFile(o *Dest) bool {
	if d.Base != o.Base || d.Env != o.Env || d.EnvFile != o.EnvFile || !slices.Equal(d.EnvDir, o.EnvDir) {
		return false
	}
	for _, f := range d.Files {
		for _, g := range o.Files {
			if differentNames(f, g) {
				continue
			}
			if path.Join(append(slices.Clone(d.Dir), f)...) == path.Join(append(slices.Clone(o.Dir), g)...) {
				return true
			}
		}
	}
	return false
}

// differentNames reports, without building either path, that two file names can
// name no common file whatever directories they are joined to: each ends in a plain
// name (not ".", ".." or "/"), which a join keeps last, and the two differ.
func differentNames(f, g string) bool {
	bf, bg := path.Base(path.Clean(f)), path.Base(path.Clean(g))
	plain := func(b string) bool { return b != "." && b != ".." && b != "/" }
	return plain(bf) && plain(bg) && bf != bg
}

// Pointed is where a destination's pointer file and fallback directories are, for
// the caller to read (no I/O here); ok is false when the destination has none or a
// relocation variable is set.
func (d *Dest) Pointed(in PathEnv) (pointer string, fallback []string, ok bool) {
	d = d.on(in.GOOS)
	if len(d.Pointer) == 0 || in.Home == "" {
		return "", nil, false
	}
	if _, _, set := d.relocated(in.env()); set {
		return "", nil, false
	}
	for _, f := range d.Fallback {
		fallback = append(fallback, filepath.Join(append([]string{in.Home}, f...)...))
	}
	return filepath.Join(append([]string{in.Home}, d.Pointer...)...), fallback, true
}

// Relocation is a variable that, when set, moves a destination's directory to
// $Env/Dir….
type Relocation struct {
	Env string
	Dir []string
}

// on returns the destination as it is on goos.
func (d *Dest) on(goos string) *Dest {
	if o := d.OS[goos]; o != nil {
		return o
	}
	return d
}

// relocations lists the destination's variables, in the order they are consulted.
func (d *Dest) relocations() []Relocation {
	var out []Relocation
	if d.Env != "" {
		out = append(out, Relocation{Env: d.Env, Dir: d.EnvDir})
	}
	return append(out, d.More...)
}

// relocated returns the first set relocation variable's value, trimmed, and which
// it is; ok is false when none is set.
func (d *Dest) relocated(getenv func(string) string) (v string, r Relocation, ok bool) {
	for _, r := range d.relocations() {
		if v := strings.TrimSpace(getenv(r.Env)); v != "" {
			return v, r, true
		}
	}
	return "", Relocation{}, false
}

// Packaged is the directory a packaged build keeps its files in on one OS:
// Base/Parent…/NAME/Sub…, NAME a directory whose name matches Pattern (the
// package's name with its publisher id, Claude_pzs8sxrjxfjjc). Finding NAME needs
// the filesystem, so providers describes it as a Glob and the caller lists Parent.
type Packaged struct {
	GOOS    string
	Base    Base
	Parent  []string
	Pattern string // a filepath.Match pattern for one directory name
	Sub     []string
}

// Glob is a candidate path with one wildcard directory: Dir/NAME/Rest…, where NAME
// matches Pattern.
type Glob struct {
	Dir     string
	Pattern string
	Rest    []string
}

// Path returns the candidate for the directory name.
func (g Glob) Path(name string) string {
	return filepath.Join(append([]string{g.Dir, name}, g.Rest...)...)
}

// String shows the candidate with its pattern in place of the name.
func (g Glob) String() string { return g.Path(g.Pattern) }

// Match reports whether a directory name in Dir is one of g's.
func (g Glob) Match(name string) bool {
	ok, err := filepath.Match(g.Pattern, name)
	return err == nil && ok && name != "." && name != ".."
}

// Matches reports whether path is one of g's candidates.
func (g Glob) Matches(path string) bool {
	rel, err := filepath.Rel(g.Dir, filepath.Clean(path))
	if err != nil {
		return false
	}
	name, rest, _ := strings.Cut(rel, string(filepath.Separator))
	return g.Match(name) && rest == filepath.Join(g.Rest...)
}

// PathEnv is what resolving a path may look at: no I/O.
type PathEnv struct {
	GOOS    string
	Home    string
	Project string
	Getenv  func(string) string
	// Exec is the mcpwire binary that private files name where an entry starts mcpwire
	// (exec, headers: S2), its absolute path; "" names it "mcpwire".
	Exec string
}

// Candidates returns the absolute candidate paths of a destination, preferred first.
func (d *Dest) Candidates(in PathEnv) ([]string, error) {
	d = d.on(in.GOOS)
	dir, err := d.Directory(in)
	if err != nil {
		return nil, err
	}
	if v, r, ok := d.relocated(in.env()); ok && d.EnvFile && r.Env == d.Env {
		return []string{filepath.Clean(v)}, nil
	}
	out := make([]string, len(d.Files))
	for i, f := range d.Files {
		out[i] = filepath.Join(dir, f)
	}
	return out, nil
}

// Globs returns the packaged candidates of a destination on in.GOOS, preferred
// first; each is used only where its file exists. None when a relocation variable
// is set.
func (d *Dest) Globs(in PathEnv) ([]Glob, error) {
	d = d.on(in.GOOS)
	getenv := in.env()
	if _, _, set := d.relocated(getenv); len(d.Packaged) == 0 || set {
		return nil, nil
	}
	var out []Glob
	for _, pk := range d.Packaged {
		if pk.GOOS != in.GOOS {
			continue
		}
		base, _, err := (&Dest{Base: pk.Base}).base(in, getenv)
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(append([]string{base}, pk.Parent...)...)
		for _, f := range d.Files {
			out = append(out, Glob{Dir: dir, Pattern: pk.Pattern, Rest: append(slices.Clone(pk.Sub), f)})
		}
	}
	return out, nil
}

// env returns in.Getenv, or a lookup that finds nothing.
func (in PathEnv) env() func(string) string {
	if in.Getenv == nil {
		return func(string) string { return "" }
	}
	return in.Getenv
}

// Directory returns the directory of a destination.
func (d *Dest) Directory(in PathEnv) (string, error) {
	d = d.on(in.GOOS)
	if d.Only != "" && in.GOOS != d.Only {
		return "", &OnlyError{Only: d.Only, GOOS: in.GOOS}
	}
	getenv := in.env()
	if v, r, ok := d.relocated(getenv); ok {
		if !filepath.IsAbs(v) {
			return "", fmt.Errorf("%s must be an absolute path", r.Env)
		}
		if filepath.Clean(v) == filepath.VolumeName(v)+string(filepath.Separator) {
			return "", fmt.Errorf("%s must not be the filesystem root", r.Env)
		}
		if d.EnvFile && r.Env == d.Env {
			return filepath.Dir(filepath.Clean(v)), nil
		}
		return filepath.Join(append([]string{v}, r.Dir...)...), nil
	}
	base, _, err := d.base(in, getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{base}, d.Dir...)...), nil
}

var errNoHome = hint.Wrap(errors.New("cannot find the home directory"), "set HOME (on Windows USERPROFILE)")

// OnlyError is a destination resolved on an operating system its client does not run
// on (Visual Studio's user file exists only on Windows).
type OnlyError struct {
	Only, GOOS string
}

func (e *OnlyError) Error() string {
	return fmt.Sprintf("only on %s: the client does not run on %s", OSName(e.Only), OSName(e.GOOS))
}

// OSName is an operating system's name as people write it.
func OSName(goos string) string {
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

// base returns the destination's base directory, and the variable it was taken from
// ("" for the default).
func (d *Dest) base(in PathEnv, getenv func(string) string) (dir, from string, err error) {
	if d.Base == ProjectDir {
		if in.Project == "" {
			return "", "", errors.New("no project directory")
		}
		return in.Project, "", nil
	}
	if in.Home == "" {
		return "", "", errNoHome
	}
	switch d.Base {
	case Home:
		return in.Home, "", nil
	case XDGConfig:
		dir, from = xdgConfig(in, getenv)
		return dir, from, nil
	case AppData:
		switch in.GOOS {
		case "darwin":
			return filepath.Join(in.Home, "Library", "Application Support"), "", nil
		case "windows":
			if v := getenv("APPDATA"); v != "" {
				return v, "APPDATA", nil
			}
			return filepath.Join(in.Home, "AppData", "Roaming"), "", nil
		}
		dir, from = xdgConfig(in, getenv)
		return dir, from, nil
	case LocalAppData:
		if in.GOOS != "windows" {
			return "", "", fmt.Errorf("%%LOCALAPPDATA%% exists only on Windows, not on %s", in.GOOS)
		}
		if v := getenv("LOCALAPPDATA"); v != "" {
			return v, "LOCALAPPDATA", nil
		}
		return filepath.Join(in.Home, "AppData", "Local"), "", nil
	}
	return "", "", fmt.Errorf("unknown base %q", d.Base)
}

func xdgConfig(in PathEnv, getenv func(string) string) (dir, from string) {
	if v := getenv("XDG_CONFIG_HOME"); v != "" && isAbs(in.GOOS, v) {
		return v, "XDG_CONFIG_HOME"
	}
	return filepath.Join(in.Home, ".config"), ""
}

// isAbs reports whether p is absolute on the system goos: "/x" is on a Unix system,
// even as the tables are resolved for it on Windows (where filepath.IsAbs wants a
// drive letter).
func isAbs(goos, p string) bool {
	return filepath.IsAbs(p) || goos != "windows" && path.IsAbs(p)
}

// MovedBy names the variable of Variables that decides the destination's directory
// in this environment, as Directory reads them: the client's own variable when one
// is set (even to a value Directory refuses), else the one the base directory was
// taken from (XDG_CONFIG_HOME only when absolute); "" when the file is where it is by
// default. A packaged build's directory needs the filesystem and is not told here.
func (d *Dest) MovedBy(in PathEnv) string {
	d = d.on(in.GOOS)
	getenv := in.env()
	if _, r, ok := d.relocated(getenv); ok {
		return r.Env
	}
	_, from, _ := d.base(in, getenv)
	return from
}

// Variables names the environment variables that relocate a destination on goos, in
// the order they are consulted (V1): the client's own variable, then a packaged
// build's (LOCALAPPDATA on Windows), then the base directory's (XDG_CONFIG_HOME, or
// APPDATA on Windows). HOME is implied.
func (d *Dest) Variables(goos string) []string {
	d = d.on(goos)
	var out []string
	for _, r := range d.relocations() {
		out = append(out, r.Env)
	}
	for _, pk := range d.Packaged {
		if pk.GOOS == goos && pk.Base == LocalAppData && !slices.Contains(out, "LOCALAPPDATA") {
			out = append(out, "LOCALAPPDATA")
		}
	}
	switch {
	case d.Base == XDGConfig, d.Base == AppData && goos != "darwin" && goos != "windows":
		out = append(out, "XDG_CONFIG_HOME")
	case d.Base == AppData && goos == "windows":
		out = append(out, "APPDATA")
	}
	return out
}
