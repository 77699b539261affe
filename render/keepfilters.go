package render

import (
	"encoding/json"
	"slices"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/format"
)

// An injection without tool-filter information (inject --all, or --servers without a
// profile: Request.KeepFilters) refreshes the launch configuration of the entries it
// rewrites and keeps the tool filters already written: Claude Code's deny rules are
// not touched, opencode's tools map is not touched, and the per-server filter members
// of an entry being rewritten are carried over from the entry in the file. Filters
// change only with --profile, or with --clear-tool-filters.

// filterKeys are the per-server members that hold tool filters (F3), in the order
// the entry builders write them; switchKey is the member that switches a whole
// server off because of a SERVER__* deny, "" when the client has none.
func filterKeys(p *providers.Provider) (keys []string, switchKey string) {
	switch p.Deny {
	case providers.DenyCodex:
		return []string{"enabled_tools", "disabled_tools"}, "enabled"
	case providers.DenyDisabledTools:
		if p.DisableWhole {
			switchKey = p.Switch
		}
		return []string{"disabledTools"}, switchKey
	case providers.DenyGemini:
		return []string{"excludeTools", "includeTools"}, ""
	}
	return nil, ""
}

// off reports whether a switch member's value switches the server off.
func off(key string, v any) bool {
	switch key {
	case "enabled":
		return v == false
	case "disabled":
		return v == true
	}
	return false
}

// carry adds the filter members of the existing entry to a new entry that has none
// of its own. A JSON entry takes the switch member first, then the filter members; a
// Codex table the filter members, then the switch as its last key.
func carry(p *providers.Provider, entry format.Object, existing format.Value) format.Object {
	keys, sw := filterKeys(p)
	if len(keys) == 0 || existing.Kind() != format.KindObject {
		return entry
	}
	out := slices.Clone(entry)
	switchLast := p.Format == providers.TOML
	if sw != "" && !switchLast {
		out = carrySwitch(out, existing, sw)
	}
	for _, k := range keys {
		if _, mine := out.Get(k); mine {
			continue
		}
		if v, ok := existing.Member(k); ok {
			if c, ok := v.Carry(); ok {
				out = append(out, format.Member{Key: k, Value: c})
			}
		}
	}
	if sw != "" && switchLast {
		out = carrySwitch(out, existing, sw)
	}
	return out
}

// carrySwitch keeps a server switched off when the existing entry's switch member
// says it is and the new entry does not: with its old value, last unless the new entry
// has the member already.
func carrySwitch(out format.Object, existing format.Value, sw string) format.Object {
	v, ok := existing.Member(sw)
	if !ok {
		return out
	}
	var cur any
	if json.Unmarshal(v.JSON(), &cur) != nil || !off(sw, cur) {
		return out
	}
	if now, ok := out.Get(sw); ok && off(sw, now) {
		return out
	}
	out.Set(sw, cur)
	return out
}
