package main

import (
	"io"
	"slices"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/urfave/cli/v2"
)

// writeReport is the one JSON document a command that writes prints with --json (U5):
// every destination with the servers written, removed and skipped, the files that
// changed, the warnings, and for a launch the command as an argument array. It holds
// names and paths only: never a value of a server (R8).
type writeReport struct {
	Command string `json:"command"`
	DryRun  bool   `json:"dryRun"`
	// UpToDate is inject --check's verdict (B5).
	UpToDate     *bool       `json:"upToDate,omitempty"`
	Destinations []writeDest `json:"destinations"`
	Changed      []string    `json:"changed"`
	Warnings     []string    `json:"warnings"`
	Launch       *launchJSON `json:"launch,omitempty"`
	// Import's own (B1): the servers added, those already defined as read, the
	// entries skipped, and the profile added.
	Added     []string   `json:"added,omitempty"`
	Identical []string   `json:"identical,omitempty"`
	Skipped   []skipJSON `json:"skipped,omitempty"`
	Profile   string     `json:"profile,omitempty"`
	Notes     []string   `json:"notes,omitempty"`
}

// writeDest is one destination of a writing command.
type writeDest struct {
	Provider string   `json:"provider"`
	Scope    string   `json:"scope,omitempty"`
	Path     string   `json:"path"`
	Written  []string `json:"written"`
	Removed  []string `json:"removed"`
	Skipped  []string `json:"skipped"`
	// Adopted and Foreign are import --adopt's (B2).
	Adopted []string `json:"adopted,omitempty"`
	Foreign []string `json:"foreign,omitempty"`
	// Settings is Claude Code's settings file of deny rules, when one was written.
	Settings string `json:"settings,omitempty"`
	Changed  bool   `json:"changed"`
	// TakenOver are the entries --force replaced, kept in the ownership record;
	// Restored those put back in place of mcpwire's entries removed (H1).
	TakenOver []string `json:"takenOver,omitempty"`
	Restored  []string `json:"restored,omitempty"`
	// RemovedFiles are the files mcpwire created that it removed with their last
	// entry (H7).
	RemovedFiles []string `json:"removedFiles,omitempty"`
	// SecretVariables are the variables standing for remote servers' secrets that the
	// client must be started with, each VAR=REF; ExecByName says that the file starts
	// mcpwire by name, which must be on the client's PATH (S2).
	SecretVariables []string `json:"secretVariables,omitempty"`
	ExecByName      bool     `json:"execByName,omitempty"`
}

// ephemeralScope is the scope --json names for standalone output: an ephemeral file
// or a runtime home, which no client reads unless started on it.
const ephemeralScope = "ephemeral"

// skipJSON is an entry an import did not take in.
type skipJSON struct {
	Server   string `json:"server"`
	Provider string `json:"provider"`
	Path     string `json:"path"`
	Reason   string `json:"reason"`
}

// launchJSON is a launch: the variables set and the command as an argument array.
type launchJSON struct {
	Env  map[string]string `json:"env,omitempty"`
	Argv []string          `json:"argv"`
}

// jsonOut is a command run with --json: what it would print for a person goes
// nowhere, its warnings still go to stderr and are collected, and finish prints the
// document on the real stdout.
type jsonOut struct {
	env    *Env
	stdout io.Writer
	rep    *writeReport
}

// startJSON starts --json output for a writing command; nil without --json.
func startJSON(env *Env, c *cli.Context, command string, dry bool) *jsonOut {
	if !c.Bool("json") {
		return nil
	}
	j := &jsonOut{env: env, stdout: env.Stdout, rep: &writeReport{Command: command, DryRun: dry}}
	env.Stdout = io.Discard
	env.warnings = &j.rep.Warnings
	return j
}

// finish prints the document; lists are [] rather than null.
func (j *jsonOut) finish() error {
	if j == nil {
		return nil
	}
	j.env.Stdout, j.env.warnings = j.stdout, nil
	r := j.rep
	r.Destinations = nonNil(r.Destinations)
	for i := range r.Destinations {
		d := &r.Destinations[i]
		d.Written, d.Removed, d.Skipped = nonNil(d.Written), nonNil(d.Removed), nonNil(d.Skipped)
	}
	r.Changed, r.Warnings = nonNil(r.Changed), nonNil(r.Warnings)
	return writeJSON(j.stdout, r)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// inject adds what injections did (or would do).
func (j *jsonOut) inject(reqs []write.Request, results []*write.Result) {
	if j == nil {
		return
	}
	for i, res := range results {
		if res.Destination == "" {
			j.rep.Notes = append(j.rep.Notes, prefixed(res.Provider, res.Notes)...)
			continue
		}
		d := writeDest{Provider: res.Provider, Scope: string(res.Scope), Path: res.Destination,
			Written: res.Written, Removed: res.Removed, Changed: slices.Contains(res.Changed, res.Destination),
			TakenOver: res.TakenOver, Restored: res.Restored, RemovedFiles: res.RemovedFiles,
			SecretVariables: res.Secrets.Vars, ExecByName: res.Secrets.ExecByName}
		for _, n := range reqs[i].Servers {
			if !slices.Contains(res.Written, n) && !slices.Contains(res.Removed, n) {
				d.Skipped = append(d.Skipped, n)
			}
		}
		if res.Settings != "" && slices.Contains(res.Changed, res.Settings) {
			d.Settings = res.Settings
		}
		j.rep.Destinations = append(j.rep.Destinations, d)
		j.rep.Changed = append(j.rep.Changed, res.Changed...)
	}
}

// launch adds a launch: its variables and its command line as an argument array.
func (j *jsonOut) launch(l providers.Launch) {
	if j == nil {
		return
	}
	lj := &launchJSON{Argv: append([]string{l.Binary}, l.Args...)}
	for i := 0; i+1 < len(l.Env); i += 2 {
		if lj.Env == nil {
			lj.Env = map[string]string{}
		}
		lj.Env[l.Env[i]] = l.Env[i+1]
	}
	j.rep.Launch = lj
}

// ephemeral adds standalone output (C5, X1): the file written, its servers, and how
// to launch the client on it.
func (j *jsonOut) ephemeral(provider, path string, written []string, l *providers.Launch) {
	j.rep.Destinations = append(j.rep.Destinations, writeDest{Provider: provider, Scope: ephemeralScope, Path: path, Written: written, Changed: true})
	j.rep.Changed = append(j.rep.Changed, path)
	if l != nil {
		j.launch(*l)
	}
}

func prefixed(p string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = p + ": " + l
	}
	return out
}
