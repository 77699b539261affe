package registry

// presets are the profiles init-presets adds (R9). Only "full" names servers
// ("__all__"); the others start empty, to be filled with profile edit --add-server,
// because mcpwire cannot know a person's server names.
func presets() []*Profile {
	return []*Profile{
		{Name: "minimal", Description: "Smallest useful toolset, for smoke tests", Servers: []string{}},
		{Name: "dev", Description: "Code editing: source control, code search, memory", Servers: []string{}},
		{Name: "ops", Description: "Infrastructure and operations", Servers: []string{}},
		{Name: "research", Description: "Documentation and research", Servers: []string{}},
		{Name: "incident", Description: "Incident response", Servers: []string{}},
		{Name: "full", Description: "Every registered server, for exploration", Servers: []string{AllServers}},
	}
}
