package providers

import "encoding/json"

// Codex CLI's liveness (codex 0.169.0 tested, docs/explain.md): the project's
// .codex/config.toml files (from the start directory up to the project's top, the
// nearest first), read only in a project the person trusts, are layered over
// ~/.codex/config.toml: a server's table is merged member by member, the nearest
// members winning ("enabled" included); a table it cannot use fails the whole
// configuration. Trust is [projects."<project>"] trust_level = "trusted" in the
// user's config.toml.
func codexLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project, Dest: &Dest{Base: ProjectDir, Dir: []string{".codex"}, Files: []string{"config.toml"}}}, Walk: WalkRoot, Trust: true},
			{At: At{Scope: User}},
		},
		Merge:         true,
		Trust:         codexTrust{},
		DropsBadFiles: true,
	}
}

// codexTrust: trust_level = "trusted" in the project's table of the user's
// config.toml.
type codexTrust struct{}

func (codexTrust) Trusted(f Files, w Where) (bool, Rule) {
	files := f.Resolve(At{Scope: User})
	path := []string{"projects", w.Root, "trust_level"}
	for _, file := range files {
		raw, ok := f.Member(file, path...)
		var level string
		if ok && json.Unmarshal(raw, &level) == nil && level == "trusted" {
			return true, Rule{Text: "Codex CLI trusts " + w.Root, File: file, Path: path}
		}
	}
	r := Rule{Text: "Codex CLI does not trust " + w.Root + ": it reads the project's .codex/config.toml only in a trusted project (trust_level in [projects])"}
	if len(files) > 0 {
		r.File = files[0]
	}
	return false, r
}
