package render

import (
	"encoding/json"
	"slices"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/jsonc"
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

// carryJSON adds the filter members of the existing entry to a new JSON entry that
// has none of its own.
func carryJSON(p *providers.Provider, entry object, existing jsonc.Value) object {
	keys, sw := filterKeys(p)
	if len(keys) == 0 || existing.Kind() != jsonc.Object {
		return entry
	}
	out := slices.Clone(entry)
	if sw != "" {
		if v, ok := existing.Member(sw); ok {
			var cur any
			if json.Unmarshal(v.JSON(), &cur) == nil && off(sw, cur) {
				if now, ok := out.get(sw); !ok || !off(sw, now) {
					out.set(sw, cur)
				}
			}
		}
	}
	for _, k := range keys {
		if _, mine := out.get(k); mine {
			continue
		}
		if v, ok := existing.Member(k); ok {
			out.set(k, json.RawMessage(v.JSON()))
		}
	}
	return out
}

// carryTOML adds the filter keys of the existing server table to a new Codex table
// that has none of its own.
func carryTOML(p *providers.Provider, kvs []tomlKV, existing map[string]any) []tomlKV {
	keys, sw := filterKeys(p)
	if len(keys) == 0 || existing == nil {
		return kvs
	}
	has := func(k string) (any, bool) {
		for _, kv := range kvs {
			if kv.Key == k {
				return kv.Value, true
			}
		}
		return nil, false
	}
	out := slices.Clone(kvs)
	for _, k := range keys {
		if _, mine := has(k); mine {
			continue
		}
		if names, ok := stringList(existing[k]); ok {
			out = append(out, tomlKV{Key: k, Value: names})
		}
	}
	if sw != "" && off(sw, existing[sw]) {
		if now, ok := has(sw); !ok || !off(sw, now) {
			out = slices.DeleteFunc(out, func(kv tomlKV) bool { return kv.Key == sw })
			out = append(out, tomlKV{Key: sw, Value: existing[sw]})
		}
	}
	return out
}

// stringList returns a decoded TOML array of strings; anything else is not a filter
// mcpwire wrote and is not carried.
func stringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}
