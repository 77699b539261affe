package providers

import (
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// disabledTools is the filter style of Windsurf, Factory and Antigravity
// (DenyDisabledTools): a per-server disabledTools array of exact tool names;
// where the client switches a whole server off for SERVER__* (DisableWhole), its
// switch member. Clients with UnionDisabled keep the names already in the array when
// mcpwire rewrites an entry, and one that keeps entries it does not own
// (OwnerKeepExisting) gets the profile's names merged into them.
type disabledTools struct{ p *Provider }

const memberDisabledTools = "disabledTools"

// spec is the style's FilterSpec.
func (dt disabledTools) spec() FilterSpec {
	spec := FilterSpec{Deny: true, ExactDeny: true, DenyAll: dt.p.DisableWhole, Members: []string{memberDisabledTools}}
	if dt.p.DisableWhole {
		spec.Switch = dt.p.Switch
	}
	return spec
}

// members adds the filter members to an entry.
func (disabledTools) members(e *format.Object, sf *ServerFilters) {
	if sf == nil {
		return
	}
	if names, _ := Exact(sf.Deny); len(names) > 0 {
		e.Set(memberDisabledTools, names)
	}
}

// read reads the disabledTools array back as deny filters.
func (disabledTools) read(r *reading) *ServerFilters {
	if names, _ := r.names(memberDisabledTools); len(names) > 0 {
		return &ServerFilters{Deny: names}
	}
	return nil
}

// update unions the new entry's disabledTools with the array in the file
// (UnionDisabled).
func (dt disabledTools) update(path, name string, existing format.Value, entry format.Object) (format.Object, error) {
	if !dt.p.UnionDisabled || existing.Kind() != format.KindObject {
		return entry, nil
	}
	old, err := dt.existing(path, name, existing)
	if err != nil || len(old) == 0 {
		return entry, err
	}
	cur, _ := entry.Get(memberDisabledTools)
	tools, _ := cur.([]string)
	e := slices.Clone(entry)
	e.Set(memberDisabledTools, AppendNew(slices.Clone(old), tools))
	return e, nil
}

// mergeKept merges the profile's filters into an entry kept as it is: its
// disabledTools, and the switch for a whole-server deny (C6).
func (dt disabledTools) mergeKept(path string, es format.Entries, name string, existing format.Value, sf *ServerFilters) error {
	if existing.Kind() != format.KindObject {
		return fmt.Errorf("%s: %w", path, jsonc.NotObject(existing.Kind(), dt.p.ServersKey, name))
	}
	if sf == nil {
		return nil
	}
	if tools, _ := Exact(sf.Deny); len(tools) > 0 {
		merged, err := dt.existing(path, name, existing)
		if err != nil {
			return err
		}
		if err := es.SetMember(name, memberDisabledTools, AppendNew(merged, tools)); err != nil {
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

// existing reads an entry's disabledTools array; a non-array is refused.
func (dt disabledTools) existing(path, name string, existing format.Value) ([]string, error) {
	v, ok := existing.Member(memberDisabledTools)
	if !ok {
		return nil, nil
	}
	out, ok := format.Strings(v)
	if !ok {
		return nil, fmt.Errorf("%s: %s.%s.disabledTools must be an array of tool names", path, dt.p.ServersKey, name)
	}
	return out, nil
}
