package write

import (
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// reconcileRemovals removes the entries of removals that mcpwire owns, and keeps the
// others (said once, by the caller).
func (e *fileEdit) reconcileRemovals(es format.Entries, rule render.OwnerRule) error {
	for _, name := range e.removals() {
		unselected := !slices.Contains(e.remove, name)
		existing, has := es.Get(name)
		if !has {
			if _, recorded := e.record.Entries[name]; recorded {
				e.forgotten = append(e.forgotten, name) // gone from the file: forget it
			}
			continue
		}
		if e.standing(rule, name, existing, existing.Digest(), "") != render.EntryOwned {
			if unselected {
				e.unselectedKept = append(e.unselectedKept, name)
			} else {
				e.kept = append(e.kept, name)
			}
			continue
		}
		if err := e.removeEntry(es, name); err != nil {
			return err
		}
		e.dropped = append(e.dropped, name)
		if unselected {
			e.unselected = append(e.unselected, name)
		}
	}
	return nil
}

// removals are the entries the edit removes when mcpwire owns them: those it was given
// (uninject, disabled servers), and for a --profile inject every recorded server the
// profile does not select (B7), in name order — except the built-in aiwg entry, which
// install writes and no profile selects (docs/inject.md).
func (e *fileEdit) removals() []string {
	out := slices.Clone(e.remove)
	if e.sync == nil {
		return out
	}
	var more []string
	for n := range e.record.Entries {
		if _, _, member := providers.RecordedMember(e.d, n); !member && !e.sync[n] && n != BuiltinName && !slices.Contains(out, n) {
			more = append(more, n)
		}
	}
	slices.Sort(more)
	return append(out, more...)
}
