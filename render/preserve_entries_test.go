package render_test

import (
	"bytes"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/tomledit"
	"github.com/mcpwire/mcpwire/internal/yamledit"
	"github.com/mcpwire/mcpwire/providers"
)

// withoutEntries removes the named server entries from a YAML file, or from a TOML
// file's array of tables, with the editors' own removal (which touches nothing but an
// entry's lines).
func withoutEntries(t reporter, what string, p *providers.Provider, data []byte, names []string) []byte {
	t.Helper()
	if p.Format == format.YAML {
		doc, err := yamledit.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var ops []yamledit.Op
		for _, n := range names {
			if _, ok := doc.Get([]string{p.ServersKey}, p.EntryName, n); ok {
				ops = append(ops, yamledit.Op{Path: []string{p.ServersKey}, Item: p.EntryName, Name: n, Delete: true})
			}
		}
		if err := doc.Apply(ops); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return doc.Bytes()
	}
	doc, err := tomledit.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var ops []tomledit.Op
	for _, n := range names {
		if _, ok := doc.GetItem(p.ServersKey, p.EntryName, n); ok {
			ops = append(ops, tomledit.Op{Key: p.ServersKey, Item: p.EntryName, Name: n})
		}
	}
	if err := doc.Apply(ops); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return doc.Bytes()
}

// checkEntriesPreserved proves W1 for a YAML file or a TOML array of tables: with the
// written servers' entries removed from the original and from the result, the two are
// the same bytes, so every byte outside those entries (comments, other keys and
// servers, quoting, blank lines) is kept.
func checkEntriesPreserved(t reporter, what string, p *providers.Provider, orig, got []byte, names []string) {
	t.Helper()
	a := withoutEntries(t, what+" (original)", p, orig, names)
	b := withoutEntries(t, what+" (result)", p, got, names)
	if !bytes.Equal(a, b) {
		t.Errorf("%s: the file differs outside mcpwire's entries:\n--- original without them:\n%s\n--- result without them:\n%s", what, a, b)
	}
}
