// Package dialect holds what each client's file calls things: the members of one
// server entry, its tool-filter members, the switch that turns a server off, and what
// a client needs beyond its entries (opencode's top-level tools map, Gemini CLI's
// mcp.allowed, Claude Code's deny rules, Grok Build's marker lines, Codex's runtime
// homes). One file per entry shape holds one dialect; For picks it by the provider
// table's Shape. Nothing outside this package branches on a client.
//
// A dialect is built for one provider, so it reads that provider's table entry (its
// URL and cwd members, its switch, its reference syntax) without being told.
//
// Where the next clients go: a new entry shape is a file here with a constructor in
// shapes; a client that shares a shape is only a table entry. Container shapes (a
// list keyed by name, a flat dotted key, a nested key) are format.Container values,
// and formats are internal/format adapters, so neither needs a dialect. The reverse
// direction (issue 14: a client entry back to a registry server, and the state of an
// entry for status) belongs in the same files, as methods beside Entry that read the
// same member names.
package dialect

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// Dialect is one client entry shape.
type Dialect interface {
	// Entry renders one server: the launch members from v, and the filter members
	// from f (nil when the profile has no filter for the server).
	Entry(s *registry.Server, v *Values, f *ServerFilters) format.Object
	// Filters says which tool filters the client can express, and in which members
	// of an entry (F3). It drives the warnings about the rest and KeepFilters.
	Filters() FilterSpec
}

// The optional parts of a dialect. render asks for them with a type assertion.
type (
	// Updater merges part of an existing entry into the entry that rewrites it
	// (Factory and Antigravity union the disabledTools already in the file).
	Updater interface {
		Update(path, name string, existing format.Value, entry format.Object) (format.Object, error)
	}
	// Keeper merges the profile's filters into an existing entry that is kept as it
	// is (providers.OwnerKeepExisting: Antigravity).
	Keeper interface {
		MergeKept(path string, es format.Entries, name string, existing format.Value, f *ServerFilters) error
	}
	// Framer names the comment lines around every entry mcpwire writes; only an
	// entry inside them can be mcpwire's (providers.OwnerMarkers: Grok Build).
	Framer interface {
		Frame() *format.Frame
	}
	// FileEditor edits (or reads) the file beyond its entries after they are
	// reconciled: opencode's top-level tools map, Gemini CLI's mcp.allowed.
	FileEditor interface {
		EditFile(doc format.Document, es format.Entries, st *FileState) error
	}
	// Standaloner adds to a standalone file (inject --ephemeral) what the client
	// needs beyond its servers (opencode's tools map).
	Standaloner interface {
		Standalone(doc format.Object, fs *FilterSet) format.Object
	}
	// DenyRuler writes deny filters as rules of a separate settings file (Claude
	// Code: permissions.deny, C2), not as entry members.
	DenyRuler interface {
		// DenyRules renders the filters as rules.
		DenyRules(fs *FilterSet) []string
		// Owns reports whether a rule belongs to a server (uninject removes it with
		// the server).
		Owns(rule, server string) bool
	}
	// Launcher starts the client on a standalone file (C5): inject --ephemeral
	// prints the line, session runs it when the client loads only that file.
	Launcher interface {
		Launch(out, settings string) Launch
	}
	// RuntimeHomer is a client whose standalone output is a whole home directory
	// (Codex, X1), not a file.
	RuntimeHomer interface {
		RuntimeHome() RuntimeHome
	}
	// NameChecker refuses a selection of servers whose names the client cannot tell
	// apart (Claude Code's sanitised permission-rule prefixes, L14), among themselves
	// or with the servers already in the destination (present; nil for output that
	// starts empty).
	NameChecker interface {
		CheckNames(names, present []string) error
	}
	// RuleReader reads a DenyRuler's rules back as filters (import --as-profile).
	RuleReader interface {
		ReadRules(rules, servers []string) map[string]*ServerFilters
	}
	// StartChecker names what of the client's own state keeps servers of one of its
	// files from starting (status, B4): Claude Code's project approval and trust,
	// Gemini CLI's mcp.allowed/mcp.excluded and trusted folders. The blockers are
	// those of st.Names[i] at i; entries with the same blockers may share one list
	// (K7: 200,000 entries), which must not be changed.
	StartChecker interface {
		StartBlockers(st *StartState) [][]string
	}
	// NamedRefs is a client that takes references by variable name in members of
	// their own (Codex env_vars, env_http_headers, bearer_token_env_var) instead of a
	// placeholder in values (V4).
	NamedRefs interface {
		RefsByName()
	}
	// NoStdioVariables is a client that names variables in members of their own but
	// passes none to a stdio server (Mistral Vibe): its Refuser refuses every envFrom.
	NoStdioVariables interface {
		NoStdioVariables()
	}
	// FieldFormer is a client whose forms differ by field (T1): Goose names variables
	// in env_keys, and expands ${VAR} and $VAR inside header values only. The first
	// form is the one mcpwire writes there.
	FieldFormer interface {
		FieldForms(field string) []string
	}
	// Prompter is a client that asks the person for the inputs its file declares beside
	// the entries (VS Code's inputs, T3).
	Prompter interface {
		// ReadInputs reads the declarations of a file.
		ReadInputs(lookup func(path ...string) (json.RawMessage, bool)) []registry.Input
		// StandaloneInputs adds the declarations to a standalone file.
		StandaloneInputs(doc format.Object, inputs []registry.Input) format.Object
	}
	// Refuser refuses what of a server's values the client cannot take beyond the
	// common checks (Mistral Vibe: one header from a variable, none for stdio; Kimi
	// Code: no header from a variable but the bearer token).
	Refuser interface {
		Refuse(s *registry.Server, v *Values) []Problem
	}
)

// FileState is what a FileEditor sees of one file's edit, and what it reports back.
type FileState struct {
	// Path is the file.
	Path string
	// Filters are the edit's filters (empty under KeepFilters and for uninject).
	Filters *FilterSet
	// Record holds the ownership record's entries (nil when there is none).
	Record map[string]string
	// Set are the servers the edit writes; Dropped those it removed.
	Set, Dropped []string
	// Wrote and Forget are record entries to add (with their digests) and to drop.
	Wrote  map[string]string
	Forget []string
	// Warnings are said once the file is written.
	Warnings []string
	// Inputs are the inputs the entries written ask for (T3), for a Prompter to
	// declare.
	Inputs []registry.Input
	// Force takes over what the person holds that contradicts the edit (--force, C6);
	// Replace: the edit's filters replace those mcpwire wrote (a profile or
	// --clear-tool-filters, not KeepFilters nor uninject).
	Force, Replace bool
}

// StartState is what a StartChecker sees of one client file.
type StartState struct {
	Scope providers.Scope
	// Project is the project directory ("" for a user file without one).
	Project string
	// Path is the client file; Names its server entries.
	Path  string
	Names []string
	// Read returns a member of a JSON file (the client file itself among them) as
	// standard JSON; false when the file or the member is not there.
	Read func(file string, member ...string) (json.RawMessage, bool)
	Env  providers.PathEnv
}

// strings reads an array of strings member of a file.
func (st *StartState) strings(file string, member ...string) []string {
	raw, ok := st.Read(file, member...)
	var out []string
	if !ok || json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// blockerLists makes the blockers of many entries, most of which have the same: each
// distinct list is made once and shared, its capacity cut so that an append copies it.
type blockerLists struct {
	lists map[string][]string
	key   []byte
}

// of returns the shared list of blockers, nil for none.
func (b *blockerLists) of(blockers ...string) []string {
	if len(blockers) == 0 {
		return nil
	}
	b.key = b.key[:0]
	for _, s := range blockers {
		b.key = append(append(b.key, s...), 0)
	}
	if l, ok := b.lists[string(b.key)]; ok {
		return l
	}
	if b.lists == nil {
		b.lists = map[string][]string{}
	}
	l := slices.Clip(slices.Clone(blockers))
	b.lists[string(b.key)] = l
	return l
}

// set reads a list of strings of a file as a set; nil when it is not there.
func (st *StartState) set(file string, member ...string) map[string]bool {
	list := st.strings(file, member...)
	if len(list) == 0 {
		return nil
	}
	out := make(map[string]bool, len(list))
	for _, s := range list {
		out[s] = true
	}
	return out
}

// flag reads a boolean member of a file; false when it is not there.
func (st *StartState) flag(file string, member ...string) bool {
	raw, ok := st.Read(file, member...)
	var v bool
	return ok && json.Unmarshal(raw, &v) == nil && v
}

// Launch is how to start a client on standalone output.
type Launch struct {
	// Env are variables set for the client, in order (name, value pairs).
	Env []string
	// Binary is the client's command; Args its arguments before the person's.
	Binary string
	Args   []string
	// Exact: the client loads only the standalone output, none of the person's own
	// MCP configs (session needs that).
	Exact bool
}

// String is the launch as a person types it in a POSIX shell.
func (l Launch) String() string {
	var parts []string
	for i := 0; i+1 < len(l.Env); i += 2 {
		parts = append(parts, l.Env[i]+"="+shellQuote(l.Env[i+1]))
	}
	parts = append(parts, l.Binary)
	for _, a := range l.Args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,=@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// RuntimeHome is the layout of a client's runtime home (X1).
type RuntimeHome struct {
	// Linked are entries of the client's own home a runtime home shares by symlink
	// when they exist; Login is the one of them holding the person's login (X3).
	Linked []string
	Login  string
	// Env are the variables a session sets to the runtime home; LineEnv the one the
	// printed launch line sets.
	Env     []string
	LineEnv string
}

// shapes builds the dialect of each entry shape.
var shapes = map[providers.Shape]func(p *providers.Provider) Dialect{
	providers.ShapeGrok:     newGrok,
	providers.ShapeCodex:    newCodex,
	providers.ShapeOpencode: newOpencode,
	providers.ShapeGemini:   newGemini,
	providers.ShapeClaude:   newClaude,
	providers.ShapeOMP:      newOMP,
	providers.ShapeVSCode:   newVSCode,
	providers.ShapeFactory:  newFactory,
	providers.ShapePlain:    newPlain,
	providers.ShapeManual:   newManual,
	providers.ShapeCopilot:  newCopilot,
	providers.ShapeQwen:     newQwen,
	providers.ShapeAuggie:   newAuggie,
	providers.ShapeAmp:      newAmp,
	providers.ShapeQoder:    newQoder,
	providers.ShapeGoose:    newGoose,
	providers.ShapeContinue: newContinue,
	providers.ShapeVibe:     newVibe,
	providers.ShapeKimi:     newKimi,
	providers.ShapeCrush:    newCrush,
}

// For returns the dialect of a provider. Every shape of the table has one (a test
// says so), so a missing one is a programming error.
func For(p *providers.Provider) Dialect {
	mk, ok := shapes[p.Shape]
	if !ok {
		panic("dialect: no dialect for shape " + string(p.Shape) + " (" + p.Name + ")")
	}
	return mk(p)
}

// MemberRecorder is a dialect that owns entries of its own beside the servers (opencode's
// tools keys, C6) and records them in the file's ownership record under RecordMember()+":"+KEY.
// Only such a dialect's record keys with that prefix are not servers: a server named
// "npm:pkg" (L14) is a server everywhere, and the dialect's CheckNames refuses a server
// whose name starts with its prefix.
type MemberRecorder interface {
	RecordMember() string
}

// RecordedMember reports whether a record key of a file d writes names one of the
// dialect's own entries rather than a server, and which member and key it is.
func RecordedMember(d Dialect, name string) (member, key string, ok bool) {
	mr, is := d.(MemberRecorder)
	if !is {
		return "", "", false
	}
	if key, ok = strings.CutPrefix(name, mr.RecordMember()+":"); !ok {
		return "", "", false
	}
	return mr.RecordMember(), key, true
}
