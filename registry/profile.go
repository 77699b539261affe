package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
)

// Profile is one entry of mcp-profiles.json (R3).
type Profile struct {
	Name              string              `json:"name"`
	Description       string              `json:"description,omitempty"`
	Servers           []string            `json:"servers"`
	Extends           []string            `json:"extends,omitempty"`
	ProviderOverrides map[string]*Filters `json:"providerOverrides,omitempty"`
	CreatedAt         string              `json:"createdAt,omitempty"`
	UpdatedAt         string              `json:"updatedAt,omitempty"`

	// Extra holds members mcpwire does not know; they survive a write.
	Extra map[string]json.RawMessage `json:"-"`
}

// Filters are one provider key's tool filters. A nil ToolAllow means "not set", which
// matters for extends (R4): only a set allow list replaces the base's.
type Filters struct {
	ToolDeny  []string `json:"toolDeny,omitempty"`
	ToolAllow []string `json:"toolAllow,omitempty"`

	// Extra holds members mcpwire does not know; they survive a write.
	Extra map[string]json.RawMessage `json:"-"`
}

type filtersJSON Filters

// MarshalJSON encodes the lists, then unknown members.
func (f Filters) MarshalJSON() ([]byte, error) { return marshalWithExtra(filtersJSON(f), f.Extra) }

// AllProviders is the provider key that applies to every provider.
const AllProviders = "*"

type profileJSON Profile

// UnmarshalJSON decodes a profile, keeps unknown members, and normalises provider keys
// through aliases (claude = claude-code), merging keys that name one provider.
// b is copied first: the decoded strings share memory with it.
func (p *Profile) UnmarshalJSON(b []byte) error { return decodeProfile(bytes.Clone(b), p) }

// MarshalJSON encodes a profile: known fields in a fixed order, then unknown members.
func (p Profile) MarshalJSON() ([]byte, error) {
	if p.Servers == nil {
		p.Servers = []string{}
	}
	return marshalWithExtra(profileJSON(p), p.Extra)
}

// Clone returns a deep copy. Nil lists stay nil (an import tells "servers not
// given" from "no servers" this way).
func (p *Profile) Clone() *Profile {
	c := *p
	c.Servers = slices.Clone(p.Servers)
	c.Extends = slices.Clone(p.Extends)
	c.Extra = maps.Clone(p.Extra)
	if p.ProviderOverrides != nil {
		c.ProviderOverrides = make(map[string]*Filters, len(p.ProviderOverrides))
		for k, f := range p.ProviderOverrides {
			if f == nil {
				c.ProviderOverrides[k] = nil
				continue
			}
			c.ProviderOverrides[k] = &Filters{ToolDeny: slices.Clone(f.ToolDeny), ToolAllow: slices.Clone(f.ToolAllow), Extra: maps.Clone(f.Extra)}
		}
	}
	return &c
}

// Validate checks the profile's names and provider keys, as names read from a layer
// file (LoadableName, L14); AddProfile checks the stricter R3 name of a new profile.
func (p *Profile) Validate() error {
	if err := LoadableName("profile", p.Name); err != nil {
		return err
	}
	for _, s := range p.Servers {
		if err := LoadableName("server", s); err != nil {
			return fmt.Errorf("servers: %w", err)
		}
	}
	for _, e := range p.Extends {
		if err := LoadableName("profile", e); err != nil {
			return fmt.Errorf("extends: %w", err)
		}
	}
	for _, k := range sortedKeys(p.ProviderOverrides) {
		if _, ok := clientName(k); !ok {
			return fmt.Errorf("providerOverrides: unknown provider %q", k)
		}
	}
	return nil
}

// normalizeOverrides maps provider aliases to their names; deny and allow lists of
// keys naming one provider are unioned.
func normalizeOverrides(in map[string]*Filters) map[string]*Filters {
	if len(in) == 0 {
		return in
	}
	keys := sortedKeys(in)
	out := make(map[string]*Filters, len(in))
	for _, k := range keys {
		f := in[k]
		if f == nil {
			f = &Filters{}
		}
		n, _ := clientName(k)
		if prev, ok := out[n]; ok {
			out[n] = &Filters{ToolDeny: union(prev.ToolDeny, f.ToolDeny), ToolAllow: unionAllow(prev.ToolAllow, f.ToolAllow), Extra: mergeExtra(prev.Extra, f.Extra)}
			continue
		}
		out[n] = f
	}
	return out
}

// mergeExtra returns the members of a and b (b's win).
func mergeExtra(a, b map[string]json.RawMessage) map[string]json.RawMessage {
	if len(b) == 0 {
		return a
	}
	out := make(map[string]json.RawMessage, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// union returns a followed by the members of b not already present.
func union(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	seen := make(map[string]bool, len(a)+len(b))
	out := make([]string, 0, len(a)+len(b))
	for _, list := range [][]string{a, b} {
		for _, x := range list {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// unionAllow is union that keeps "not set" (nil) distinct from empty.
func unionAllow(a, b []string) []string {
	if a == nil && b == nil {
		return nil
	}
	u := union(a, b)
	if u == nil {
		return []string{}
	}
	return u
}

// OverrideKeys returns the profile's provider keys, "*" first, then sorted.
func (p *Profile) OverrideKeys() []string {
	keys := sortedKeys(p.ProviderOverrides)
	sort.SliceStable(keys, func(i, j int) bool { return keys[i] == AllProviders && keys[j] != AllProviders })
	return keys
}
