package providers

// opencode's and Kilo's liveness (opencode 1.18.33 and kilo 7.7.7 tested,
// docs/explain.md): the project's file is layered over the user's, a server's entry
// merged member by member, the project's members winning ("enabled" included); no
// trust or approval. Kilo reads the project's opencode.json too, under its own
// kilo.json.
var (
	opencodeLive = &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}},
			{At: At{Scope: User}},
		},
		Merge: true,
	}
	kiloLive = &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}},
			{At: At{Scope: Project, Of: "opencode", Dest: &Dest{Base: ProjectDir, Files: []string{"opencode.json"}}}, Label: "opencode.json"},
			{At: At{Scope: User}},
		},
		Merge: true,
	}
)
