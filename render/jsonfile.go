package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/fsys"
	"github.com/mcpwire/mcpwire/render/jsonc"
)

// namedEntry is one server entry to write.
type namedEntry struct {
	name  string
	entry object   // JSON providers
	toml  []tomlKV // TOML providers
}

// fileEdit is the change to one client file: entries to write or remove, with the
// ownership record that says which existing entries are mcpwire's (C6).
type fileEdit struct {
	p      *providers.Provider
	path   string
	set    []namedEntry
	remove []string
	// tools are opencode's top-level tool keys, moved after existing keys in order.
	tools object
	// filters per server, for merging into kept Antigravity entries.
	filters *filterSet
	record  *ownRecord
	force   bool
	// keepFilters carries the filter members of rewritten entries over (KeepFilters).
	keepFilters bool

	// Results of the last edit.
	wrote   map[string]string // name → digest of what was written
	dropped []string          // names removed
	kept    []string          // warnings about entries left in place
	// forget are record entries other than servers to drop (opencode tool keys);
	// keptTools are mcpwire's tool keys left in place because they changed.
	forget, keptTools []string
	// heldTools are opencode tool keys the profile sets that the file already has with
	// another value, which mcpwire did not write (or that changed since): left as
	// they are (see toolWarning).
	heldTools []string
	// unlisted are servers written that Gemini CLI's mcp.allowed/mcp.excluded keep
	// from starting (see unlistedWarning).
	unlisted []string
}

// toolEntry prefixes the ownership-record entries of opencode's top-level tool keys
// (server names cannot contain ':').
const toolEntry = "tools:"

// foreignError is a same-named entry mcpwire did not write (C6).
type foreignError struct {
	path   string
	names  []string
	strict bool
}

func (e *foreignError) Error() string {
	if e.strict {
		return fmt.Sprintf("%s: %s is operator-owned or modified; choose a different name", e.path, strings.Join(e.names, ", "))
	}
	return fmt.Sprintf("%s already has entries mcpwire did not write or that changed since it wrote them: %s", e.path, strings.Join(e.names, ", "))
}

func (e *foreignError) Hints() []string {
	if e.strict {
		return nil
	}
	return []string{"add --force to replace them, or give the servers other names"}
}

// ownership says how an existing entry stands.
type ownership int

const (
	owned     ownership = iota // written by mcpwire and unchanged since
	identical                  // not mcpwire's, but exactly what mcpwire would write
	foreign                    // not mcpwire's, or changed since mcpwire wrote it
)

func (e *fileEdit) standing(name string, curDigest, newDigest string) ownership {
	switch {
	case e.record != nil && e.record.Entries[name] == curDigest:
		return owned
	case curDigest == newDigest:
		return identical
	}
	return foreign
}

// emptyJSON is the content of a new JSON client file before edits.
var emptyJSON = []byte("{\n}\n")

// utf8BOM is the UTF-8 byte order mark some editors (VS Code-based ones) start JSON
// files with.
var utf8BOM = []byte("\xef\xbb\xbf")

// splitBOM splits a leading UTF-8 byte order mark off src: the JSON parser refuses it,
// and the file keeps it when it is written back (withBOM).
func splitBOM(src []byte) (bom, rest []byte) {
	if bytes.HasPrefix(src, utf8BOM) {
		return utf8BOM, src[len(utf8BOM):]
	}
	return nil, src
}

// withBOM puts back the byte order mark splitBOM took off.
func withBOM(bom, data []byte) []byte {
	if len(bom) == 0 {
		return data
	}
	return append(slices.Clip(bom), data...)
}

// applyJSON edits a JSON/JSONC client file.
func (e *fileEdit) applyJSON(cur fsys.Snapshot) ([]byte, error) {
	e.wrote, e.dropped, e.kept, e.forget, e.keptTools, e.heldTools = map[string]string{}, nil, nil, nil, nil, nil
	e.unlisted = nil
	if err := e.reloadRecord(); err != nil {
		return nil, err
	}
	bom, src := splitBOM(cur.Data)
	if !cur.Exists || len(bytes.TrimSpace(src)) == 0 {
		src = emptyJSON
	}
	doc, err := jsonc.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid JSON: %w", e.path, err)
	}
	if doc.Root().Kind() != jsonc.Object {
		return nil, fmt.Errorf("%s: %w", e.path, jsonc.NotObject(doc.Root().Kind()))
	}
	key := e.p.ServersKey
	if v, ok := doc.Lookup(key); ok && v.Kind() != jsonc.Object {
		return nil, fmt.Errorf("%s: %w", e.path, jsonc.NotObject(v.Kind(), key))
	}
	var foreignNames []string
	for _, ne := range e.set {
		if existing, has := doc.Lookup(key, ne.name); has && e.keepFilters {
			ne.entry = carryJSON(e.p, ne.entry, existing)
		}
		raw, err := marshal(ne.entry)
		if err != nil {
			return nil, err
		}
		existing, has := doc.Lookup(key, ne.name)
		if has {
			st := e.standing(ne.name, digest(existing.JSON()), digest(raw))
			// Antigravity keeps an entry mcpwire did not write; one it wrote and
			// nobody changed is updated like anywhere else, so that its record follows.
			if e.p.Owner == providers.OwnerKeepExisting && st != owned {
				if err := e.mergeKept(doc, ne.name, existing); err != nil {
					return nil, err
				}
				continue
			}
			switch st {
			case identical:
				continue
			case foreign:
				if e.p.Owner == providers.OwnerStrict || !e.force {
					foreignNames = append(foreignNames, ne.name)
					continue
				}
			}
			if e.p.UnionDisabled {
				if raw, err = unionDisabled(e.path, key, ne.name, existing, ne.entry); err != nil {
					return nil, err
				}
			}
		}
		if err := doc.Set([]string{key, ne.name}, raw); err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
		e.wrote[ne.name] = digest(raw)
	}
	if len(foreignNames) > 0 {
		return nil, &foreignError{path: e.path, names: foreignNames, strict: e.p.Owner == providers.OwnerStrict}
	}
	for _, name := range e.remove {
		existing, has := doc.Lookup(key, name)
		if !has {
			continue
		}
		if e.record == nil || e.record.Entries[name] != digest(existing.JSON()) {
			e.kept = append(e.kept, name)
			continue
		}
		if _, err := doc.Delete([]string{key, name}); err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
		e.dropped = append(e.dropped, name)
	}
	if err := e.applyTools(doc); err != nil {
		return nil, err
	}
	if err := e.dropTools(doc); err != nil {
		return nil, err
	}
	if e.p.Shape == providers.ShapeGemini {
		e.unlisted = geminiUnlisted(doc, e.set)
	}
	return withBOM(bom, doc.Bytes()), nil
}

// geminiUnlisted names the servers Gemini CLI will not start although they are in the
// file: missing from a non-empty mcp.allowed list, or named in mcp.excluded.
func geminiUnlisted(doc *jsonc.Doc, set []namedEntry) []string {
	list := func(name string) ([]string, bool) {
		v, ok := doc.Lookup("mcp", name)
		var out []string
		if !ok || v.Kind() != jsonc.Array || json.Unmarshal(v.JSON(), &out) != nil {
			return nil, false
		}
		return out, true
	}
	allowed, hasAllowed := list("allowed")
	excluded, _ := list("excluded")
	var out []string
	for _, ne := range set {
		if (hasAllowed && len(allowed) > 0 && !slices.Contains(allowed, ne.name)) || slices.Contains(excluded, ne.name) {
			out = append(out, ne.name)
		}
	}
	return out
}

// mergeKept merges the profile's filters into an existing Antigravity entry, keeping
// its launch configuration (C6).
func (e *fileEdit) mergeKept(doc *jsonc.Doc, name string, existing jsonc.Value) error {
	key := e.p.ServersKey
	if existing.Kind() != jsonc.Object {
		return fmt.Errorf("%s: %w", e.path, jsonc.NotObject(existing.Kind(), key, name))
	}
	sf := e.filters.of(name)
	if sf == nil {
		return nil
	}
	tools, _ := exact(sf.Deny)
	if len(tools) > 0 {
		merged, err := existingTools(e.path, key, name, existing)
		if err != nil {
			return err
		}
		merged = appendNew(merged, tools)
		raw, _ := marshal(merged)
		if err := doc.Set([]string{key, name, "disabledTools"}, raw); err != nil {
			return fmt.Errorf("%s: %w", e.path, err)
		}
	}
	if sf.DenyAll {
		if err := doc.Set([]string{key, name, "disabled"}, []byte("true")); err != nil {
			return fmt.Errorf("%s: %w", e.path, err)
		}
	}
	return nil
}

// existingTools reads an entry's disabledTools array; a non-array is refused.
func existingTools(path, key, name string, existing jsonc.Value) ([]string, error) {
	v, ok := existing.Member("disabledTools")
	if !ok {
		return nil, nil
	}
	out, ok := stringArray(v)
	if !ok {
		return nil, fmt.Errorf("%s: %s.%s.disabledTools must be an array of tool names", path, key, name)
	}
	return out, nil
}

// unionDisabled unions the new entry's disabledTools with the existing array.
func unionDisabled(path, key, name string, existing jsonc.Value, entry object) ([]byte, error) {
	if existing.Kind() != jsonc.Object {
		return marshal(entry)
	}
	old, err := existingTools(path, key, name, existing)
	if err != nil || len(old) == 0 {
		if err != nil {
			return nil, err
		}
		return marshal(entry)
	}
	cur, _ := entry.get("disabledTools")
	tools, _ := cur.([]string)
	merged := appendNew(slices.Clone(old), tools)
	e := slices.Clone(entry)
	e.set("disabledTools", merged)
	return marshal(e)
}

// applyTools moves mcpwire's opencode tool keys after the existing keys, in order
// (opencode uses the last matching rule).
//
// A key the person already had is never mcpwire's (as with Claude's deny rules, C4).
// With the value the profile wants, it is moved after the existing keys like
// mcpwire's own (its value stays; uninject leaves it). With another value mcpwire
// never changes it, since uninject could not give that value back: it stays where
// it is, and toolWarning names it (the profile's filter is then not applied for it).
// A key mcpwire wrote that changed since is the person's in the same way.
func (e *fileEdit) applyTools(doc *jsonc.Doc) error {
	if len(e.tools) == 0 {
		return nil
	}
	if v, ok := doc.Lookup("tools"); ok && v.Kind() != jsonc.Object {
		return fmt.Errorf("%s: %w", e.path, jsonc.NotObject(v.Kind(), "tools"))
	}
	for _, m := range e.tools {
		raw, _ := marshal(m.Value)
		cur, had := doc.Lookup("tools", m.Key)
		mine := !had || e.record != nil && e.record.Entries[toolEntry+m.Key] == digest(cur.JSON())
		if !mine && digest(cur.JSON()) != digest(raw) {
			e.heldTools = append(e.heldTools, m.Key)
			continue
		}
		if _, err := doc.Delete([]string{"tools", m.Key}); err != nil {
			return fmt.Errorf("%s: %w", e.path, err)
		}
		if err := doc.Set([]string{"tools", m.Key}, raw); err != nil {
			return fmt.Errorf("%s: %w", e.path, err)
		}
		if mine {
			e.wrote[toolEntry+m.Key] = digest(raw)
		}
	}
	return nil
}

// toolWarning names the opencode tool keys applyTools left as they are because their
// value is the person's; "" when there are none.
func (e *fileEdit) toolWarning() string {
	if len(e.heldTools) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: left tools keys %s in %s as they are: mcpwire did not write them, or they changed since it wrote them, so the profile's filter for them is not applied; change or remove them by hand if you want it",
		e.p.Name, strings.Join(e.heldTools, ", "), e.path)
}

// dropTools removes the opencode tool keys mcpwire wrote for the servers removed by
// this edit, when nobody changed them (C6). A key belongs to the server with the
// longest name it starts with (<server>_), among the servers removed and those still
// in the file.
func (e *fileEdit) dropTools(doc *jsonc.Doc) error {
	if len(e.dropped) == 0 || e.record == nil {
		return nil
	}
	servers := slices.Clone(e.dropped)
	if v, ok := doc.Lookup(e.p.ServersKey); ok {
		servers = append(servers, v.Keys()...)
	}
	var keys []string
	for entry := range e.record.Entries {
		if k, ok := strings.CutPrefix(entry, toolEntry); ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		owner := ""
		for _, s := range servers {
			if strings.HasPrefix(k, s+"_") && len(s) > len(owner) {
				owner = s
			}
		}
		if !slices.Contains(e.dropped, owner) {
			continue
		}
		cur, has := doc.Lookup("tools", k)
		switch {
		case !has:
		case digest(cur.JSON()) != e.record.Entries[toolEntry+k]:
			e.keptTools = append(e.keptTools, k)
			continue
		default:
			if _, err := doc.Delete([]string{"tools", k}); err != nil {
				return fmt.Errorf("%s: %w", e.path, err)
			}
		}
		e.forget = append(e.forget, toolEntry+k)
	}
	return nil
}

// unlistedWarning names the servers written that the file's own mcp.allowed or
// mcp.excluded lists keep Gemini CLI from starting; mcpwire does not edit those lists,
// which are the person's choice.
func (e *fileEdit) unlistedWarning() string {
	if len(e.unlisted) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s will not start: %s lists mcp.allowed without them, or names them in mcp.excluded; edit those lists if you want them",
		e.p.Name, strings.Join(e.unlisted, ", "), e.path)
}
