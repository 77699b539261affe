package render_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestGitIgnoredRefusals: a client that reads its project file only when git ignores
// it (RunWield) gets one only then; every other answer of git is refused naming the
// client, with what to do on hint lines (its user file where it has one), and
// nothing is written. The CLI only asks git; the wording is render's, from the table.
//
// spec: I1 W7 §0
func TestGitIgnoredRefusals(t *testing.T) {
	// paths as the system spells them; the line for .gitignore is git's, with a slash
	gitignore, userFile := filepath.Join("PROJECT", ".gitignore"), filepath.Join("HOME", ".wld", "mcp.json")
	for _, tc := range []struct {
		st    render.IgnoreState
		err   error
		want  string
		hints []string
	}{
		{render.GitTracks, nil, "is tracked by git; RunWield only reads an untracked, ignored project file", []string{"untrack it (the file stays): git -C PROJECT rm --cached .wld/mcp.json"}},
		{render.GitWouldCommit, nil, "would not be ignored by git; RunWield only reads a project file git ignores", []string{"add this line to " + gitignore + ": .wld/mcp.json"}},
		{render.NotCheckout, nil, "is not inside a git checkout; RunWield only reads a project file of a git checkout that ignores it", []string{"use --scope user (" + userFile + ")", "git init the project and add this line to " + gitignore + ": .wld/mcp.json"}},
		{render.NoGit, nil, "git is not installed; RunWield only reads a project file git ignores", []string{"use --scope user (" + userFile + ")"}},
		{render.GitFailed, errors.New("exit status 128"), "is ignored: exit status 128; RunWield only reads an ignored project file of a git checkout", []string{"use --scope user (" + userFile + ")"}},
	} {
		w := newWorld(t)
		r := w.request("runwield", providers.Project, "", "fetch")
		r.Inject.Ignored = func(string) (render.IgnoreState, error) { return tc.st, tc.err }
		_, err := write.Inject(fsys.NewOS(), r)
		var h hint.Hinter
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &h) {
			t.Errorf("state %d: %v, want %q with hints", tc.st, err, tc.want)
			continue
		}
		var hints []string
		for _, l := range h.Hints() {
			hints = append(hints, strings.NewReplacer(w.project, "PROJECT", w.home, "HOME").Replace(l))
		}
		if !slices.Equal(hints, tc.hints) {
			t.Errorf("state %d: hints %q, want %q", tc.st, hints, tc.hints)
		}
		if _, err := os.Stat(filepath.Join(w.project, ".wld")); !os.IsNotExist(err) {
			t.Errorf("state %d: something was written: %v", tc.st, err)
		}
	}
}

// signalFS closes seen the first time a path holding mark is looked at.
type signalFS struct {
	fsys.FS
	mark string
	once sync.Once
	seen chan struct{}
}

func (s *signalFS) Lstat(name string) (fs.FileInfo, error) {
	if strings.Contains(name, s.mark) {
		s.once.Do(func() { close(s.seen) })
	}
	return s.FS.Lstat(name)
}

// TestGitCheckRunsWhileOthersArePrepared: within one injection into several clients
// the git check of RunWield's project file (a process, about 10 ms) runs while the
// clients after it are prepared — here the check answers only once Cursor's file is
// looked at — and its refusal still comes first, before a later client's error, with
// nothing written (issue 13).
//
// spec: I1 W7
func TestGitCheckRunsWhileOthersArePrepared(t *testing.T) {
	w := newWorld(t)
	f := &signalFS{FS: fsys.NewOS(), mark: string(filepath.Separator) + ".cursor", seen: make(chan struct{})}
	answer := func(st render.IgnoreState) render.IgnoreCheck {
		return func(string) (render.IgnoreState, error) {
			select {
			case <-f.seen:
				return st, nil
			case <-time.After(5 * time.Second):
				return render.GitFailed, errors.New("asked before Cursor was prepared, and waited for")
			}
		}
	}
	rw := w.request("runwield", providers.Project, "", "fetch")
	rw.Inject.Ignored = answer(render.GitIgnores)
	if err := injectTogether(f, rw, w.request("cursor", providers.Project, "", "fetch")); err != nil {
		t.Fatal(err)
	}

	w = newWorld(t)
	f = &signalFS{FS: fsys.NewOS(), mark: string(filepath.Separator) + ".cursor", seen: make(chan struct{})}
	rw = w.request("runwield", providers.Project, "", "fetch")
	rw.Inject.Ignored = answer(render.GitWouldCommit)
	_, err := write.PrepareAll(f, []write.Request{rw, w.request("cursor", providers.Project, "", "no-such-server")})
	if err == nil || !strings.Contains(err.Error(), "would not be ignored by git") {
		t.Errorf("got %v, want RunWield's refusal before Cursor's error", err)
	}
	if _, err := os.Stat(filepath.Join(w.project, ".wld")); !os.IsNotExist(err) {
		t.Errorf("something was written: %v", err)
	}
}

// TestGitCheckStartsBeforeAnyIsPrepared: the git check of RunWield's project file
// starts before any client of the injection is prepared — here RunWield comes last,
// after Cursor, and Cursor's file is looked at only once git has been asked — so that
// the process runs while they all are (issue 31); its refusal still comes in
// RunWield's turn: after an earlier client's error, before a later one's.
//
// spec: I1 W7
func TestGitCheckStartsBeforeAnyIsPrepared(t *testing.T) {
	w := newWorld(t)
	asked := make(chan struct{})
	var once sync.Once
	f := &waitFS{FS: fsys.NewOS(), mark: string(filepath.Separator) + ".cursor", wait: asked}
	rw := w.request("runwield", providers.Project, "", "fetch")
	rw.Inject.Ignored = func(string) (render.IgnoreState, error) {
		once.Do(func() { close(asked) })
		return render.GitWouldCommit, nil
	}
	_, err := write.PrepareAll(f, []write.Request{w.request("cursor", providers.Project, "", "fetch"), rw})
	if err == nil || !strings.Contains(err.Error(), "would not be ignored by git") {
		t.Fatalf("got %v, want RunWield's refusal", err)
	}
	if f.late {
		t.Error("Cursor was prepared before git was asked")
	}

	// an earlier client's error comes first, a later one's after
	for _, c := range []struct {
		name string
		reqs []write.Request
		want string
	}{
		{"error before", []write.Request{w.request("cursor", providers.Project, "", "no-such-server"), rw}, "no-such-server"},
		{"error after", []write.Request{rw, w.request("cursor", providers.Project, "", "no-such-server")}, "would not be ignored by git"},
	} {
		for _, fs := range []fsys.FS{fsys.NewOS(), &signalFS{FS: fsys.NewOS(), mark: "\x00", seen: make(chan struct{})}} {
			if _, err := write.PrepareAll(fs, c.reqs); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (%T): got %v, want %q", c.name, fs, err, c.want)
			}
		}
	}
}

// waitFS holds the first look at a path holding mark until wait is closed, and says
// whether it waited in vain (late).
type waitFS struct {
	fsys.FS
	mark string
	wait chan struct{}
	once sync.Once
	late bool
}

func (s *waitFS) Lstat(name string) (fs.FileInfo, error) {
	if strings.Contains(name, s.mark) {
		s.once.Do(func() {
			select {
			case <-s.wait:
			case <-time.After(3 * time.Second):
				s.late = true
			}
		})
	}
	return s.FS.Lstat(name)
}
