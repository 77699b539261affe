package providers

import "encoding/json"

// GitHub Copilot CLI's liveness (copilot 1.0.102 tested, docs/explain.md): the
// project's .mcp.json files (else .github/mcp.json), from the start directory up to the
// project's top, the nearest first, over ~/.copilot/mcp-config.json, whole entries; the project file is read only in a folder the person trusts
// (trustedFolders in ~/.copilot/config.json: the folder or one of its parents), and
// in any other folder the user's entry of a name is used. disabledMcpServers in
// ~/.copilot/settings.json switches a server off; a "disabled" member of the entry
// is not read.
func copilotLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkRoot, Trust: true},
			{At: At{Scope: User}},
		},
		Trust:   copilotTrust{},
		Lists:   []NameList{{At: At{Dest: copilotHomeFile("settings.json")}, Path: []string{"disabledMcpServers"}}},
		Ignored: []string{"disabled"},
	}
}

// copilotHomeFile is a file of Copilot CLI's home (~/.copilot, COPILOT_HOME).
func copilotHomeFile(name string) *Dest {
	return &Dest{Env: "COPILOT_HOME", Base: Home, Dir: []string{".copilot"}, Files: []string{name}}
}

// copilotTrust: trustedFolders (or trusted_folders) in ~/.copilot/config.json lists
// the project or a folder above it.
type copilotTrust struct{}

func (copilotTrust) Trusted(f Files, w Where) (bool, Rule) {
	files := f.Resolve(At{Dest: copilotHomeFile("config.json")})
	for _, file := range files {
		for _, member := range []string{"trustedFolders", "trusted_folders"} {
			raw, ok := f.Member(file, member)
			var dirs []string
			if !ok || json.Unmarshal(raw, &dirs) != nil {
				continue
			}
			for _, d := range dirs {
				if within(d, w.Root) {
					return true, Rule{Text: "GitHub Copilot CLI trusts " + d, File: file, Path: []string{member}, Elem: d}
				}
			}
		}
	}
	r := Rule{Text: "GitHub Copilot CLI does not trust " + w.Root + " yet: it asks when it starts there, and reads no project file until then (trustedFolders)"}
	if len(files) > 0 {
		r.File = files[0]
	}
	return false, r
}
