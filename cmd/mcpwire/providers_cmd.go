package main

import (
	"bufio"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/urfave/cli/v2"
)

// providerView is one provider as `mcpwire providers` shows it (V1).
type providerView struct {
	Name         string   `json:"name"`
	Display      string   `json:"display"`
	Aliases      []string `json:"aliases"`
	DefaultScope string   `json:"defaultScope"`
	// Destinations are, per scope, the candidate files on this OS, preferred first
	// (H13): glob patterns (a packaged build's file, used when one exists) before the
	// plain paths. A scope whose file cannot be resolved here has none, and the reason
	// in Unresolved.
	Destinations map[string][]string `json:"destinations"`
	// Pointers are, per scope, a file naming the directory the client's file is in
	// (LM Studio), read before the candidates.
	Pointers map[string]string `json:"pointers,omitempty"`
	// Unresolved says, per scope, why its file cannot be named here.
	Unresolved map[string]string `json:"unresolved,omitempty"`
	// Variables are the environment variables that relocate each scope's file.
	Variables map[string][]string `json:"variables"`
	// MovedBy is, per scope whose file is not where it is by default here, the
	// variable of Variables that moved it.
	MovedBy map[string]string `json:"movedBy,omitempty"`
	// Settings are Claude Code's settings files per scope, where deny rules go, as
	// Destinations lists files.
	Settings map[string][]string `json:"settings,omitempty"`
	// text is each scope's destination and settings as the text output shows them.
	text map[string]string
	// ServersPath is, per scope whose servers are not under serversKey, the member
	// names to them (Claude Code's local scope: projects, the project, mcpServers).
	ServersPath map[string][]string `json:"serversPath,omitempty"`
	// Readers are, per scope, the other clients that read that file too (V10).
	Readers map[string][]string `json:"readers,omitempty"`
	// Syntax is, per scope, what the client's reader refuses in the file and mcpwire
	// therefore never writes (V9): "strict JSON", "no trailing commas",
	// "no references".
	Syntax     map[string][]string `json:"syntax,omitempty"`
	Format     string              `json:"format,omitempty"`
	ServersKey string              `json:"serversKey,omitempty"`
	Transports string              `json:"transports"`
	References string              `json:"references"`
	ToolDeny   string              `json:"toolDeny"`
	ToolAllow  string              `json:"toolAllow"`
	Ephemeral  bool                `json:"ephemeral"`
	// StrictJSON: the client rejects or ignores a file with comments or trailing
	// commas, so mcpwire refuses to write into one (V9).
	StrictJSON bool `json:"strictJSON,omitempty"`
	// ProjectNote is what the client needs before it reads its project file, or who
	// does not read it; Absent says, per scope the client has no file of, why.
	ProjectNote string            `json:"projectNote,omitempty"`
	Absent      map[string]string `json:"absent,omitempty"`
	// Sources are where the entry's facts come from; Conformance says whether the
	// conformance suite checks the client (V8).
	Sources     []string `json:"sources"`
	Conformance bool     `json:"conformance"`
}

func providersCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "providers",
		Usage: "list every client: aliases, files per scope on this OS, format, reference syntax, filter support",
		Flags: []cli.Flag{jsonFlag, &cli.StringFlag{Name: "project", Usage: "project directory for project-scope paths (default: the current directory)"}},
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, ""); err != nil {
				return err
			}
			views := providerViews(env.pathEnv(projectDir(env, c)))
			if c.Bool("json") {
				return writeJSON(env.Stdout, views)
			}
			bw := bufio.NewWriter(env.Stdout)
			for i, v := range views {
				if i > 0 {
					printf(bw, "\n")
				}
				printProvider(bw, v)
			}
			return bw.Flush()
		},
	}
}

// providerViews shows every provider of the table for this environment.
func providerViews(pe providers.PathEnv) []providerView {
	views := make([]providerView, 0, len(providers.All()))
	for _, p := range providers.All() {
		v := providerView{
			Name: p.Name, Display: p.Display, Aliases: slices.Clone(p.Aliases), DefaultScope: string(p.DefaultScope),
			Destinations: map[string][]string{}, Variables: map[string][]string{}, Format: string(p.Format), StrictJSON: p.StrictJSON, ServersKey: p.ServersKey,
			Transports: string(p.Remote), References: p.Refs.Style, ToolDeny: string(p.Deny),
			ToolAllow: string(p.Allow), Ephemeral: p.Ephemeral, Sources: p.Sources, Conformance: p.Conformance,
			ProjectNote: p.ProjectNote,
		}
		for s, why := range p.Absent {
			if v.Absent == nil {
				v.Absent = map[string]string{}
			}
			v.Absent[string(s)] = why
		}
		if v.Aliases == nil {
			v.Aliases = []string{}
		}
		for _, s := range p.Scopes() {
			c := candidates(p.Dest(s), pe)
			v.Destinations[string(s)] = c.paths()
			v.setText(string(s), c.String())
			if c.pointer != "" {
				if v.Pointers == nil {
					v.Pointers = map[string]string{}
				}
				v.Pointers[string(s)] = c.pointer
			}
			if c.err != nil {
				if v.Unresolved == nil {
					v.Unresolved = map[string]string{}
				}
				v.Unresolved[string(s)] = c.err.Error()
			}
			if vars := p.Dest(s).Variables(pe.GOOS); len(vars) > 0 {
				v.Variables[string(s)] = vars
			}
			if by := p.Dest(s).MovedBy(pe); by != "" {
				if v.MovedBy == nil {
					v.MovedBy = map[string]string{}
				}
				v.MovedBy[string(s)] = by
			}
			if d := p.Settings[s]; d != nil {
				if v.Settings == nil {
					v.Settings = map[string][]string{}
				}
				c := candidates(d, pe)
				v.Settings[string(s)] = c.paths()
				v.setText("settings "+string(s), c.String())
			}
			scopeExtras(&v, p, s, pe)
		}
		views = append(views, v)
	}
	return views
}

// scopeExtras adds what the view says of one scope beyond its file: where in it the
// servers sit when not under the servers key, and the other clients reading it.
func scopeExtras(v *providerView, p *providers.Provider, s providers.Scope, pe providers.PathEnv) {
	d := p.Dest(s)
	if path := d.ServersPath(p.ServersKey, render.ProjectKey(pe.Project, pe.GOOS)); len(d.Servers) > 0 {
		if v.ServersPath == nil {
			v.ServersPath = map[string][]string{}
		}
		v.ServersPath[string(s)] = path
	}
	var syntax []string
	for _, x := range []struct {
		on   bool
		what string
	}{{d.Strict, "strict JSON"}, {d.NoTrailingComma, "no trailing commas"}, {d.NoRefs, "no references"}} {
		if x.on {
			syntax = append(syntax, x.what)
		}
	}
	if len(syntax) > 0 {
		if v.Syntax == nil {
			v.Syntax = map[string][]string{}
		}
		v.Syntax[string(s)] = syntax
	}
	var readers []string
	for _, q := range p.Readers(s) {
		readers = append(readers, q.Name)
	}
	if len(readers) > 0 {
		if v.Readers == nil {
			v.Readers = map[string][]string{}
		}
		v.Readers[string(s)] = readers
	}
}

// printProvider prints one provider as text.
func printProvider(bw *bufio.Writer, v providerView) {
	name := v.Name
	if len(v.Aliases) > 0 {
		name += " (" + strings.Join(v.Aliases, ", ") + ")"
	}
	printf(bw, "%s — %s\n", name, v.Display)
	if len(v.Destinations) == 0 {
		printf(bw, "  no config file: mcpwire install prints the steps\n")
	}
	for _, sc := range providers.AllScopes {
		s := string(sc)
		if _, ok := v.Destinations[s]; !ok {
			if why, ok := v.Absent[s]; ok {
				printf(bw, "  %-8s none: %s\n", s+":", why)
			}
			continue
		}
		d := v.text[s]
		var notes []string
		if s == v.DefaultScope {
			notes = append(notes, "default")
		}
		// the variable that moved the file here, and those that would move it
		// (consulted before it, or all when none is set)
		vars := v.Variables[s]
		if by := v.MovedBy[s]; by != "" {
			notes = append(notes, "moved by "+by)
			vars = vars[:max(slices.Index(vars, by), 0)]
		}
		if len(vars) > 0 {
			notes = append(notes, "movable with "+strings.Join(vars, ", "))
		}
		def := ""
		if len(notes) > 0 {
			def = " (" + strings.Join(notes, "; ") + ")"
		}
		printf(bw, "  %-8s %s%s\n", s+":", d, def)
		if path, ok := v.ServersPath[s]; ok {
			printf(bw, "  %-8s servers under %s\n", "", jsonPath(path))
		}
		if rs, ok := v.Readers[s]; ok {
			printf(bw, "  %-8s also read by %s\n", "", strings.Join(rs, ", "))
		}
		if sc == providers.Project && v.ProjectNote != "" {
			printf(bw, "  %-8s note: %s\n", "", v.ProjectNote)
		}
		if sx, ok := v.Syntax[s]; ok {
			printf(bw, "  %-8s %s (the client drops the file otherwise)\n", "", strings.Join(sx, "; "))
		}
		if _, ok := v.Settings[s]; ok {
			printf(bw, "  %-8s %s (deny rules)\n", "", v.text["settings "+s])
		}
	}
	if v.Format != "" {
		format := v.Format
		if v.StrictJSON {
			format += " (strict: a file with comments is refused)"
		}
		printf(bw, "  format:  %s, servers under %q; transports: %s\n", format, v.ServersKey, v.Transports)
	}
	printf(bw, "  refs:    %s\n", v.References)
	printf(bw, "  filters: deny %s; allow %s\n", v.ToolDeny, v.ToolAllow)
	printf(bw, "  ephemeral: %s\n", yesNo(v.Ephemeral))
	printf(bw, "  conformance: %s\n", yesNo(v.Conformance))
	printf(bw, "  sources: %s\n", strings.Join(v.Sources, "; "))
}

// setText keeps how the text output shows one scope's file (key: the scope, or
// "settings " and the scope).
func (v *providerView) setText(key, text string) {
	if v.text == nil {
		v.text = map[string]string{}
	}
	v.text[key] = text
}

// candidateFiles are a destination's candidate files on this system, preferred
// first, or why it cannot be resolved here.
type candidateFiles struct {
	files []candidateFile
	// pointer is a file naming the directory the file is in, read first (LM Studio).
	pointer, pointed string
	err              error
}

// candidateFile is one candidate path or glob pattern, and when it is used.
type candidateFile struct{ path, when string }

// paths are the candidates alone, as --json lists them (H13): never nil.
func (c candidateFiles) paths() []string {
	out := make([]string, 0, len(c.files))
	for _, f := range c.files {
		out = append(out, f.path)
	}
	return out
}

// String is the text output's line: every candidate with its condition, " | " between.
func (c candidateFiles) String() string {
	if c.err != nil {
		return "(" + c.err.Error() + ")"
	}
	var out []string
	if c.pointer != "" {
		out = append(out, c.pointer+" → <the directory it names>/"+c.pointed)
	}
	for _, f := range c.files {
		if f.when != "" {
			out = append(out, f.path+" ("+f.when+")")
		} else {
			out = append(out, f.path)
		}
	}
	return strings.Join(out, " | ")
}

// candidates are a destination's candidate paths, or why it cannot be resolved: a
// packaged build's (Claude Desktop's MSIX copy, used when it exists) first.
func candidates(d *providers.Dest, pe providers.PathEnv) candidateFiles {
	c, err := d.Candidates(pe)
	if err != nil {
		return candidateFiles{err: err}
	}
	globs, err := d.Globs(pe)
	if err != nil {
		return candidateFiles{err: err}
	}
	var out candidateFiles
	for _, g := range globs {
		out.files = append(out.files, candidateFile{g.String(), "when it exists"})
	}
	if pointer, fallback, ok := d.Pointed(pe); ok {
		// LM Studio: its home directory is what a pointer file names
		out.pointer, out.pointed = pointer, d.Files[0]
		for _, dir := range fallback {
			out.files = append(out.files, candidateFile{filepath.Join(dir, d.Files[0]), "when the directory exists"})
		}
	}
	for _, p := range c {
		out.files = append(out.files, candidateFile{path: p})
	}
	return out
}

// jsonPath shows member names as a path: "projects" → "/w/repo" → "mcpServers".
func jsonPath(path []string) string {
	parts := make([]string, len(path))
	for i, k := range path {
		parts[i] = strconv.Quote(k)
	}
	return strings.Join(parts, " → ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
