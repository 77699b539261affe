package providers

// BareTarget is the client that install without a target writes (deprecated, I3), and
// why: the client mcpwire runs inside (one of its Install.Inside variables is set), the
// same client for --scope user, and otherwise the client marked BareDefault.
func BareTarget(userScope bool, getenv func(string) string) (name, why string) {
	var def, inside *Provider
	for _, p := range table {
		switch {
		case p.Install == nil:
		case p.Install.BareDefault && def == nil:
			def = p
		case len(p.Install.Inside) > 0 && inside == nil:
			inside = p
		}
	}
	name, why = def.Name, "no "+inside.Display+" environment found"
	if userScope {
		name, why = inside.Name, "--scope user"
	}
	for _, k := range inside.Install.Inside {
		if getenv(k) != "" {
			return inside.Name, k + " is set"
		}
	}
	return name, why
}
