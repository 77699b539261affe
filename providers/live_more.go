package providers

// The liveness of auggie, Qoder CLI and Factory droid (each tested, docs/explain.md),
// none with trust or approval:
//   - auggie: its local, project and user files, the first holding a name winning
//     whole; an entry it cannot use makes it skip the whole file;
//   - Qoder CLI: the .mcp.json and the local file of the directory it starts in, and
//     its user file, layered member by member in that order (a "disabled" of any
//     layer stays);
//   - Factory droid: .factory/mcp.json from the start directory up to the project's
//     top, the nearest first, then the user's; a server whose reference names a
//     variable that is not set, or a file holding an entry it cannot use, is left out.
func auggieLive() *Live {
	l := inOrder(Local, Project, User)
	l.DropsBadFiles = true
	return l
}

func qoderLive() *Live {
	l := inOrder(Project, Local, User)
	l.Root, l.Merge = RootStart, true
	return l
}

func factoryLive() *Live {
	l := inOrder(Project, User)
	l.Sources[0].Walk = WalkRoot
	l.SkipsUnset, l.DropsBadFiles = true, true
	return l
}

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
