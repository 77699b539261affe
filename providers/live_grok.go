package providers

import "encoding/json"

// Grok Build's liveness (grok 1.0.41 tested: mcp doctor's sources,
// docs/explain.md): its own config.toml files and Claude Code's and Cursor's files
// (~/.claude.json's servers, the project's own among them, .mcp.json,
// ~/.cursor/mcp.json, .cursor/mcp.json), the project's found from the start directory
// up to the project's top, the nearest first. The project's servers wait for the
// folder's trust (trusted_folders.toml) and keep their name while they wait.
// disabled_mcp_servers in the user's config.toml switches a server off.
func grokLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkRoot, Trust: true, Hold: true},
			{At: At{Scope: Project, Of: "claude-code"}, Walk: WalkRoot, Trust: true, Hold: true, Label: ".mcp.json"},
			{At: At{Scope: Local, Of: "claude-code"}, Trust: true, Hold: true, Label: "~/.claude.json project"},
			{At: At{Scope: Project, Of: "cursor"}, Walk: WalkRoot, Trust: true, Hold: true, Label: ".cursor"},
			{At: At{Scope: User}},
			{At: At{Scope: User, Of: "claude-code"}, Label: "~/.claude.json"},
			{At: At{Scope: User, Of: "cursor"}, Label: "~/.cursor"},
		},
		Trust: grokTrust{},
		Lists: []NameList{{At: At{Scope: User}, Path: []string{"disabled_mcp_servers"}}},
	}
}

// grokTrust: [folders."<project>"] trusted = true in trusted_folders.toml beside
// the user's config.toml.
type grokTrust struct{}

func (grokTrust) Trusted(f Files, w Where) (bool, Rule) {
	at := At{Dest: &Dest{Env: "GROK_HOME", Base: Home, Dir: []string{".grok"}, Files: []string{"trusted_folders.toml"}}}
	files := f.Resolve(at)
	path := []string{"folders", w.Root, "trusted"}
	for _, file := range files {
		raw, ok := f.Member(file, path...)
		var v bool
		if ok && json.Unmarshal(raw, &v) == nil && v {
			return true, Rule{Text: "Grok Build trusts " + w.Root, File: file, Path: path}
		}
	}
	r := Rule{Text: "Grok Build does not trust " + w.Root + " yet: it asks when it starts there (grok --trust), and starts no project server until then"}
	if len(files) > 0 {
		r.File = files[0]
	}
	return false, r
}
