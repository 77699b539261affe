package providers

// The liveness of auggie, Qoder CLI and Factory droid (each tested, docs/explain.md):
// their files in scope order, local over project over user, whole entries, with the
// per-entry switch and no trust or approval.
var (
	auggieLive  = inOrder(Local, Project, User)
	qoderLive   = inOrder(Local, Project, User)
	factoryLive = inOrder(Project, User)
)

// inOrder is the liveness of a client that reads its files of these scopes, the
// first holding a name winning whole, with no trust or approval; its project is the
// top of the git work tree.
func inOrder(scopes ...Scope) *Live {
	l := &Live{Root: RootGit}
	for _, s := range scopes {
		l.Sources = append(l.Sources, Source{At: At{Scope: s}})
	}
	return l
}
