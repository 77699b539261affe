package providers

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
)

// SameMeaning reports whether two entries of one client's file mean the same (T6):
// each read back as import reads it, so that the client's defaults (Claude Code's
// "type": "stdio", an empty env or args), member order and the spelling of a
// reference do not count; the members mcpwire does not read (a timeout, autoApprove)
// must be there in both, with the same values. An entry that cannot be read back
// means nothing mcpwire can compare.
func SameMeaning(t Target, d Dialect, a, b json.RawMessage) bool {
	if bytes.Equal(format.Canonical(a), format.Canonical(b)) {
		return true
	}
	ia, err := ReadBack(t, d, a)
	if err != nil {
		return false
	}
	ib, err := ReadBack(t, d, b)
	if err != nil || !slices.Equal(ia.Dropped, ib.Dropped) {
		return false
	}
	sa, err := json.Marshal(ia.Server)
	if err != nil {
		return false
	}
	sb, err := json.Marshal(ib.Server)
	if err != nil || !bytes.Equal(sa, sb) || !sameFilters(ia.Filters, ib.Filters) {
		return false
	}
	return sameMembers(a, b, ia.Dropped)
}

// sameFilters compares two entries' filters; none and empty lists are alike.
func sameFilters(a, b *ServerFilters) bool {
	norm := func(f *ServerFilters) ServerFilters {
		if f == nil {
			return ServerFilters{}
		}
		c := *f
		c.AllowPatterns = nil
		if len(c.Deny) == 0 {
			c.Deny = nil
		}
		return c
	}
	fa, fb := norm(a), norm(b)
	return fa.DenyAll == fb.DenyAll && slices.Equal(fa.Deny, fb.Deny) && (fa.Allow == nil) == (fb.Allow == nil) && slices.Equal(fa.Allow, fb.Allow)
}

// sameMembers compares the top-level members holding the dropped members (a nested
// one, requestOptions.timeout, by its parent) of two entries.
func sameMembers(a, b json.RawMessage, dropped []string) bool {
	var ma, mb map[string]json.RawMessage
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return false
	}
	for _, name := range dropped {
		top, _, _ := strings.Cut(name, ".")
		va, oka := ma[top]
		vb, okb := mb[top]
		if oka != okb || oka && !bytes.Equal(format.Canonical(va), format.Canonical(vb)) {
			return false
		}
	}
	return true
}
