package render

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/format"
)

// H1: --force never destroys a person's entry. The entry it replaces is kept in the
// ownership record (0600), as it was, and put back when mcpwire removes its own entry
// of that name (uninject, a profile that no longer selects it, a server disabled for a
// client without a switch). A second --force over the same name keeps the first one:
// what mcpwire took over is what goes back.

// original is an entry --force replaced: its exact source text (a JSON value, TOML
// tables, YAML lines; empty when it was not valid UTF-8, which a record cannot hold
// exactly) and its value as JSON, from which it is written again where its text
// cannot go back as it is.
type original struct {
	Text  string          `json:"text,omitempty"`
	Value json.RawMessage `json:"value"`
}

// digest is the ownership digest of the entry put back (C6).
func (o original) digest() string { return format.Digest(o.Value) }

// originalOf keeps an entry as it is in the file.
func originalOf(e format.Entry) original {
	o := original{Value: json.RawMessage(e.JSON())}
	if text := e.Text(); utf8.Valid(text) {
		o.Text = string(text)
	}
	return o
}

// takeOver keeps the entry --force replaces, unless the record keeps one for that
// name already (the person's, from the first --force).
func (e *fileEdit) takeOver(name string, existing format.Entry) {
	if _, kept := e.record.Originals[name]; kept {
		return
	}
	if _, kept := e.taken[name]; !kept {
		e.taken[name] = originalOf(existing)
	}
}

// remove removes mcpwire's own entry of a name, or puts back the entry it replaced.
func (e *fileEdit) removeEntry(es format.Entries, name string) error {
	o, ok := e.record.Originals[name]
	if !ok {
		return es.Delete(name)
	}
	if _, err := es.Restore(name, []byte(o.Text), o.Value); err != nil {
		return fmt.Errorf("%s: putting back the entry %s that --force replaced: %w", e.path, name, err)
	}
	e.restored = append(e.restored, name)
	return nil
}

// lostOriginals are the notes of entries taken over with --force that are gone from
// the file: the person removed mcpwire's entry, and the one it replaced is not put
// back (decision, docs/inject.md).
func (e *fileEdit) lostOriginals() []string {
	var out []string
	for _, n := range e.forgotten {
		if _, ok := e.record.Originals[n]; ok {
			out = append(out, fmt.Sprintf("%s: %s is gone from %s since mcpwire replaced it with --force; the entry it replaced is not put back, and mcpwire forgets it",
				e.p.Name, n, e.path))
		}
	}
	return out
}

// nextOriginals are the originals after the edit: those of the settled record, less
// those of the entries removed or forgotten, with those taken over now.
func (e *fileEdit) nextOriginals() map[string]original {
	out := maps.Clone(e.record.Originals)
	for _, list := range [][]string{e.dropped, e.forget, e.forgotten} {
		for _, n := range list {
			delete(out, n)
		}
	}
	for n, o := range e.taken {
		if out == nil {
			out = map[string]original{}
		}
		out[n] = o
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sameOriginals reports whether two records keep the same originals.
func sameOriginals(a, b map[string]original) bool {
	return maps.EqualFunc(a, b, func(x, y original) bool { return x.Text == y.Text && string(x.Value) == string(y.Value) })
}

// staying are the servers in the file after the edit that keep mcpwire's deny rules
// (B7): not those whose original was put back, which are the person's again.
func (e *fileEdit) staying() []string {
	return slices.DeleteFunc(slices.Clone(e.names), func(n string) bool { return slices.Contains(e.restored, n) })
}
