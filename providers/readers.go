package providers

import (
	"slices"
	"sync"
)

// Readers returns the other clients that read the file of p's destination for scope s
// (V10): those with a destination naming the same file, and those that read it too
// (AlsoReads). Derived from the table, in table order; nil when p has no such scope.
func (p *Provider) Readers(s Scope) []*Provider {
	d := p.Dest(s)
	if d == nil {
		return nil
	}
	return p.ReadersOf(s, d.Files[0])
}

// ReadersOf is Readers for the candidate file of p's destination that is in use
// (Copilot CLI's project file is .mcp.json, or .github/mcp.json when only that one
// exists, which no other client reads).
func (p *Provider) ReadersOf(s Scope, file string) []*Provider {
	return p.others(s, file, true)
}

// WritersOf are the readers of that file mcpwire also writes it for: one of their own
// destinations is that file, not only a file they read too.
func (p *Provider) WritersOf(s Scope, file string) []*Provider {
	return p.others(s, file, false)
}

// othersKey is what others answers for.
type othersKey struct {
	p         *Provider
	s         Scope
	file      string
	alsoReads bool
}

// othersOf holds others' answers: the table does not change once the program runs, and
// an injection into every client asked each client about every other twice (issue 31:
// 4% of an up-to-date run's time).
var othersOf sync.Map // othersKey → []*Provider

// others are the other clients reading the file (alsoReads) or writing it. The slice
// is shared: a caller may append to it (its capacity is its length), not change it.
func (p *Provider) others(s Scope, file string, alsoReads bool) []*Provider {
	k := othersKey{p, s, file, alsoReads}
	if out, ok := othersOf.Load(k); ok {
		return out.([]*Provider)
	}
	out := slices.Clip(p.findOthers(s, file, alsoReads))
	othersOf.Store(k, out)
	return out
}

// findOthers is others, from the table.
func (p *Provider) findOthers(s Scope, file string, alsoReads bool) []*Provider {
	d := p.Dest(s)
	if d == nil || !slices.Contains(d.Files, file) {
		return nil
	}
	one := *d
	one.Files = []string{file}
	var out []*Provider
	for _, q := range table {
		if q == p {
			continue
		}
		files := q.dests()
		if alsoReads {
			files = append(files, q.AlsoReads...)
		}
		if slices.ContainsFunc(files, one.SameFile) {
			out = append(out, q)
		}
	}
	return out
}

// dests are the client's destinations, one per scope it has.
func (p *Provider) dests() []*Dest {
	var out []*Dest
	for _, s := range AllScopes {
		if d := p.Dest(s); d != nil {
			out = append(out, d)
		}
	}
	return out
}
