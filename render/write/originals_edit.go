package write

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/render"
)

// takeOver keeps the entry --force replaces, unless the record keeps one for that
// name already (the person's, from the first --force).
func (e *fileEdit) takeOver(name string, existing format.Entry) {
	if _, kept := e.record.Originals[name]; kept {
		return
	}
	if _, kept := e.taken[name]; !kept {
		e.taken[name] = render.OriginalOf(existing)
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
func (e *fileEdit) nextOriginals() map[string]render.Original {
	out := maps.Clone(e.record.Originals)
	for _, list := range [][]string{e.dropped, e.forget, e.forgotten} {
		for _, n := range list {
			delete(out, n)
		}
	}
	for n, o := range e.taken {
		if out == nil {
			out = map[string]render.Original{}
		}
		out[n] = o
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// staying are the servers in the file after the edit that keep mcpwire's deny rules
// (B7): not those whose original was put back, which are the person's again.
func (e *fileEdit) staying() []string {
	return slices.DeleteFunc(slices.Clone(e.names), func(n string) bool { return slices.Contains(e.restored, n) })
}
