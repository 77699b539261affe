package render

// IgnoreState is what git says of a file inside a project: whether it would keep the
// file out of commits. A client that reads a project file only when git ignores it
// (providers.Provider.GitIgnored) gets one only then; a private file inside a project
// (a local scope) is committed unless git ignores it (P7).
type IgnoreState int

const (
	// GitIgnores: git ignores the file and does not track it.
	GitIgnores IgnoreState = iota
	// GitTracks: git ignores the file but tracks it all the same.
	GitTracks
	// GitWouldCommit: git does not ignore the file.
	GitWouldCommit
	// NotCheckout: the project is not inside a git checkout.
	NotCheckout
	// NoGit: git is not installed.
	NoGit
	// GitFailed: git could not answer (the error says why).
	GitFailed
)

// IgnoreCheck asks git about a file of the project (the CLI runs git; render decides
// and words what the answer means for the client).
type IgnoreCheck func(path string) (IgnoreState, error)
