package providers

// lookup finds a provider by canonical name (the table is small: a scan beats a map
// built at start-up).
func lookup(name string) (*Provider, bool) {
	for _, p := range table {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// Names returns every provider name in table order.
func Names() []string {
	out := make([]string, len(table))
	for i, p := range table {
		out[i] = p.Name
	}
	return out
}

// All returns every provider in table order.
func All() []*Provider { return table }

// Get returns the provider for a name or alias.
func Get(name string) (*Provider, bool) {
	n, ok := Normalize(name)
	if !ok || n == "*" {
		return nil, false
	}
	return lookup(n)
}
