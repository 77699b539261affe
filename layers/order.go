package layers

import (
	"encoding/json"
	"iter"
	"sort"
)

// sortedMembers iterates a member map in name order, so writes are deterministic.
func sortedMembers(m map[string]json.RawMessage) iter.Seq2[string, json.RawMessage] {
	return func(yield func(string, json.RawMessage) bool) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}
