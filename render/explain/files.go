package explain

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/limits"
	"github.com/mcpwire/mcpwire/internal/tomledit"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// cache is the filesystem as explain reads it: every file read once, its bytes kept
// for the lines verdicts point at, and parsed once for the rules' members. It
// forwards everything else, and writes nothing (explain never calls a write).
type cache struct {
	fsys.FS
	data  map[string]cached
	docs  map[string]format.Document
	tomls map[string]map[string]any
	lines map[string]*format.Locator
}

// cached is a file's bytes, or why it could not be read.
type cached struct {
	b   []byte
	err error
}

func newCache(f fsys.FS) *cache {
	return &cache{FS: f, data: map[string]cached{}, docs: map[string]format.Document{}, tomls: map[string]map[string]any{},
		lines: map[string]*format.Locator{}}
}

// ReadFile reads a file once.
func (c *cache) ReadFile(name string) ([]byte, error) {
	if d, ok := c.data[name]; ok {
		return d.b, d.err
	}
	b, err := c.FS.ReadFile(name)
	c.data[name] = cached{b, err}
	return b, err
}

// exists reports whether a file can be read.
func (c *cache) exists(name string) bool {
	fi, err := c.Stat(name)
	return err == nil && !fi.IsDir()
}

// insecure names the file, or the directory above it, that keeps a system file from
// being root's alone ("" when it is, or when the file does not exist).
func (c *cache) insecure(path string) string {
	if _, err := c.Stat(path); err != nil {
		return ""
	}
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		if fi, err := c.Stat(p); err == nil && !rootOnly(fi) {
			return p
		}
		if filepath.Dir(p) == p {
			return ""
		}
	}
}

// formatOf is the format a file's name says: .toml TOML, .yaml and .yml YAML, else
// JSON with comments.
func formatOf(name string) format.Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".toml":
		return format.TOML
	case ".yaml", ".yml":
		return format.YAML
	}
	return format.JSONC
}

// doc parses a file once; nil when it is not there or does not parse.
func (c *cache) doc(name string) format.Document {
	if d, ok := c.docs[name]; ok {
		return d
	}
	var doc format.Document
	if b, err := c.ReadFile(name); err == nil {
		if d, err := format.Parse(formatOf(name), name, b, true); err == nil {
			doc = d
		}
	}
	c.docs[name] = doc
	return doc
}

// member returns a member of a file as standard JSON.
func (c *cache) member(name string, path ...string) (json.RawMessage, bool) {
	if formatOf(name) == format.TOML {
		return c.tomlMember(name, path)
	}
	doc := c.doc(name)
	if doc == nil {
		return nil, false
	}
	v, ok := doc.Lookup(path...)
	if !ok {
		return nil, false
	}
	return v.JSON(), true
}

// tomlMember is member for a TOML file, decoded whole once (its members at any depth,
// top-level keys included).
func (c *cache) tomlMember(name string, path []string) (json.RawMessage, bool) {
	t, ok := c.tomls[name]
	if !ok {
		if b, err := c.ReadFile(name); err == nil && len(b) <= limits.TextBytes {
			t, _ = tomledit.Decode(b)
		}
		c.tomls[name] = t
	}
	var v any = t
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	if v == nil {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// line is the line of a member of a file (an element of an array with elem), 0 when
// it cannot be told.
func (c *cache) line(name string, f format.Format, ct format.Container, path []string, elem string) int {
	if len(path) == 0 && elem == "" {
		return 0
	}
	l, ok := c.lines[name]
	if !ok {
		b, err := c.ReadFile(name)
		if err != nil {
			return 0
		}
		l = format.NewLocator(f, b)
		c.lines[name] = l
	}
	return l.Line(ct, path, elem)
}

// files is the Files the rules of one client read through, where it starts.
type files struct {
	c *cache
	p *providers.Provider
	w providers.Where
}

// Resolve returns the existing files of a place, in each of dirs (the project root
// when none is given).
func (f files) Resolve(at providers.At, dirs ...string) []string {
	if len(dirs) == 0 {
		dirs = []string{f.w.Root}
	}
	var out []string
	for _, dir := range dirs {
		for _, c := range f.candidates(at, dir) {
			if f.c.exists(c) && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// candidates are the paths a place may be at, its project files under dir. A system
// file the client reads only where it is root's alone is left out where it is not.
func (f files) candidates(at providers.At, dir string) []string {
	if at.System != nil {
		p := at.System.Path(f.w.Env)
		if p == "" || at.System.RootOwned && f.c.insecure(p) != "" {
			return nil
		}
		return []string{p}
	}
	d, _ := f.dest(at)
	if d == nil {
		return nil
	}
	env := f.w.Env
	env.Project = dir
	cands, err := d.Candidates(env)
	if err != nil {
		return nil
	}
	return cands
}

// dest is the destination of a place and the client whose file it is.
func (f files) dest(at providers.At) (*providers.Dest, *providers.Provider) {
	p := f.p
	if at.Of != "" {
		q, ok := providers.Get(at.Of)
		if !ok {
			return nil, nil
		}
		p = q
	}
	if at.Dest != nil {
		return at.Dest, p
	}
	return p.Dest(at.Scope), p
}

// Member reads a member of a file.
func (f files) Member(file string, path ...string) (json.RawMessage, bool) {
	return f.c.member(file, path...)
}

// keyed replaces ProjectKey in a member path with the project as the client keys it.
func keyed(path []string, key string) []string {
	out := make([]string, len(path))
	for i, k := range path {
		if k == providers.ProjectKey {
			k = key
		}
		out[i] = k
	}
	return out
}

// projectKey is the project root as clients key projects in their files.
func projectKey(root, goos string) string { return render.ProjectKey(root, goos) }
