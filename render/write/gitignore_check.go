package write

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
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
	if r.batch == nil {
		return r.askIgnored(path)
	}
	c, ok := r.batch.early[r.batch.req]
	if !ok || c.path != path {
		c = r.startIgnored(path)
	}
	r.batch.ignored = append(r.batch.ignored, ignoreCheck{req: r.batch.req, done: c.done})
	return nil
}

// askIgnored asks git whether it ignores path, and refuses it unless it does.
func (r *Request) askIgnored(path string) error {
	if st, err := r.Inject.Ignored(path); st != render.GitIgnores || err != nil {
		return r.ignoreRefusal(path, st, err)
	}
	return nil
}

// startIgnored starts askIgnored on its own goroutine.
func (r *Request) startIgnored(path string) earlyCheck {
	done := make(chan error, 1)
	go func() { done <- r.askIgnored(path) }()
	return earlyCheck{path: path, done: done}
}

// startEarlyChecks starts the git checks of the requests before any is prepared, so
// that the process runs while all of them are (issue 31: the check of RunWield's
// project file, the 14th of 36 clients, ended after the last one was prepared). A
// check counts only once its request's Prepare asks for it (checkIgnored), at the
// same point as before: a request refused earlier in its Prepare is refused for that,
// as when the check began there.
func (b *prepareBatch) startEarlyChecks(f fsys.FS, reqs []Request) {
	for i, r := range reqs {
		if !r.Provider.GitIgnored || r.Inject.Ignored == nil || r.Provider.Manual() {
			continue
		}
		if scope, path, err := r.destination(f); err == nil && scope == providers.Project {
			if b.early == nil {
				b.early = map[int]earlyCheck{}
			}
			b.early[i] = r.startIgnored(path)
		}
	}
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
