package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// diskSteps returns the real filesystem recording each step it takes on the disk
// (fsys.OSOptions.AfterStep: locks, directories, temporary files written and synced,
// renames, removals) relative to root, and the steps recorded so far. The removals
// of one round, which the real filesystem makes concurrently (fsys.RemoveUnchanged),
// are listed sorted.
func diskSteps(root string) (fsys.OS, func() []string) {
	tempName := regexp.MustCompile(`\.mcpwire-[0-9a-z]+\.tmp$`) // its random part
	var mu sync.Mutex
	var steps []string
	f := fsys.NewOSWith(fsys.OSOptions{AfterStep: func(stage, name string) {
		rel, _ := filepath.Rel(root, name)
		mu.Lock()
		steps = append(steps, stage+" "+tempName.ReplaceAllString(filepath.ToSlash(rel), ".mcpwire-*.tmp"))
		mu.Unlock()
	}})
	return f, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Clone(steps)
		for i := 0; i < len(out); {
			j := i
			for j < len(out) && strings.HasPrefix(out[j], "remove ") {
				j++
			}
			slices.Sort(out[i:j])
			i = max(j, i+1)
		}
		return out
	}
}

// TestCrashFSTakesProductionSteps: the filesystem of the in-process crash tests
// (fixtures.CrashFS, here one that never crashes) wraps the real one as an
// fsys.Batcher, so a transaction on it takes the steps production takes, in the same
// order: its locks taken together, every temporary file of a batch written and
// synced before the first rename, the batches one after the other (docs/writes.md
// "Durability"). The case is issue 13's, a 20-server profile injected fresh into
// every provider. Before (issue 26), CrashFS could not reach the batched writes, and
// its crash points were those of files written one after the other, an order
// production never takes.
//
// spec: W3 W7
func TestCrashFSTakesProductionSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 34 clients' files twice")
	}
	w := newEveryWorld(t, filepath.Join(t.TempDir(), "w"))
	var got [2][]string
	for i, crash := range []bool{false, true} {
		w.reset(t)
		base, steps := diskSteps(w.root)
		var f fsys.FS = base
		if crash {
			f = fixtures.NewCrashFS(base, -1)
		}
		w.runOn(t, f)
		got[i] = steps()
	}
	prod, crash := got[0], got[1]
	first := slices.IndexFunc(prod, func(s string) bool { return strings.HasPrefix(s, "rename ") })
	if first < 0 || countPrefix(prod[:first], "synced ") < 2 {
		t.Fatalf("production's steps are not batched (several temporary files synced before the first rename): %q", prod)
	}
	if !slices.Equal(prod, crash) {
		for i := range min(len(prod), len(crash)) {
			if prod[i] != crash[i] {
				t.Fatalf("CrashFS takes other steps than production (%d and %d in all): first difference at step %d: production %q, CrashFS %q",
					len(prod), len(crash), i, prod[i], crash[i])
			}
		}
		t.Fatalf("CrashFS takes %d steps, production %d", len(crash), len(prod))
	}
	t.Logf("%d steps, the same on both", len(prod))
}

// countPrefix counts the steps starting with prefix.
func countPrefix(steps []string, prefix string) int {
	n := 0
	for _, s := range steps {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}
