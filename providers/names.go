// Package providers describes each AI client mcpwire writes for, one file per client
// (claude_code.go, codex.go, …): its names, where its files live per scope and OS,
// their format and shapes, how references and tool filters are spelled, and how a
// server is spelt as one of its entries and read back. Shapes several clients share
// are helpers their files call (plain.go, launch.go, disabledtools.go). Nothing here
// reads or writes files (SPEC V1).
package providers

import (
	"slices"

	"github.com/mcpwire/mcpwire/registry"
)

// The registry keys a profile's providerOverrides by client names and aliases, which
// only this list knows.
func init() { registry.UseClients(Normalize) }

// table lists every client, in display order (V1, V3): each client's file registers
// its own entry.
var table []*Provider

// register adds a client to the list, in its place by Order.
func register(p *Provider) {
	i, _ := slices.BinarySearchFunc(table, p, func(a, b *Provider) int { return a.Order - b.Order })
	table = slices.Insert(table, i, p)
}

// Normalize returns the provider name for name or one of its aliases, and whether it
// is known. "*" (every provider) is returned unchanged.
func Normalize(name string) (string, bool) {
	if name == "*" {
		return name, true
	}
	for _, p := range table {
		if p.Name == name || slices.Contains(p.Aliases, name) {
			return p.Name, true
		}
	}
	return name, false
}

// Aliases returns the aliases of a provider, sorted.
func Aliases(name string) []string {
	if p, ok := lookup(name); ok {
		return slices.Clone(p.Aliases)
	}
	return nil
}
