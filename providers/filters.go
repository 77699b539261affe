package providers

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// ServerFilters are the tool filters of one injected server for one provider.
type ServerFilters struct {
	// Deny holds tool names or globs (never "*": that is DenyAll).
	Deny []string
	// DenyAll is a whole-server deny (SERVER__*).
	DenyAll bool
	// Allow is the allowlist; nil means the server is not in allowlist mode (F4).
	Allow []string
	// AllowPatterns are the original allow patterns, for messages.
	AllowPatterns []string
}

// FilterSet is the effective filters of one injection: per server, plus warnings.
type FilterSet struct {
	Servers  map[string]*ServerFilters
	Warnings []string
}

// Of returns the filters of one server, nil when it has none.
func (f *FilterSet) Of(server string) *ServerFilters {
	if f == nil {
		return nil
	}
	return f.Servers[server]
}

// Warn adds a warning.
func (f *FilterSet) Warn(format string, args ...any) {
	f.Warnings = append(f.Warnings, fmt.Sprintf(format, args...))
}

// AllowPatterns lists every allow pattern that applies.
func (f *FilterSet) AllowPatterns() []string {
	var out []string
	for _, n := range slices.Sorted(maps.Keys(f.Servers)) {
		out = append(out, f.Servers[n].AllowPatterns...)
	}
	return out
}

// Effective merges key "*" and the provider's key (F2) and assigns each pattern to an
// injected server (F1). Patterns without "__" or with a glob in the server part are
// warned about and ignored; patterns for other servers are ignored.
func Effective(filters map[string]*registry.Filters, provider string, injected []string) *FilterSet {
	fs := &FilterSet{Servers: map[string]*ServerFilters{}}
	var deny, allow []string
	for _, key := range []string{registry.AllProviders, provider} {
		if f := filters[key]; f != nil {
			deny = AppendNew(deny, f.ToolDeny)
			allow = AppendNew(allow, f.ToolAllow)
		}
	}
	// longest names first, so "a__b__tool" matches server "a__b" before "a"
	names := slices.Clone(injected)
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	split := func(pattern string) (server, tool string, ok bool) {
		for _, n := range names {
			if rest, found := strings.CutPrefix(pattern, n+"__"); found && rest != "" {
				return n, rest, true
			}
		}
		s, _, has := strings.Cut(pattern, "__")
		if !has || s == "" {
			fs.Warn("tool pattern %q is not SERVER__TOOL; ignored", pattern)
		} else if strings.ContainsAny(s, "*?[") {
			fs.Warn("tool pattern %q has a glob in the server part; ignored", pattern)
		}
		return "", "", false
	}
	get := func(s string) *ServerFilters {
		if fs.Servers[s] == nil {
			fs.Servers[s] = &ServerFilters{}
		}
		return fs.Servers[s]
	}
	for _, p := range deny {
		s, tool, ok := split(p)
		if !ok {
			continue
		}
		sf := get(s)
		if tool == "*" {
			sf.DenyAll = true
			continue
		}
		sf.Deny = AppendNew(sf.Deny, []string{tool})
	}
	for _, p := range allow {
		s, tool, ok := split(p)
		if !ok {
			continue
		}
		sf := get(s)
		sf.Allow = AppendNew(sf.Allow, []string{tool})
		sf.AllowPatterns = append(sf.AllowPatterns, p)
	}
	return fs
}

// AppendNew appends the elements of src that dst lacks.
func AppendNew(dst, src []string) []string {
	for _, s := range src {
		if !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// Exact splits tool names into exact names and globs.
func Exact(tools []string) (names, globs []string) {
	for _, t := range tools {
		if strings.ContainsAny(t, "*?[") {
			globs = append(globs, t)
		} else {
			names = append(names, t)
		}
	}
	return names, globs
}

// FilterSpec says which tool filters a client can express (F3).
type FilterSpec struct {
	// Deny and Allow: the client expresses toolDeny, and a per-server toolAllow.
	Deny, Allow bool
	// AllowRefused: the client has no restrict-only allowlist, so a toolAllow is
	// refused rather than dropped with a warning (Claude Code).
	AllowRefused bool
	// ExactDeny and ExactAllow: the client takes exact tool names only; globs are
	// dropped with a warning.
	ExactDeny, ExactAllow bool
	// DenyAll: the client can switch a whole server off (SERVER__*).
	DenyAll bool
	// Members are the entry members that hold filters, in the order Entry writes them;
	// Switch is the member that switches a whole server off for a SERVER__* deny ("":
	// none). SwitchLast: a carried switch goes after the filter members (a TOML
	// table's last key) rather than before them.
	Members    []string
	Switch     string
	SwitchLast bool
	// Defaults are the values Entry gives a filter member when the profile has no
	// filter for the server (Copilot CLI's tools ["*"]); under KeepFilters the member in
	// the file replaces them.
	Defaults map[string]any
	// DenyElsewhere, for a client with an allowlist but no denylist in its entries,
	// names where it keeps tool denials that mcpwire does not write (said in the
	// warning about a toolDeny not applied).
	DenyElsewhere string
	// Since, when set, says which versions of the client apply the filter members
	// (oh-my-pi's, newer than the one that installs): said in one warning when a
	// filter is written.
	Since string
}

// Warnings warns once per injection about the filters the client cannot express, or
// not exactly: no filter at all, globs where it takes exact names, whole-server denies
// without a switch, allowlist mode leaving other servers unrestricted (F3, F4).
func (spec FilterSpec) Warnings(display string, fs *FilterSet, injected []string) {
	var deny, allow []string
	for _, n := range slices.Sorted(maps.Keys(fs.Servers)) {
		sf := fs.Servers[n]
		if sf.DenyAll && !spec.DenyAll {
			deny = append(deny, n+"__*")
		}
		for _, t := range sf.Deny {
			deny = append(deny, n+"__"+t)
		}
		allow = append(allow, sf.AllowPatterns...)
	}
	noAllow := !spec.Allow && !spec.AllowRefused
	switch {
	case !spec.Deny && noAllow && len(deny) > 0 && len(allow) > 0:
		// one line for a client without any tool filter (F3)
		fs.Warn("%s documents no tool filters; not applied: toolDeny %s; toolAllow %s", display, strings.Join(deny, ", "), strings.Join(allow, ", "))
	default:
		if !spec.Deny && len(deny) > 0 {
			spec.denyWarning(display, fs, deny)
		}
		if noAllow && len(allow) > 0 {
			fs.Warn("%s has no tool allowlist; toolAllow not applied: %s", display, strings.Join(allow, ", "))
		}
	}
	spec.exactness(display, fs, injected)
	if spec.Since != "" && spec.Deny && (len(deny) > 0 || len(allow) > 0) {
		fs.Warn("%s applies tool filters %s", display, spec.Since)
	}
}

// denyWarning says that deny patterns were not applied, and why: the client has no
// per-tool filter at all, or an allowlist only (and where it keeps denials instead).
func (spec FilterSpec) denyWarning(display string, fs *FilterSet, deny []string) {
	if !spec.Allow {
		fs.Warn("%s documents no per-tool filter; toolDeny not applied: %s", display, strings.Join(deny, ", "))
		return
	}
	elsewhere := ""
	if spec.DenyElsewhere != "" {
		elsewhere = " (it denies tools with " + spec.DenyElsewhere + ", which mcpwire does not write)"
	}
	fs.Warn("%s has a tool allowlist but no denylist in its config; toolDeny not applied: %s%s", display, strings.Join(deny, ", "), elsewhere)
}

// exactness warns about globs, whole-server denies and unrestricted servers.
func (spec FilterSpec) exactness(display string, fs *FilterSet, injected []string) {
	var allowMode, unrestricted []string
	for _, n := range slices.Sorted(maps.Keys(fs.Servers)) {
		sf := fs.Servers[n]
		if spec.ExactDeny {
			if _, globs := Exact(sf.Deny); len(globs) > 0 {
				fs.Warn("%s takes exact tool names; glob deny patterns not applied for %s: %s", display, n, strings.Join(globs, ", "))
			}
		}
		if sf.Allow != nil && spec.ExactAllow {
			if _, globs := Exact(sf.Allow); len(globs) > 0 {
				fs.Warn("%s takes exact tool names; glob allow patterns not applied for %s: %s", display, n, strings.Join(globs, ", "))
			}
		}
		if sf.DenyAll && spec.Deny && !spec.DenyAll {
			fs.Warn("%s cannot switch off a whole server from its config; %s__* not applied", display, n)
		}
		if sf.Allow != nil {
			allowMode = append(allowMode, n)
		}
	}
	if len(allowMode) > 0 && spec.Allow {
		for _, n := range injected {
			// a server the profile switches off (SERVER__*) is not unrestricted
			if off := fs.Servers[n] != nil && fs.Servers[n].DenyAll && spec.DenyAll; !slices.Contains(allowMode, n) && !off {
				unrestricted = append(unrestricted, n)
			}
		}
		if len(unrestricted) > 0 {
			fs.Warn("toolAllow is per server: %s left unrestricted by toolAllow (%s)", strings.Join(unrestricted, ", "), display)
		}
	}
}

// Carry adds the filter members of the existing entry to a new entry that has none of
// its own (an injection without filter information keeps the filters written:
// Request.KeepFilters), and keeps a server switched off by its switch member.
func (spec FilterSpec) Carry(entry format.Object, existing format.Value) format.Object {
	if len(spec.Members) == 0 || existing.Kind() != format.KindObject {
		return entry
	}
	out := slices.Clone(entry)
	if spec.Switch != "" && !spec.SwitchLast {
		out = carrySwitch(out, existing, spec.Switch)
	}
	for _, k := range spec.Members {
		if v, mine := out.Get(k); mine && !spec.isDefault(k, v) {
			continue
		}
		if v, ok := existing.Member(k); ok {
			if c, ok := v.Carry(); ok {
				out.Set(k, c)
			}
		}
	}
	if spec.Switch != "" && spec.SwitchLast {
		out = carrySwitch(out, existing, spec.Switch)
	}
	return out
}

// isDefault reports whether v is what Entry writes for member k without a filter.
func (spec FilterSpec) isDefault(k string, v any) bool {
	d, ok := spec.Defaults[k]
	return ok && reflect.DeepEqual(d, v)
}

// carrySwitch keeps a server switched off when the existing entry's switch member says
// it is and the new entry does not.
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

// Disabled reports whether the registry switches the server off.
func Disabled(s *registry.Server) bool { return s.Enabled != nil && !*s.Enabled }
