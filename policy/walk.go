package policy

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

// Kind is what a value of a document is to Walk.
type Kind int

// The kinds of values Walk tells apart.
const (
	// KindOther is a number, a bool, null or anything else Walk does not enter.
	KindOther Kind = iota
	// KindString is a string.
	KindString
	// KindList is an array.
	KindList
	// KindMap is an object or table.
	KindMap
)

// A Reader tells Walk how to read the values of one kind of document: values
// decoded into Go ([Decoded]) or a parsed file read in place, without decoding it
// whole (policy/redact reads a 50 MB ~/.claude.json that way).
type Reader[V any] interface {
	// Kind says what v is.
	Kind(v V) Kind
	// Children calls fn for each member of a map, with its name, or each element of
	// a list, with "", in order.
	Children(v V, fn func(name string, child V))
	// Text returns the text of a string value.
	Text(v V) string
}

// Walk calls visit for v and for every value inside it, depth first and in order.
// names are the names of the members that lead from v to the value (an element of a
// list adds none; the slice is valid during the call only); inList says the value
// is an element of a list. visit returns false to skip what is inside a value.
func Walk[V any](r Reader[V], v V, visit func(names []string, inList bool, v V) bool) {
	w := &walker[V]{r: r, visit: visit}
	w.member, w.element = w.enterMember, w.enterElement
	w.walk(v, false)
}

type walker[V any] struct {
	r               Reader[V]
	visit           func([]string, bool, V) bool
	names           []string
	member, element func(string, V) // made once: a method value allocates
}

func (w *walker[V]) walk(v V, inList bool) {
	if !w.visit(w.names, inList, v) {
		return
	}
	switch w.r.Kind(v) {
	case KindMap:
		w.r.Children(v, w.member)
	case KindList:
		w.r.Children(v, w.element)
	}
}

func (w *walker[V]) enterMember(name string, c V) {
	w.names = append(w.names, name)
	w.walk(c, false)
	w.names = w.names[:len(w.names)-1]
}

func (w *walker[V]) enterElement(_ string, c V) { w.walk(c, true) }

// Decoded reads values decoded from JSON, TOML or YAML (and the auth and oauth
// maps of a registry server): map[string]any (its keys sorted), []any,
// []map[string]any, []string and string.
type Decoded struct{}

// Kind implements Reader.
func (Decoded) Kind(v any) Kind {
	switch v.(type) {
	case string:
		return KindString
	case map[string]any:
		return KindMap
	case []any, []map[string]any, []string:
		return KindList
	}
	return KindOther
}

// Children implements Reader.
func (Decoded) Children(v any, fn func(string, any)) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fn(k, x[k])
		}
	case []any:
		for _, e := range x {
			fn("", e)
		}
	case []map[string]any:
		for _, e := range x {
			fn("", e)
		}
	case []string:
		for _, e := range x {
			fn("", e)
		}
	}
}

// Text implements Reader.
func (Decoded) Text(v any) string { s, _ := v.(string); return s }

// walkStrings calls fn for every string value in m, at any depth, with its dotted
// path (prefix.key.sub) and its own key, in sorted key order.
func walkStrings(prefix string, m map[string]any, fn func(path, key, s string)) {
	if len(m) == 0 {
		return // no walk made: most servers have no auth and no oauth (K7)
	}
	Walk[any](Decoded{}, m, func(names []string, _ bool, v any) bool {
		if s, ok := v.(string); ok && len(names) > 0 {
			fn(prefix+"."+strings.Join(names, "."), names[len(names)-1], s)
		}
		return true
	})
}

// sortedKeys are the keys of m, sorted; nil, with nothing allocated, for an empty
// map: the checks run for each of 200,000 imported servers, most of which have no
// env, no headers, no auth (K7).
func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}
