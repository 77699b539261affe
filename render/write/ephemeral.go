package write

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/render"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// EphemeralResult says what an ephemeral injection wrote (C5).
type EphemeralResult struct {
	Provider string
	// Out is the standalone config file.
	Out string
	// Settings is the Claude deny-rule sidecar, "" when there are no deny rules.
	Settings string
	// Dir is the temporary directory created when no --out was given.
	Dir     string
	Written []string
	// InputVars are the variables standing for inputs the client cannot ask for (T3).
	InputVars []string
	// Secrets says how the servers written get their secrets (S2).
	Secrets Secrets
	// Launch starts the client on Out; nil when mcpwire knows no way to.
	Launch *providers.Launch
}

// LaunchArgs are the client's arguments for the ephemeral output, before the
// person's: what session runs, and what LaunchLine prints.
func (e *EphemeralResult) LaunchArgs() []string {
	if e.Launch == nil {
		return nil
	}
	return e.Launch.Args
}

// LaunchLine is the command that starts the client with the ephemeral output; ""
// when mcpwire knows none.
func (e *EphemeralResult) LaunchLine() string {
	if e.Launch == nil {
		return ""
	}
	return e.Launch.String()
}

// SidecarPath returns the deny-rule sidecar of an ephemeral output: run.json →
// run.settings.json.
func SidecarPath(out string) string {
	if strings.HasSuffix(out, ".json") {
		return strings.TrimSuffix(out, ".json") + ".settings.json"
	}
	return out + ".settings.json"
}

// NoEphemeralError is --ephemeral for a client whose files cannot stand alone (C5).
type NoEphemeralError struct{ Provider *providers.Provider }

func (e *NoEphemeralError) Error() string {
	msg := e.Provider.Display + " files cannot stand alone, so --ephemeral is not supported"
	if e.Provider.NoEphemeral != "" {
		msg += ": " + e.Provider.NoEphemeral
	}
	return msg
}

// Hints says what to do instead.
func (e *NoEphemeralError) Hints() []string {
	return []string{"inject into its file instead: the same command without --ephemeral"}
}

// Ephemeral writes a standalone config for one run: out (0600), and for Claude Code a
// deny-rule sidecar beside it when there are deny rules. Without out, a new 0700
// temporary directory holds <profile|custom>-<provider>.json. Nothing is written when
// the policy refuses (P6) or a Claude toolAllow is present.
func Ephemeral(f fsys.FS, r Request, out string) (*EphemeralResult, error) {
	p := r.Provider
	if p.RuntimeHome != nil {
		return nil, hint.Wrap(fmt.Errorf("%s ephemeral output is a runtime home", p.Name), "use mcpwire session --provider "+p.Name+" --profile NAME")
	}
	if !p.Ephemeral {
		return nil, &NoEphemeralError{Provider: p}
	}
	t, servers, err := r.standalone(true)
	if err != nil {
		return nil, err
	}
	entries, filters, written, err := r.plan(t, servers)
	if err != nil {
		return nil, err
	}
	res := &EphemeralResult{Provider: p.Name, Written: written, InputVars: inputVarsOf(entries), Secrets: secretsOf(entries)}
	d := p.Dialect()
	content, err := standaloneFile(p, d, entries, filters)
	if err != nil {
		return nil, err
	}
	if out == "" {
		if res.Dir, err = f.MkdirTemp(r.tempDir(), "mcpwire-"); err != nil {
			return nil, err
		}
		out = filepath.Join(res.Dir, r.outName())
	}
	res.Out = out
	targets, list, err := r.ephemeralTargets(f, res, d, content, entries, filters)
	if err == nil {
		_, err = fsys.Apply(f, targets)
	}
	if err != nil {
		if res.Dir != "" {
			f.Remove(res.Dir) // nothing is left in it: the transaction undid its writes
		}
		return nil, err
	}
	unstage(f, list, r.warn)
	if launch, ok := d.Launch(res.Out, res.Settings); ok {
		res.Launch = &launch
	}
	return res, nil
}

// ephemeralTargets are the writes of an ephemeral output, in order: staged records →
// output → sidecar → sidecar record → output record (W7). An explicit --out (res.Dir
// empty) replaces only an earlier ephemeral output and is recorded, its records staged
// first (staging.go); a sidecar is added when the dialect has deny rules to write.
func (r *Request) ephemeralTargets(f fsys.FS, res *EphemeralResult, d providers.Dialect, content []byte, entries []namedEntry, filters *providers.FilterSet) ([]fsys.Target, []*staged, error) {
	out := res.Out
	targets := []fsys.Target{{
		Path:  out,
		Check: func() error { return fsys.CheckRealDirs(f, "", out) },
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			return content, 0o600, false, nil
		},
	}}
	var stages, outRec []fsys.Target
	var list []*staged
	if res.Dir == "" {
		st := &staged{}
		ot, err := r.outTargets(f, out, content, entries, st)
		if err != nil {
			return nil, nil, err
		}
		targets[0], outRec, stages, list = ot.out, []fsys.Target{ot.record}, []fsys.Target{ot.stage}, []*staged{st}
	}
	if dr := d.DenyRules(); dr != nil {
		if rules := dr.Rules(filters); len(rules) > 0 {
			side := SidecarPath(out)
			st, err := r.sidecarTargets(f, out, side, rules, res.Dir == "", &list)
			if err != nil {
				return nil, nil, err
			}
			res.Settings = side
			if len(st) == 3 { // a staged record, the sidecar, its record
				stages, st = append(stages, st[0]), st[1:]
			}
			targets = append(targets, st...)
		}
	}
	return append(append(stages, targets...), outRec...), list, nil
}

// inputVarsOf are the variables standing for inputs in the entries, each once.
func inputVarsOf(entries []namedEntry) []string {
	var out []string
	for _, ne := range entries {
		out = providers.AppendNew(out, ne.inputVars)
	}
	return out
}

// standaloneFile is the content of a standalone file: the servers key with the
// entries, and what else the dialect adds.
func standaloneFile(p *providers.Provider, d providers.Dialect, entries []namedEntry, filters *providers.FilterSet) ([]byte, error) {
	doc := format.Object{{Key: p.ServersKey, Value: entriesObject(entries)}}
	var inputs []registry.Input
	for _, ne := range entries {
		for _, in := range ne.inputs {
			if !slices.ContainsFunc(inputs, func(x registry.Input) bool { return x.ID == in.ID }) {
				inputs = append(inputs, in)
			}
		}
	}
	return format.Indent(d.Standalone(doc, filters, inputs))
}

// outName is the file name of an ephemeral output in a temporary directory:
// <profile|custom>-<provider>.json, every character of the profile's name outside
// [A-Za-z0-9._-] made '_' (a name AIWG accepts may hold '/', L14).
func (r *Request) outName() string {
	name := r.Profile
	if name == "" || name == "__all__" {
		name = "custom"
	}
	name = strings.Map(func(c rune) rune {
		if c == '.' || c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return c
		}
		return '_'
	}, name)
	return name + "-" + r.Provider.Name + ".json"
}

// anotherOut is the hint of a refused --out path (C5).
const anotherOut = "choose another --out path"

// sidecarTargets returns the sidecar and its record. The sidecar must be absent or an
// unchanged sidecar mcpwire created, and never the MCP file itself (C5).
// A sidecar in a directory this run created cannot collide with anything, so it gets
// no record (the directory is thrown away after the run).
func (r *Request) sidecarTargets(f fsys.FS, out, side string, rules []string, record bool, list *[]*staged) ([]fsys.Target, error) {
	if side == out {
		return nil, hint.Wrap(fmt.Errorf("the deny-rule sidecar %s would be the MCP file itself", side), anotherOut)
	}
	recPath, canon, err := render.RecordPath(r.Registry.Set().Write().Dir, r.Provider.Dialect().DenyRules().RecordDir(), side)
	if err != nil {
		return nil, err
	}
	body := format.Object{{Key: "permissions", Value: format.Object{{Key: "deny", Value: rules}}}}
	content, err := format.Indent(body)
	if err != nil {
		return nil, err
	}
	// the record, and the staged one of a run interrupted before it (staging.go)
	var recs []*render.PermRecord
	for _, p := range []string{recPath, recPath + render.StagedSuffix} {
		if data, err := f.ReadFile(p); err == nil {
			rec, err := render.DecodePermRecord(p, data)
			if err != nil {
				return nil, err
			}
			recs = append(recs, rec)
		} else if !fsys.IsNotExist(err) {
			return nil, err
		}
	}
	if fi, err := f.Lstat(side); err == nil {
		if oi, err := f.Stat(out); err == nil && os.SameFile(fi, oi) {
			return nil, hint.Wrap(fmt.Errorf("the deny-rule sidecar %s is the same file as %s", side, out), anotherOut)
		}
		data, err := f.ReadFile(side)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(recs, func(rec *render.PermRecord) bool {
			return rec.Sidecar && rec.ContentDigest == render.ContentDigest(data)
		}) {
			return nil, hint.Wrap(fmt.Errorf("%s exists and is not a sidecar mcpwire wrote", side), anotherOut)
		}
	} else if !fsys.IsNotExist(err) {
		return nil, err
	}
	e := &permEdit{path: side, want: rules, sidecar: true, deny: rules, added: rules}
	sideT := fsys.Target{
		Path:  side,
		Check: func() error { return fsys.CheckRealDirs(f, "", side) },
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			return content, 0o600, false, nil
		},
	}
	if !record {
		return []fsys.Target{sideT}, nil
	}
	recT := fsys.Target{
		Path:     recPath,
		DirPerm:  0o700,
		Check:    func() error { return render.CheckRecordDir(f, recPath) },
		CheckKey: render.RecordDirKey(recPath),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			return e.newRecord(canon, content).Encode(), 0o600, false, nil
		},
	}
	st := &staged{}
	*list = append(*list, st)
	stageT := stageTarget(f, recPath+render.StagedSuffix, st, func() ([]byte, error) {
		cur, err := fsys.ReadSnapshot(f, side)
		if err != nil || cur.Exists && bytes.Equal(cur.Data, content) {
			return nil, err // the sidecar does not change
		}
		return e.newRecord(canon, content).Encode(), nil
	})
	return []fsys.Target{stageT, sideT, recT}, nil
}

// entriesObject collects rendered entries into one servers object.
func entriesObject(entries []namedEntry) format.Object {
	o := make(format.Object, 0, len(entries))
	for _, e := range entries {
		o = append(o, format.Member{Key: e.name, Value: e.entry})
	}
	return o
}

// tempDir is $TMPDIR of the request's environment ("" lets the FS choose).
func (r *Request) tempDir() string {
	if r.Env.Getenv != nil {
		return r.Env.Getenv("TMPDIR")
	}
	return ""
}
