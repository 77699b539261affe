package providers

// A dialect holds what each client's file calls things: the members of one
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

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// Dialect is how a client spells its entries and what it does beyond them. render
// sees a client through its table entry (Provider) and this interface, nothing else:
// the types that implement it are this package's own, one per entry shape shared by
// several clients (plain.go, entry.go's helpers) or in the client's own file, and
// every part that not every client has is a method whose default (base) does
// nothing, so that render asks no client what it is.
type Dialect interface {
	// Entry renders one server: the launch members from v, and the filter members
	// from f (nil when the profile has no filter for the server).
	Entry(s *registry.Server, v *Values, f *ServerFilters) format.Object
	// Filters says which tool filters the client can express, and in which members
	// of an entry (F3). It drives the warnings about the rest and KeepFilters.
	Filters() FilterSpec
	// Read reads one entry, given as standard JSON, back: the inverse of Entry
	// (issue 14). References stay as the file spells them (ReadBack reads them),
	// except where the client names variables in members of their own, which Read
	// reads itself.
	Read(entry json.RawMessage) (*Imported, error)

	// Update merges part of an existing entry into the entry that rewrites it
	// (Factory and Antigravity union the disabledTools already in the file).
	Update(path, name string, existing format.Value, entry format.Object) (format.Object, error)
	// MergeKept merges the profile's filters into an existing entry that is kept as
	// it is (OwnerKeepExisting).
	MergeKept(path string, es format.Entries, name string, existing format.Value, f *ServerFilters) error
	// EditFile edits (or reads) the file beyond its entries after they are
	// reconciled: opencode's top-level tools map, Gemini CLI's mcp.allowed.
	EditFile(doc format.Document, es format.Entries, st *FileState) error
	// CheckNames refuses a selection of servers whose names the client cannot tell
	// apart (Claude Code's sanitised permission-rule prefixes, L14), among themselves
	// or with the servers already in the destination (present; nil for output that
	// starts empty).
	CheckNames(names, present []string) error
	// RecordMember is the member whose keys the client's file holds beside the
	// servers and mcpwire records as "MEMBER:KEY" (opencode's tools, C6); "" for
	// none (RecordedMember).
	RecordMember() string
	// ReadFilters reads tool filters kept outside the entries (opencode's top-level
	// tools map), per server.
	ReadFilters(lookup func(path ...string) (json.RawMessage, bool), servers []string) map[string]*ServerFilters
	// ReadInputs reads the inputs a file declares beside its entries, which the
	// client asks the person for (VS Code's inputs, T3).
	ReadInputs(lookup func(path ...string) (json.RawMessage, bool)) []registry.Input
	// DenyRules are the rules of a separate settings file the client takes its deny
	// filters as (Claude Code's permissions.deny, C2); nil when its filters are in
	// its entries.
	DenyRules() DenyRules
	// StartBlockers names what of the client's own state keeps servers of one of its
	// files from starting (status, B4): Claude Code's project approval and trust,
	// Gemini CLI's mcp.allowed/mcp.excluded and trusted folders. The blockers are
	// those of st.Names[i] at i; entries with the same blockers may share one list
	// (K7: 200,000 entries), which must not be changed; nil for none at all.
	StartBlockers(st *StartState) [][]string
	// Standalone is a standalone file's content (inject --ephemeral): doc holds the
	// servers; the client adds what it needs beyond them (opencode's tools map, the
	// declarations of VS Code's inputs) or takes them bare (Amp).
	Standalone(doc format.Object, fs *FilterSet, inputs []registry.Input) format.Object
	// Launch is how to start the client on a standalone file (C5), with the deny
	// rules' settings file when there is one; false when mcpwire does not start it.
	Launch(out, settings string) (Launch, bool)

	// fieldForms are the forms the client resolves in one field, where they differ
	// by field (T1): Goose names variables in env_keys and expands ${VAR} and $VAR in
	// header values only; nil is the client's forms everywhere.
	fieldForms(field string) []string
	// refuse refuses what of a server's values the client cannot take beyond the
	// common checks (Mistral Vibe: one header from a variable; Kimi Code: no header
	// from a variable but the bearer token).
	refuse(s *registry.Server, v *Values) []Problem
	// passesNoVariables: the client names variables in members of their own but
	// passes none to a stdio server (Mistral Vibe), and refuse says so.
	passesNoVariables() bool
}

// DenyRules is a client whose deny filters are rules of a settings file (Claude
// Code's permissions.deny, C2), the files of its table entry's Settings.
type DenyRules interface {
	// Rules renders the filters as rules.
	Rules(fs *FilterSet) []string
	// Owns reports whether a rule belongs to a server (uninject removes it with the
	// server).
	Owns(rule, server string) bool
	// ReadRules reads rules back as filters, for the servers named (import
	// --as-profile).
	ReadRules(rules, servers []string) map[string]*ServerFilters
	// RecordDir is the write layer's directory of the records of the rules mcpwire
	// added (C3).
	RecordDir() string
}

// RuleRecordDirs are the write layer's directories of the records of deny rules, one
// per client that has rules (DenyRules.RecordDir), each once.
func RuleRecordDirs() []string {
	var out []string
	for _, p := range table {
		if dr := p.Dialect().DenyRules(); dr != nil && !slices.Contains(out, dr.RecordDir()) {
			out = append(out, dr.RecordDir())
		}
	}
	return out
}

// base is what a dialect does not do: embedded in every dialect, it gives each part
// that not every client has its default.
type base struct{}

func (base) Update(_, _ string, _ format.Value, entry format.Object) (format.Object, error) {
	return entry, nil
}
func (base) MergeKept(string, format.Entries, string, format.Value, *ServerFilters) error {
	return nil
}
func (base) EditFile(format.Document, format.Entries, *FileState) error { return nil }
func (base) CheckNames(_, _ []string) error                             { return nil }
func (base) RecordMember() string                                       { return "" }
func (base) ReadFilters(func(...string) (json.RawMessage, bool), []string) map[string]*ServerFilters {
	return nil
}
func (base) ReadInputs(func(...string) (json.RawMessage, bool)) []registry.Input { return nil }
func (base) DenyRules() DenyRules                                                { return nil }
func (base) StartBlockers(*StartState) [][]string                                { return nil }
func (base) Standalone(doc format.Object, _ *FilterSet, _ []registry.Input) format.Object {
	return doc
}
func (base) Launch(_, _ string) (Launch, bool)          { return Launch{}, false }
func (base) fieldForms(string) []string                 { return nil }
func (base) refuse(*registry.Server, *Values) []Problem { return nil }
func (base) passesNoVariables() bool                    { return false }

// FileState is what EditFile sees of one file's edit, and what it reports back.
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
	// Inputs are the inputs the entries written ask for (T3), for a client that
	// declares them beside its entries.
	Inputs []registry.Input
	// Force takes over what the person holds that contradicts the edit (--force, C6);
	// Replace: the edit's filters replace those mcpwire wrote (a profile or
	// --clear-tool-filters, not KeepFilters nor uninject).
	Force, Replace bool
}

// StartState is what StartBlockers sees of one client file.
type StartState struct {
	Scope Scope
	// Project is the project directory ("" for a user file without one).
	Project string
	// Path is the client file; Names its server entries.
	Path  string
	Names []string
	// Read returns a member of a JSON file (the client file itself among them) as
	// standard JSON; false when the file or the member is not there.
	Read func(file string, member ...string) (json.RawMessage, bool)
	Env  PathEnv
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
	// Called is what messages call one ("Codex runtime home").
	Called string
}

// Dialect returns the client's dialect, built for this table entry (a view of it
// with another switch, for a file several clients share, gets its own).
func (p *Provider) Dialect() Dialect { return p.dialect(p) }

// RecordedMember reports whether a record key of a file d writes names one of the
// dialect's own entries rather than a server, and which member and key it is. Only
// keys with the dialect's RecordMember prefix are not servers: a server named
// "npm:pkg" (L14) is a server everywhere, and the dialect's CheckNames refuses a
// server whose name starts with its prefix.
func RecordedMember(d Dialect, name string) (member, key string, ok bool) {
	m := d.RecordMember()
	if m == "" {
		return "", "", false
	}
	if key, ok = strings.CutPrefix(name, m+":"); !ok {
		return "", "", false
	}
	return m, key, true
}
