package render

import (
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/format"
)

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
