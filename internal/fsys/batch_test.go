package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// stepLog records the steps of a real filesystem, as "stage base".
type stepLog struct{ steps []string }

func (l *stepLog) fs(intr *Interrupt) FS {
	return NewOSWith(OSOptions{Interrupt: intr, AfterStep: func(stage, name string) {
		base := filepath.Base(name)
		if stage == "temp" || stage == "synced" {
			base, _, _ = strings.Cut(strings.TrimPrefix(base, "."), ".mcpwire-")
		}
		l.steps = append(l.steps, stage+" "+base)
	}})
}

// of returns the steps of one stage, in order.
func (l *stepLog) of(stage string) []string {
	var out []string
	for _, s := range l.steps {
		if rest, ok := strings.CutPrefix(s, stage+" "); ok {
			out = append(out, rest)
		}
	}
	return out
}

// TestApplyBatched: targets that all have a Batch are edited in target order, then
// written batch by batch (target order within a batch): every temporary file is
// written and synced before the first rename, and each batch is renamed before the
// next. Results stay in target order.
//
// spec: W3 W7
func TestApplyBatched(t *testing.T) {
	dir := t.TempDir()
	path := func(n string) string { return filepath.Join(dir, n) }
	writeTestFile(t, path("a"), "a\n", 0o644)
	var edits []string
	target := func(name string, batch int) Target {
		return Target{Path: path(name), Batch: batch, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			edits = append(edits, name)
			return append(slices.Clone(cur.Data), name+"!\n"...), 0o600, false, nil
		}}
	}
	targets := []Target{target("a", 2), target("b", 1), target("c", 2), target("d", 3), target("e", 1)}
	var log stepLog
	res, err := Apply(log.fs(nil), targets)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d", "e"}; !reflect.DeepEqual(edits, want) {
		t.Errorf("edits ran in %q, want %q (target order)", edits, want)
	}
	order := []string{"b", "e", "a", "c", "d"}
	for _, stage := range []string{"temp", "synced", "rename"} {
		if got := log.of(stage); !reflect.DeepEqual(got, order) {
			t.Errorf("%s steps %q, want %q (write order)", stage, got, order)
		}
	}
	firstRename := slices.IndexFunc(log.steps, func(s string) bool { return strings.HasPrefix(s, "rename ") })
	lastSynced := slices.IndexFunc(log.steps, func(s string) bool { return s == "synced d" })
	if lastSynced > firstRename {
		t.Errorf("a temporary file was synced after the first rename: %q", log.steps)
	}
	for i, r := range res {
		if r.Path != targets[i].Path || !r.Changed {
			t.Errorf("result %d = %+v", i, r)
		}
	}
	if got := fileState(t, path("a")); got != state(0o600, "a\na!\n") {
		t.Errorf("a = %q", got)
	}
	if got := fileState(t, path("d")); got != state(0o600, "d!\n") {
		t.Errorf("d = %q", got)
	}
	noTemp(t, dir)
}

// TestApplyPartlyBatched: one target without a Batch writes the whole transaction
// one file after the other, in target order, as before batches.
//
// spec: W3
func TestApplyPartlyBatched(t *testing.T) {
	dir := t.TempDir()
	targets := []Target{
		{Path: filepath.Join(dir, "a"), Batch: 2, Edit: editSet("a", 0o600)},
		{Path: filepath.Join(dir, "b"), Edit: editSet("b", 0o600)},
	}
	var log stepLog
	if _, err := Apply(log.fs(nil), targets); err != nil {
		t.Fatal(err)
	}
	want := []string{"lock a", "lock b", "temp a", "synced a", "rename a", "temp b", "synced b", "rename b", "unlock b", "unlock a"}
	if !reflect.DeepEqual(log.steps, want) {
		t.Errorf("steps %q, want %q", log.steps, want)
	}
}

// TestApplyBatchedRedo: another program rewrites a batched file after mcpwire synced
// its temporary file: the compare before the rename sees it, the edit is redone on
// the new content (W8), and the targets still to write are edited again — a record
// built from the file's edit follows it.
//
// spec: W8 W7
func TestApplyBatchedRedo(t *testing.T) {
	dir := t.TempDir()
	file, record := filepath.Join(dir, "file"), filepath.Join(dir, "record")
	writeTestFile(t, file, "base\n", 0o600)
	var last []byte
	targets := []Target{
		{Path: file, Batch: 1, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			last = append(slices.Clone(cur.Data), "mine\n"...)
			return last, 0o600, false, nil
		}},
		{Path: record, Batch: 2, Edit: func(Snapshot) ([]byte, fs.FileMode, bool, error) {
			return slices.Clone(last), 0o600, false, nil
		}},
	}
	raced := false
	f := NewOSWith(OSOptions{AfterStep: func(stage, name string) {
		if stage == "synced" && strings.Contains(name, ".file.") && !raced {
			raced = true
			writeTestFile(t, file, "base\nother writer\n", 0o600)
		}
	}})
	if _, err := Apply(f, targets); err != nil {
		t.Fatal(err)
	}
	want := state(0o600, "base\nother writer\nmine\n")
	if got := fileState(t, file); got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
	if got := fileState(t, record); got != want {
		t.Errorf("record = %q, want %q (edited again after the redo)", got, want)
	}
	noTemp(t, dir)
}

// TestApplyBatchedInterrupt: a signal while the temporary files of a batched
// transaction are written stops it with nothing renamed and no temporary file left.
//
// spec: W3 W7
func TestApplyBatchedInterrupt(t *testing.T) {
	dir, targets, before := rollbackFixture(t)
	for i := range targets {
		targets[i].Batch = 1
	}
	intr := NewInterrupt(nil, nil)
	f := NewOSWith(OSOptions{Interrupt: intr, AfterStep: func(stage, name string) {
		if stage == "temp" && strings.Contains(name, "settings.json") {
			intr.Stop(errStop)
		}
	}})
	if _, err := Apply(f, targets); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want the interruption", err)
	}
	for p, want := range before {
		if got := fileState(t, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	noTemp(t, dir)
}

// TestApplyRemovesLeftoversOfEveryTarget: a transaction on the real filesystem takes
// all its locks, then removes the stale temporary files of every target it locked,
// listing each directory once — and only theirs.
//
// spec: W3
func TestApplyRemovesLeftoversOfEveryTarget(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".a.mcpwire-1.tmp", ".b.mcpwire-2.tmp", ".b.mcpwire-3.tmp", ".c.mcpwire-4.tmp"} {
		writeTestFile(t, filepath.Join(dir, n), "partial", 0o600)
	}
	var log stepLog
	targets := []Target{{Path: filepath.Join(dir, "a"), Edit: editSet("a", 0o600)}, {Path: filepath.Join(dir, "b"), Edit: editSet("b", 0o600)}}
	if _, err := Apply(log.fs(nil), targets); err != nil {
		t.Fatal(err)
	}
	first := slices.Clone(log.steps[:5])
	slices.Sort(first[2:]) // in directory order
	if want := []string{"lock a", "lock b", "clean .a.mcpwire-1.tmp", "clean .b.mcpwire-2.tmp", "clean .b.mcpwire-3.tmp"}; !reflect.DeepEqual(first, want) {
		t.Errorf("steps %q, want %q first", log.steps, want)
	}
	if got := listTree(t, dir); !reflect.DeepEqual(got, []string{".c.mcpwire-4.tmp", "a", "b"}) {
		t.Errorf("dir holds %q", got)
	}
}

// TestApplyBatchedMany: a batched transaction of many files in many directories, in
// three batches, on the real filesystem (their fsyncs concurrent) writes every file,
// and leaves no temporary or lock file.
//
// spec: W3 W7
func TestApplyBatchedMany(t *testing.T) {
	dir := t.TempDir()
	var targets []Target
	for i := range 40 {
		p := filepath.Join(dir, fmt.Sprint("d", i%7), fmt.Sprint("f", i))
		targets = append(targets, Target{Path: p, Batch: 1 + i%3, DirPerm: 0o700, Edit: editSet(fmt.Sprint("content ", i), 0o600)})
	}
	res, err := Apply(OS{}, targets)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if got, want := fileState(t, r.Path), fmt.Sprint(state(0o600, "content "), i); !r.Changed || got != want {
			t.Errorf("%s = %q, changed %v; want %q", r.Path, got, r.Changed, want)
		}
	}
	noTemp(t, dir)
}
