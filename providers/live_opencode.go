package providers

// opencode's and Kilo's liveness (opencode 1.18.33 and kilo 7.7.7 tested,
// docs/explain.md): the project's files, looked for from the start directory up to
// the git work tree's top (or the filesystem's root outside one), are layered over
// the user's, a server's entry merged member by member, the nearest winning
// ("enabled" included); no trust or approval; an entry it cannot use makes it skip
// the whole file. Kilo reads the project's opencode.json too, under its own kilo.json.
func opencodeLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkGit},
			{At: At{Scope: User}},
		},
		Merge:         true,
		DropsBadFiles: true,
	}
}

func kiloLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkGit},
			{At: At{Scope: Project, Of: "opencode", Dest: &Dest{Base: ProjectDir, Files: []string{"opencode.json"}}}, Walk: WalkGit, Label: "opencode.json"},
			{At: At{Scope: User}},
		},
		Merge:         true,
		DropsBadFiles: true,
	}
}
