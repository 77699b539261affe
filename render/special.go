package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/format"
)

// toolEntry prefixes the ownership-record entries of opencode's top-level tool keys
// (server names cannot contain ':').
const toolEntry = "tools:"

// geminiUnlisted names the servers Gemini CLI will not start although they are in the
// file: missing from a non-empty mcp.allowed list, or named in mcp.excluded.
func geminiUnlisted(doc format.Document, set []namedEntry) []string {
	list := func(name string) ([]string, bool) {
		v, ok := doc.Lookup("mcp", name)
		var out []string
		if !ok || v.Kind() != format.KindArray || json.Unmarshal(v.JSON(), &out) != nil {
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
func (e *fileEdit) mergeKept(es format.Entries, name string, existing format.Value) error {
	key := e.p.ServersKey
	if existing.Kind() != format.KindObject {
		return fmt.Errorf("%s: %s.%s must be an object, not %s", e.path, key, name, existing.Kind())
	}
	sf := e.filters.Of(name)
	if sf == nil {
		return nil
	}
	tools, _ := dialect.Exact(sf.Deny)
	if len(tools) > 0 {
		merged, err := existingTools(e.path, key, name, existing)
		if err != nil {
			return err
		}
		if err := es.SetMember(name, "disabledTools", dialect.AppendNew(merged, tools)); err != nil {
			return err
		}
	}
	if sf.DenyAll {
		if err := es.SetMember(name, "disabled", true); err != nil {
			return err
		}
	}
	return nil
}

// existingTools reads an entry's disabledTools array; a non-array is refused.
func existingTools(path, key, name string, existing format.Value) ([]string, error) {
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
func unionDisabled(path, key, name string, existing format.Value, entry format.Object) (format.Object, error) {
	if existing.Kind() != format.KindObject {
		return entry, nil
	}
	old, err := existingTools(path, key, name, existing)
	if err != nil || len(old) == 0 {
		return entry, err
	}
	cur, _ := entry.Get("disabledTools")
	tools, _ := cur.([]string)
	merged := dialect.AppendNew(slices.Clone(old), tools)
	e := slices.Clone(entry)
	e.Set("disabledTools", merged)
	return e, nil
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
func (e *fileEdit) applyTools(doc format.Document) error {
	if len(e.tools) == 0 {
		return nil
	}
	if v, ok := doc.Lookup("tools"); ok && v.Kind() != format.KindObject {
		return fmt.Errorf("%s: \"tools\" must be an object, not %s", e.path, v.Kind())
	}
	for _, m := range e.tools {
		raw, _ := format.Marshal(m.Value)
		cur, had := doc.Lookup("tools", m.Key)
		mine := !had || e.record != nil && e.record.Entries[toolEntry+m.Key] == format.Digest(cur.JSON())
		if !mine && format.Digest(cur.JSON()) != format.Digest(raw) {
			e.heldTools = append(e.heldTools, m.Key)
			continue
		}
		if _, err := doc.Delete([]string{"tools", m.Key}); err != nil {
			return err
		}
		if err := doc.Set([]string{"tools", m.Key}, m.Value); err != nil {
			return err
		}
		if mine {
			e.wrote[toolEntry+m.Key] = format.Digest(raw)
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
func (e *fileEdit) dropTools(doc format.Document, es format.Entries) error {
	if len(e.dropped) == 0 || e.record == nil {
		return nil
	}
	servers := append(slices.Clone(e.dropped), es.Names()...)
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
		case format.Digest(cur.JSON()) != e.record.Entries[toolEntry+k]:
			e.keptTools = append(e.keptTools, k)
			continue
		default:
			if _, err := doc.Delete([]string{"tools", k}); err != nil {
				return err
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
