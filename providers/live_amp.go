package providers

import "encoding/json"

// Amp's liveness (amp 0.0.1790142911 tested, docs/explain.md): the workspace's
// .amp/settings.json (from the start directory up to the project's top, the nearest
// first) over the user's settings, whole entries; a workspace server
// waits for `amp mcp approve`, which records it in amp.mcpTrustedServers of the
// user's settings, and keeps its name while it waits. Amp reads no per-entry switch
// ("disabled" is not read).
func ampLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkRoot, Approve: true, Hold: true},
			{At: At{Scope: User}},
		},
		Approval: ampApproval{},
		Ignored:  []string{"disabled"},
	}
}

// ampApproval: an entry of amp.mcpTrustedServers with the server's name and allow
// true. Amp binds it to a hash of the entry, which mcpwire does not compute: an entry
// changed since its approval waits again, and explain does not see it.
type ampApproval struct{}

func (ampApproval) Approved(f Files, _ Where, _ Source, name string, _ json.RawMessage) (bool, Rule) {
	for _, file := range f.Resolve(At{Scope: User}) {
		raw, ok := f.Member(file, "amp.mcpTrustedServers")
		var list []struct {
			Name  string `json:"serverName"`
			Allow bool   `json:"allow"`
		}
		if !ok || json.Unmarshal(raw, &list) != nil {
			continue
		}
		for _, t := range list {
			if t.Name == name {
				r := Rule{File: file, Path: []string{"amp.mcpTrustedServers"}, Text: "approved in Amp"}
				if !t.Allow {
					r.Text = "refused in Amp (amp.mcpTrustedServers)"
				}
				return t.Allow, r
			}
		}
	}
	return false, Rule{Text: "waiting for approval in Amp: amp mcp approve " + name}
}
