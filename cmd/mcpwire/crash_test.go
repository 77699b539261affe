package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/fixtures"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/winetest"
)

// assertConvergence switches on the check that a rerun after a crash converges to
// exactly the state of an uninterrupted run, ownership records and receipts included
// (issue 11 defect 1: records are staged before the files they describe, see
// docs/writes.md "Crashes").
const assertConvergence = true

// crashWorld is one command of the crash tests and the files it runs on.
type crashWorld struct {
	name string
	args []string
	// setup builds the world under root and returns the directory to run in. root is
	// the same path in every run of a test, so that the records' names (a hash of the
	// real path of the file they describe) are the same too.
	setup func(t *testing.T, root string, pad int) string
}

// crashWorlds: a transaction on one client file (user scope: ~/.claude.json, its
// ownership record, then the registry's receipts), and one on four (project scope:
// .mcp.json, .claude/settings.local.json, the deny record, the ownership record, then
// the receipts).
var crashWorlds = []crashWorld{
	{"user scope", []string{"inject", "--provider", "claude", "--scope", "user", "--servers", "s01,s02"}, userWorld},
	{"project scope", []string{"inject", "--provider", "claude", "--profile", "p"}, projectWorld},
	{"profile switch", []string{"inject", "--provider", "claude", "--profile", "q"}, switchWorld},
}

// switchWorld is projectWorld after inject --profile p, with a profile q that selects
// s02 alone with another rule: injecting q removes s01 and its rule (a sync, B7) and
// rewrites the deny rules, in the four files.
func switchWorld(t *testing.T, root string, pad int) string {
	t.Helper()
	project := projectWorld(t, root, pad)
	home := filepath.Join(root, "home")
	fixtures.WriteFiles(t, "", map[string]string{filepath.Join(home, ".aiwg", "mcp-profiles.json"): `{"profiles": {
  "p": {"servers": ["s01", "s02"], "providerOverrides": {"*": {"toolDeny": ["s01__rm"]}}},
  "q": {"servers": ["s02"], "providerOverrides": {"*": {"toolDeny": ["s02__rm"]}}}}}`})
	if r := runIn(t, root, project, []string{"inject", "--provider", "claude", "--profile", "p"}); r.err != nil {
		t.Fatalf("inject --profile p: %v\n%s", r.err, r.stderr)
	}
	return project
}

// userWorld is a HOME with a registry and a ~/.claude.json of Claude Code's own state
// (padded with pad bytes of project history).
func userWorld(t *testing.T, root string, pad int) string {
	t.Helper()
	home := filepath.Join(root, "home")
	writeRegistry(t, home, 2, "")
	writeClaudeJSON(t, filepath.Join(home, ".claude.json"), pad)
	return home
}

// projectWorld adds a project with a person's own .mcp.json server and deny rule to
// userWorld, and a profile with a deny rule.
func projectWorld(t *testing.T, root string, pad int) string {
	t.Helper()
	home := filepath.Join(root, "home")
	writeRegistry(t, home, 2, `{"profiles": {"p": {"servers": ["s01", "s02"], "providerOverrides": {"*": {"toolDeny": ["s01__rm"]}}}}}`)
	writeClaudeJSON(t, filepath.Join(home, ".claude.json"), pad)
	project := filepath.Join(root, "project")
	fixtures.WriteFiles(t, "", map[string]string{
		filepath.Join(project, ".mcp.json"):                      `{"mcpServers": {"mine": {"command": "my-mcp"}}}`,
		filepath.Join(project, ".claude", "settings.local.json"): `{"permissions": {"deny": ["Read(.env)"]}}`,
	})
	return project
}

// writeClaudeJSON writes a ~/.claude.json with pad bytes of project history.
func writeClaudeJSON(t *testing.T, path string, pad int) {
	t.Helper()
	projects := map[string]any{}
	for i := 0; pad > 0; i++ {
		n := min(pad, 1000)
		projects[fmt.Sprintf("/p/%d", i)] = map[string]any{"history": strings.Repeat("h", n)}
		pad -= n
	}
	b, err := json.Marshal(map[string]any{"numStartups": 3, "projects": projects})
	if err != nil {
		t.Fatal(err)
	}
	fixtures.WriteFiles(t, "", map[string]string{path: string(b)})
}

// worldState maps every file under root to its mode and the sha256 of its content
// (each must parse as JSON), leaving out mcpwire's temporary and lock files, which it
// returns apart (with their sizes).
func worldState(t *testing.T, root string) (files map[string]string, leftovers map[string]int64) {
	t.Helper()
	files, leftovers = map[string]string{}, map[string]int64{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if n := d.Name(); strings.Contains(n, ".mcpwire-") || strings.HasSuffix(n, fsys.LockSuffix) {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			leftovers[p] = fi.Size()
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !json.Valid(b) {
			t.Errorf("%s does not parse", p)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		files[p] = fi.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, leftovers
}

// oldOrNew names every file of got that holds neither its content in old (before the
// run) nor in new (after an uninterrupted run); a file absent from got must be absent
// from one of them. A staged record (<record>.staged) exists only while a transaction
// runs: it may be found after a kill, and the rerun must leave none (convergeDiff).
func oldOrNew(got, old, new map[string]string) []string {
	paths := map[string]bool{}
	for _, m := range []map[string]string{got, old, new} {
		for p := range m {
			paths[p] = true
		}
	}
	var bad []string
	for p := range paths {
		g, inGot := got[p]
		o, inOld := old[p]
		n, inNew := new[p]
		if strings.HasSuffix(p, ".staged") && !inOld && !inNew {
			continue
		}
		if inGot && !(inOld && g == o) && !(inNew && g == n) || !inGot && inOld && inNew {
			bad = append(bad, p)
		}
	}
	slices.Sort(bad)
	return bad
}

// convergeDiff names every file where got differs from the state of an uninterrupted
// run: what a rerun after a crash must reach (issue 11 defect 1).
func convergeDiff(got, want map[string]string) []string {
	var diff []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			diff = append(diff, "missing "+p)
		} else if g != w {
			diff = append(diff, "differs "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diff = append(diff, "extra "+p)
		}
	}
	slices.Sort(diff)
	return diff
}

// crashRun is the outcome of one mcpwire process.
type crashRun struct {
	err    error
	stderr string
}

func (r crashRun) killed() bool {
	return r.err != nil && strings.Contains(r.stderr, "mcpwire: test: killed after step")
}

// runIn runs mcpwire with args in dir (HOME root/home) and extra environment.
func runIn(t *testing.T, root, dir string, args []string, extra ...string) crashRun {
	t.Helper()
	for try := 1; ; try++ {
		cmd := exec.Command(mcpwireBin(t), args...)
		cmd.Env, cmd.Dir = append(procEnv(filepath.Join(root, "home")), extra...), dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if try < 3 && winetest.StartFailed(err) {
			continue
		}
		return crashRun{err: err, stderr: stderr.String()}
	}
}

// crashCheck holds what every crash of one world is compared with.
type crashCheck struct {
	w        crashWorld
	root     string
	pad      int
	old, new map[string]string
	// counts for the log
	kills, leftAfterKill, locksKept, swapsKept, notConverged int
	bytesLeft                                                int64
}

// newCrashCheck runs w once without interruption, in a fresh world.
func newCrashCheck(t *testing.T, w crashWorld, pad int) *crashCheck {
	t.Helper()
	c := &crashCheck{w: w, root: filepath.Join(t.TempDir(), "w"), pad: pad}
	dir := c.fresh(t)
	c.old, _ = worldState(t, c.root)
	if r := runIn(t, c.root, dir, w.args); r.err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", r.err, r.stderr)
	}
	c.new, _ = worldState(t, c.root)
	return c
}

// fresh rebuilds the world and returns the directory to run in.
func (c *crashCheck) fresh(t *testing.T) string {
	t.Helper()
	if err := os.RemoveAll(c.root); err != nil {
		t.Fatal(err)
	}
	return c.w.setup(t, c.root, c.pad)
}

// afterKill checks the world a killed run left, then reruns the command: every file
// parses and holds its old or its new content; the rerun succeeds and leaves no
// temporary file. Two leftovers are allowed (and counted) beside a file the rerun has
// nothing to write to (the registry once its receipts are written), because only a
// write of that file removes them (docs/writes.md): its lock file, when the kill came
// after its last write, and its old content under a temporary name, when the kill
// came in the instant between the atomic swap of W8 and the removal of the old file.
func (c *crashCheck) afterKill(t *testing.T, dir, label string) {
	t.Helper()
	c.kills++
	got, left := worldState(t, c.root)
	if bad := oldOrNew(got, c.old, c.new); len(bad) > 0 {
		t.Errorf("%s: neither old nor new: %q", label, bad)
	}
	for _, size := range left {
		c.leftAfterKill++
		c.bytesLeft += size
	}
	if r := runIn(t, c.root, dir, c.w.args); r.err != nil {
		t.Fatalf("%s: rerun: %v\n%s", label, r.err, r.stderr)
	}
	got, left = worldState(t, c.root)
	for p := range left {
		switch {
		case strings.HasSuffix(p, fsys.LockSuffix):
			c.locksKept++
		case c.swapResidue(t, p, got):
			c.swapsKept++
		default:
			t.Errorf("%s: left after the rerun: %s", label, p)
		}
	}
	if d := convergeDiff(got, c.new); len(d) > 0 {
		c.notConverged++
		if assertConvergence {
			t.Errorf("%s: the rerun did not converge to an uninterrupted run:\n%s", label, strings.Join(d, "\n"))
		}
	}
}

// swapResidue reports whether the temporary file p holds the old content of its file,
// which holds its new content in got (see afterKill).
func (c *crashCheck) swapResidue(t *testing.T, p string, got map[string]string) bool {
	t.Helper()
	dir, name := filepath.Split(p)
	base, _, ok := strings.Cut(strings.TrimPrefix(name, "."), ".mcpwire-")
	target := filepath.Join(dir, base)
	if !ok || got[target] != c.new[target] || c.old[target] == c.new[target] {
		return false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return strings.HasSuffix(c.old[target], " "+hex.EncodeToString(sum[:]))
}

func (c *crashCheck) log(t *testing.T) {
	t.Logf("%d kills; %d temporary or lock files (%d bytes) left by them; after the reruns %d lock files and %d old files swapped out, beside files the reruns did not write, and no other temporary file; %d reruns did not converge (issue 11 defect 1)",
		c.kills, c.leftAfterKill, c.bytesLeft, c.locksKept, c.swapsKept, c.notConverged)
}

// TestCrashAtEveryStep kills mcpwire (MCPWIRE_TEST_CRASH_AFTER) right after every step
// of a transaction on one client file and of one on four files (an inject, and a
// profile switch that removes a server and rewrites deny rules), in turn: each lock,
// temporary file created, written in part and in full, rename and unlock, the staged
// records and the registry's receipts included. After each kill every file parses and
// holds its old or its new content; a rerun of the same command succeeds, leaves no
// temporary file, and converges to exactly an uninterrupted run's state, both kinds of
// ownership record and the receipts included.
//
// spec: W3 W7 W8 C3 C4 C6 B7
func TestCrashAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts about 100 processes")
	}
	for _, w := range crashWorlds {
		t.Run(w.name, func(t *testing.T) {
			c := newCrashCheck(t, w, 2<<20) // 2 MiB: a partly written temporary file is a step
			for n := 1; ; n++ {
				dir := c.fresh(t)
				r := runIn(t, c.root, dir, w.args, fmt.Sprintf("%s=%d", crashAfterEnv, n))
				if !r.killed() {
					if r.err != nil {
						t.Fatalf("step %d: %v\n%s", n, r.err, r.stderr)
					}
					if n < 10 {
						t.Fatalf("only %d steps", n-1)
					}
					break // past the last step
				}
				c.afterKill(t, dir, strings.TrimSpace(r.stderr))
			}
			c.log(t)
		})
	}
}

// TestCrashRandomKills kills mcpwire (SIGKILL, from outside) at random moments of the
// same transactions, on an 8 MiB ~/.claude.json, and checks as TestCrashAtEveryStep
// does.
//
// spec: W3 W7 W8 C3 C4 C6 B7
func TestCrashRandomKills(t *testing.T) {
	if testing.Short() {
		t.Skip("starts about 100 processes")
	}
	for _, w := range crashWorlds {
		t.Run(w.name, func(t *testing.T) {
			c := newCrashCheck(t, w, 8<<20)
			took := c.timeRun(t)
			finished := 0
			for i := range 15 {
				dir := c.fresh(t)
				cmd := exec.Command(mcpwireBin(t), w.args...)
				cmd.Env, cmd.Dir = procEnv(filepath.Join(c.root, "home")), dir
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Duration(rand.Int64N(int64(took))))
				_ = cmd.Process.Kill()
				if cmd.Wait() == nil {
					finished++ // it was quicker this time
					continue
				}
				c.afterKill(t, dir, fmt.Sprintf("kill %d", i))
			}
			c.log(t)
			t.Logf("%d runs finished before their kill", finished)
		})
	}
}

// timeRun returns how long an uninterrupted run takes (the longest of three).
func (c *crashCheck) timeRun(t *testing.T) time.Duration {
	t.Helper()
	var longest time.Duration
	for range 3 {
		dir := c.fresh(t)
		start := time.Now()
		if r := runIn(t, c.root, dir, c.w.args); r.err != nil {
			t.Fatalf("uninterrupted run: %v\n%s", r.err, r.stderr)
		}
		longest = max(longest, time.Since(start))
	}
	return longest
}
