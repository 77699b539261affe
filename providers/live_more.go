package providers

// The liveness of auggie, Qoder CLI and Factory droid (each tested, docs/explain.md):
// their files in scope order, local over project over user, whole entries, with the
// per-entry switch and no trust or approval.
var (
	auggieLive = &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Local}},
			{At: At{Scope: Project}},
			{At: At{Scope: User}},
		},
	}
	qoderLive = &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Local}},
			{At: At{Scope: Project}},
			{At: At{Scope: User}},
		},
	}
	factoryLive = &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}},
			{At: At{Scope: User}},
		},
	}
)
