package providers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// opencodeClient is opencode.
var opencodeClient = &Provider{
	Name: "opencode", Display: "opencode", DefaultScope: Project,
	Order:   70,
	dialect: newOpencode,
	Project: &Dest{Base: ProjectDir, Files: []string{"opencode.json", "opencode.jsonc"}},
	User:    &Dest{Base: XDGConfig, Dir: []string{"opencode"}, Files: []string{"opencode.json", "opencode.jsonc"}},
	Format:  format.JSONC, ServersKey: "mcp", Switch: "enabled", Refs: refBraceEnv,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: denyOpencode, Allow: allowOpencode, Binary: "opencode", Ephemeral: true, StandaloneEnv: "OPENCODE_CONFIG",
	Sources:     []string{"anomalyco/opencode packages/web/src/content/docs/mcp-servers.mdx", "anomalyco/opencode packages/web/src/content/docs/config.mdx"},
	Conformance: true,
	Live:        opencodeLive,
}

func init() { register(opencodeClient) }

// opencode is opencode's "mcp" map (JSONC): {type:"local", command:[cmd, …args],
// environment, cwd} and {type:"remote", url, headers}, with the enabled switch. Its
// tool filters are not in the entries but in the top-level "tools" map, whose keys
// mcpwire writes and owns like entries (recorded as "tools:KEY", C6). A standalone
// file is named by OPENCODE_CONFIG (C5). Kilo Code CLI, an opencode fork, reads the
// same (its standalone file is KILO_CONFIG; it has no cwd).
type opencode struct {
	base
	p *Provider
}

func newOpencode(p *Provider) Dialect { return opencode{p: p} }

const (
	opencodeTools    = "tools"
	opencodeToolsRec = opencodeTools + ":" // ownership-record prefix of a tools key
	opencodeEnv      = "environment"
)

func (d opencode) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	var e format.Object
	if s.Remote() {
		e = format.Object{{Key: memberType, Value: "remote"}, {Key: memberURL, Value: v.URL}}
		if len(v.Headers) > 0 {
			e.Set(memberHeaders, v.Headers)
		}
	} else {
		e = format.Object{{Key: memberType, Value: "local"}, {Key: memberCommand, Value: append([]string{v.Command}, v.Args...)}}
		if len(v.Env) > 0 {
			e.Set(opencodeEnv, v.Env)
		}
		if v.Cwd != "" && d.p.CwdKey != "" {
			e.Set(d.p.CwdKey, v.Cwd)
		}
	}
	switchOff(d.p, &e, s, sf)
	return e
}

// opencodeOwn are opencode's members with no registry equivalent.
var opencodeOwn = []string{"timeout", "oauth"}

// Read reads an entry back: type local (command array = command and arguments,
// environment, cwd) or remote (url, headers), and the switch. Its filters are in the
// top-level tools map (ReadFilters).
func (d opencode) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	s := &registry.Server{Type: r.readType(memberType)}
	if cmd := r.strs(memberCommand); len(cmd) > 0 {
		s.Command, s.Args = cmd[0], cmd[1:]
		if len(s.Args) == 0 {
			s.Args = nil
		}
	}
	s.Env = r.strMap(opencodeEnv)
	s.Cwd = r.str(d.p.CwdKey)
	s.URL = r.str(memberURL)
	s.Headers = r.strMap(memberHeaders)
	r.switchOff(d.p, s)
	return r.done(s, nil, opencodeOwn...)
}

// ReadFilters reads the tools map back (the inverse of tools): per server, the keys
// "<server>_<tool>" that are false are denied and those that are true allowed;
// "<server>_*": false is an allowlist when the server has allowed keys, else a
// whole-server deny. A key belongs to the longest server name it starts with.
func (opencode) ReadFilters(lookup func(path ...string) (json.RawMessage, bool), servers []string) map[string]*ServerFilters {
	raw, ok := lookup(opencodeTools)
	if !ok {
		return nil
	}
	keys, values := boolMembers(raw)
	byLen := slices.Clone(servers)
	sort.Slice(byLen, func(i, j int) bool { return len(byLen[i]) > len(byLen[j]) })
	out := map[string]*ServerFilters{}
	wild := map[string]bool{}
	for i, k := range keys {
		on := values[i]
		for _, s := range byLen {
			tool, found := strings.CutPrefix(k, s+"_")
			if !found || tool == "" {
				continue
			}
			sf := out[s]
			if sf == nil {
				sf = &ServerFilters{}
				out[s] = sf
			}
			switch {
			case tool == "*" && !on:
				wild[s] = true
			case on:
				sf.Allow = append(sf.Allow, tool)
			default:
				sf.Deny = append(sf.Deny, tool)
			}
			break
		}
	}
	for s, sf := range out {
		switch {
		case !wild[s]:
			sf.Allow = nil // true keys without "<server>_*": false restrict nothing
		case sf.Allow == nil:
			sf.DenyAll = true
		}
	}
	return out
}

// boolMembers returns the members of a JSON object whose values are true or false, in
// their order (opencode uses the last rule that matches).
func boolMembers(raw json.RawMessage) (keys []string, values []bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys, values
		}
		var v any
		if dec.Decode(&v) != nil {
			return keys, values
		}
		if b, ok := v.(bool); ok {
			keys, values = append(keys, t.(string)), append(values, b)
		}
	}
	return keys, values
}

// Filters: deny and allow, globs included, in the top-level tools map.
func (opencode) Filters() FilterSpec { return FilterSpec{Deny: true, Allow: true, DenyAll: true} }

// toolName is how opencode names a server's or a tool's part of a tool key: every
// character outside [A-Za-z0-9_-] becomes "_" (opencode 1.18: the MCP tool "get.x" of
// server "my.server" is my_server_get_x). A "*" of a tool pattern stays: the tools map
// takes globs.
func toolName(s string, glob bool) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || glob && r == '*' {
			return r
		}
		return '_'
	}, s)
}

// toolKey is the tools-map key of a server's tool (or tool pattern).
func toolKey(server, tool string) string { return toolName(server, false) + "_" + toolName(tool, true) }

// CheckNames refuses servers whose names opencode makes alike in its tool names (L14):
// "my.server" and "my_server" both give my_server_<tool>, so a tools key written for
// one would also switch the other's tools off.
// A server named "tools:…" is refused too: the ownership record keeps mcpwire's tools
// keys under that prefix (RecordMember), and such a server could not be told from them.
func (opencode) CheckNames(names, present []string) error {
	for _, n := range names {
		if strings.HasPrefix(n, opencodeToolsRec) {
			return hint.Wrap(fmt.Errorf("server %q cannot be written to opencode: mcpwire records its tools keys as %q", n, opencodeToolsRec+"KEY"),
				"rename the server in its layer file")
		}
	}
	return checkClashes(names, present, func(n string) string { return toolName(n, false) + "_" }, "opencode cannot tell these servers' tools apart")
}

// RecordMember is the member whose keys mcpwire records beside the servers: "tools".
func (opencode) RecordMember() string { return opencodeTools }

// tools renders filters as the tools map (F3): for each allowlist server
// "<server>_*": false first, then the deny keys (false), then the allowed tools
// (true). A key both allowed and denied stays denied.
func tools(fs *FilterSet) format.Object {
	if fs == nil {
		return nil
	}
	var wild, deny, allow format.Object
	denied := map[string]bool{}
	for _, n := range slices.Sorted(maps.Keys(fs.Servers)) {
		if fs.Servers[n].Allow != nil {
			k := toolKey(n, "*")
			wild.Set(k, false)
			denied[k] = true
		}
	}
	for _, n := range slices.Sorted(maps.Keys(fs.Servers)) {
		sf := fs.Servers[n]
		if k := toolKey(n, "*"); sf.DenyAll && !denied[k] {
			deny.Set(k, false)
			denied[k] = true
		}
		for _, t := range sf.Deny {
			if k := toolKey(n, t); !denied[k] {
				deny.Set(k, false)
				denied[k] = true
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(fs.Servers)) {
		for _, t := range fs.Servers[n].Allow {
			if k := toolKey(n, t); !denied[k] {
				allow.Set(k, true)
			}
		}
	}
	return append(append(wild, deny...), allow...)
}

// Standalone adds the tools map to a standalone file.
func (opencode) Standalone(doc format.Object, fs *FilterSet, _ []registry.Input) format.Object {
	if t := tools(fs); len(t) > 0 {
		doc = append(doc, format.Member{Key: opencodeTools, Value: t})
	}
	return doc
}

// Launch names the standalone file with the client's variable (OPENCODE_CONFIG,
// KILO_CONFIG); the client merges it with the person's own configs, so a session
// cannot use it.
func (d opencode) Launch(out, _ string) (Launch, bool) {
	return Launch{Env: []string{d.p.StandaloneEnv, out}, Binary: d.p.Binary}, true
}

// EditFile writes the profile's tools keys, removes those mcpwire wrote that the
// profile no longer wants, and those of the servers the edit removed.
func (d opencode) EditFile(doc format.Document, es format.Entries, st *FileState) error {
	if err := d.applyTools(doc, st); err != nil {
		return err
	}
	if err := d.dropTools(doc, es, st, func(owner string) bool { return slices.Contains(st.Dropped, owner) }); err != nil {
		return err
	}
	if !st.Replace {
		return nil
	}
	// a profile's filters replace mcpwire's: its keys the profile does not want go,
	// except those of a server that stays in the file without being selected (B7)
	want := tools(st.Filters)
	return d.dropTools(doc, es, st, func(owner string) bool {
		stays := slices.Contains(es.Names(), owner) && !slices.Contains(st.Set, owner)
		return !slices.Contains(st.Dropped, owner) && !stays
	}, want)
}

// applyTools moves mcpwire's tools keys after the existing keys, in order (opencode
// uses the last matching rule).
//
// A key the person already had is never mcpwire's (as with Claude's deny rules, C4).
// With the value the profile wants, it is moved after the existing keys like
// mcpwire's own (its value stays; uninject leaves it). With another value it
// contradicts the profile's filter: the injection is refused naming it, and --force
// takes it over (it is then mcpwire's, and uninject removes it). A key mcpwire wrote
// that changed since is the person's in the same way.
func (d opencode) applyTools(doc format.Document, st *FileState) error {
	want := tools(st.Filters)
	if len(want) == 0 {
		return nil
	}
	if v, ok := doc.Lookup(opencodeTools); ok && v.Kind() != format.KindObject {
		return fmt.Errorf("%s: %w", st.Path, jsonc.NotObject(v.Kind(), opencodeTools))
	}
	var held []string
	for _, m := range want {
		raw, _ := format.Marshal(m.Value)
		cur, had := doc.Lookup(opencodeTools, m.Key)
		mine := !had || st.Record != nil && st.Record[opencodeToolsRec+m.Key] == format.Digest(cur.JSON())
		if !mine && format.Digest(cur.JSON()) != format.Digest(raw) {
			if !st.Force {
				held = append(held, m.Key)
				continue
			}
			mine = true // taken over
		}
		if _, err := doc.Delete([]string{opencodeTools, m.Key}); err != nil {
			return err
		}
		if err := doc.Set([]string{opencodeTools, m.Key}, m.Value); err != nil {
			return err
		}
		if mine {
			st.Wrote[opencodeToolsRec+m.Key] = format.Digest(raw)
		}
	}
	if len(held) > 0 {
		return &heldToolsError{path: st.Path, keys: held}
	}
	return nil
}

// heldToolsError refuses tools keys of the person's that contradict the profile.
type heldToolsError struct {
	path string
	keys []string
}

func (e *heldToolsError) Error() string {
	return fmt.Sprintf("%s: tools keys %s hold other values than the profile's tool filters, and mcpwire did not write them (or they changed since it did): the filters would not apply", e.path, strings.Join(e.keys, ", "))
}

// Hints says how to go on.
func (e *heldToolsError) Hints() []string {
	return []string{"add --force to take them over (uninject then removes them), or change or remove them by hand"}
}

// dropTools removes the tools keys mcpwire wrote whose server gone says goes (and,
// given want, that the profile does not want), when nobody changed them (C6). A key
// belongs to the server with the longest name it starts with (<server>_, as opencode
// names tools), among the servers removed and those still in the file.
func (d opencode) dropTools(doc format.Document, es format.Entries, st *FileState, gone func(owner string) bool, want ...format.Object) error {
	if st.Record == nil {
		return nil
	}
	servers := append(slices.Clone(st.Dropped), es.Names()...)
	var keys, kept []string
	for entry := range st.Record {
		if k, ok := strings.CutPrefix(entry, opencodeToolsRec); ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if len(want) > 0 {
			if _, wanted := want[0].Get(k); wanted {
				continue
			}
		}
		owner := ""
		for _, s := range servers {
			if strings.HasPrefix(k, toolName(s, false)+"_") && len(s) > len(owner) {
				owner = s
			}
		}
		if !gone(owner) {
			continue
		}
		cur, has := doc.Lookup(opencodeTools, k)
		switch {
		case !has:
		case format.Digest(cur.JSON()) != st.Record[opencodeToolsRec+k]:
			kept = append(kept, k) // the person's now: said once, and no longer recorded
		default:
			if _, err := doc.Delete([]string{opencodeTools, k}); err != nil {
				return err
			}
		}
		st.Forget = append(st.Forget, opencodeToolsRec+k)
	}
	if len(kept) > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s: left tool keys %s in %s: they changed since mcpwire wrote them, so they are yours now", d.p.Name, strings.Join(kept, ", "), st.Path))
	}
	return nil
}

// denyOpencode is how the client takes deny filters.
const denyOpencode DenyStyle = "tools map SERVER_TOOL: false"

// allowOpencode is how the client takes allow filters.
const allowOpencode AllowStyle = "tools map SERVER_*: false then SERVER_TOOL: true"

// refBraceEnv is how the client spells a reference to a variable (V4).
var refBraceEnv = policy.Spelling{Style: "{env:VAR}", Open: "{env:", Close: "}"}

// opencode's and Kilo's liveness (opencode 1.18.33 and kilo 7.7.7 tested,
// docs/explain.md): the project's files, looked for from the start directory up to
// the git work tree's top (or the filesystem's root outside one), are layered over
// the user's, a server's entry merged member by member, the nearest winning
// ("enabled" included); no trust or approval; an entry it cannot use makes it skip
// the whole file. Kilo reads the project's opencode.json too, under its own kilo.json.
func opencodeLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkGit},
			{At: At{Scope: User}},
		},
		Merge:         true,
		DropsBadFiles: true,
	}
}
