package write

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// ignoreRefusal is the refusal of a project file the client would read only when git
// ignores it: what git said, and how to get a file the client reads.
func (r *Request) ignoreRefusal(path string, st render.IgnoreState, gitErr error) error {
	who := r.Provider.Display
	rel, _ := filepath.Rel(r.Project, path)
	rel = filepath.ToSlash(rel)
	addLine := fmt.Sprintf("add this line to %s: %s", filepath.Join(r.Project, ".gitignore"), rel)
	useUser := ""
	if user := r.privateFile(providers.User); user != "" {
		useUser = "use " + user
	}
	var err error
	var hints []string
	switch st {
	case render.GitTracks:
		err = fmt.Errorf("%s is tracked by git; %s only reads an untracked, ignored project file", path, who)
		hints = []string{"untrack it (the file stays): git -C " + r.Project + " rm --cached " + rel}
	case render.GitWouldCommit:
		err = fmt.Errorf("%s would not be ignored by git; %s only reads a project file git ignores", path, who)
		hints = []string{addLine}
	case render.NotCheckout:
		err = fmt.Errorf("%s is not inside a git checkout; %s only reads a project file of a git checkout that ignores it", r.Project, who)
		hints = []string{useUser, "git init the project and " + addLine}
	case render.NoGit:
		err = fmt.Errorf("cannot check that git ignores %s: git is not installed; %s only reads a project file git ignores", path, who)
		hints = []string{useUser}
	default:
		err = fmt.Errorf("cannot ask git whether %s is ignored: %v; %s only reads an ignored project file of a git checkout", path, gitErr, who)
		hints = []string{useUser}
	}
	return hint.Wrap(err, slices.DeleteFunc(hints, func(h string) bool { return h == "" })...)
}

// checkIgnored refuses path unless git ignores it (and does not track it). Asking git
// runs a process (about 10 ms on the development machine): within a PrepareAll it
// runs while the later requests are prepared, and PrepareAll waits for it before it
// returns (waitIgnored), so a refusal still comes before anything is written.
func (r *Request) checkIgnored(path string) error {
	check := func() error {
		if st, err := r.Inject.Ignored(path); st != render.GitIgnores || err != nil {
			return r.ignoreRefusal(path, st, err)
		}
		return nil
	}
	if r.batch == nil {
		return check()
	}
	done := make(chan error, 1)
	go func() { done <- check() }()
	r.batch.ignored = append(r.batch.ignored, ignoreCheck{req: r.batch.req, done: done})
	return nil
}

// waitIgnored waits for the git checks started so far and returns their refusals by
// request.
func (b *prepareBatch) waitIgnored() map[int]error {
	out := map[int]error{}
	for _, c := range b.ignored {
		if err := <-c.done; err != nil {
			out[c.req] = err
		}
	}
	b.ignored = nil
	return out
}
