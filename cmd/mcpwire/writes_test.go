//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/fixtures"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
)

// childCoverDir is the GOCOVERDIR setting of a child that may run as another user:
// under go test -cover a directory anyone may write (else the child's coverage
// emitter adds errors to the stderr a test compares), and nothing otherwise.
func childCoverDir(t *testing.T) []string {
	t.Helper()
	if os.Getenv("GOCOVERDIR") == "" {
		return nil
	}
	dir, err := os.MkdirTemp("", "mcpwire-cover-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return []string{"GOCOVERDIR=" + dir}
}

// injectAll starts one "mcpwire inject --provider claude --scope user --servers sNN"
// per server at once and waits for them; after each exit, done is called. Every
// process must succeed, except that with gaveUp a process may give up after its
// retries because the file kept changing under it (W8: it then writes nothing); the
// number of those is returned.
func injectAll(t *testing.T, home string, from, to int, gaveUp bool, done func()) int {
	t.Helper()
	bin := mcpwireBin(t)
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]string, to+1)
	for i := from; i <= to; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "inject", "--provider", "claude", "--scope", "user", "--servers", fmt.Sprintf("s%02d", i))
			cmd.Env, cmd.Dir = procEnv(home), home
			<-start
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[i] = fmt.Sprintf("s%02d: %v\n%s", i, err, out)
			}
			done()
		}()
	}
	close(start)
	wg.Wait()
	n := 0
	for _, e := range errs {
		switch {
		case e == "":
		case gaveUp && strings.HasSuffix(e, ": "+fsys.ErrChanged.Error()+"\n"):
			n++
		default:
			t.Error(e)
		}
	}
	return n
}

// watchParses reads path until stop is closed and counts the reads that did not parse.
func watchParses(path string, stop <-chan struct{}) (bad *atomic.Int64, wait func()) {
	bad = new(atomic.Int64)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if b, err := os.ReadFile(path); err == nil && !json.Valid(b) {
				bad.Add(1)
			}
			time.Sleep(50 * time.Microsecond)
		}
	}()
	return bad, wg.Wait
}

// TestConcurrentInjects starts 20 mcpwire processes at once, each adding a different
// server to the same ~/.claude.json (user scope): all 20 servers end up there, the
// file parses at every moment, Claude Code's own state survives, and the ownership
// record and the receipts (injectedProviders) list all 20.
//
// Then 20 more, while another process keeps rewriting an unrelated key of the file
// the way Claude Code does (read, modify, write a temporary file, rename, no lock):
// the file parses at every moment, and the other writer's last value survives every
// mcpwire process that ran after it. (That writer may drop mcpwire's entries: it
// rewrites the whole file from what it read, which docs/writes.md says mcpwire cannot
// prevent; so the second round checks the other writer's data, not mcpwire's.)
//
// spec: W8 W3 W7 C1 C6
func TestConcurrentInjects(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 40 processes")
	}
	home := t.TempDir()
	writeRegistry(t, home, 40, "")
	path := filepath.Join(home, ".claude.json")
	if err := os.WriteFile(path, []byte(`{"numStartups": 7, "projects": {"/p": {"allowedTools": []}}, "mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	bad, wait := watchParses(path, stop)
	injectAll(t, home, 1, 20, false, func() {})
	close(stop)
	wait()
	if n := bad.Load(); n > 0 {
		t.Errorf("%d reads of %s did not parse", n, path)
	}
	servers, top := claudeJSON(t, path)
	for i := 1; i <= 20; i++ {
		if _, ok := servers[fmt.Sprintf("s%02d", i)]; !ok {
			t.Errorf("s%02d missing from %s", i, path)
		}
	}
	if string(top["numStartups"]) != "7" || !bytes.Contains(top["projects"], []byte(`"/p"`)) {
		t.Errorf("Claude Code's own state changed: numStartups %s, projects %s", top["numStartups"], top["projects"])
	}
	reg, err := os.ReadFile(filepath.Join(home, ".aiwg", "mcp-servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(reg, []byte(`"claude-code"`)); n != 20 {
		t.Errorf("%d receipts (injectedProviders) in the registry, want 20", n)
	}
	recs, _ := filepath.Glob(filepath.Join(home, ".aiwg", "mcp-ownership", "*.json"))
	if len(recs) != 1 {
		t.Fatalf("ownership records %v, want one", recs)
	}
	var rec struct{ Entries map[string]string }
	if b, err := os.ReadFile(recs[0]); err != nil || json.Unmarshal(b, &rec) != nil || len(rec.Entries) != 20 {
		t.Errorf("ownership record tracks %d entries, want 20 (%v)", len(rec.Entries), err)
	}
	if left, _ := filepath.Glob(filepath.Join(home, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(home, "*"+fsys.LockSuffix)); len(left) > 0 {
		t.Errorf("lock files left: %v", left)
	}

	// round two, with a foreign writer
	stopFile := filepath.Join(t.TempDir(), "stop")
	writer := exec.Command(os.Args[0], "-test.run=^TestForeignWriterHelper$")
	writer.Env = append(os.Environ(), foreignFileEnv+"="+path, foreignStopEnv+"="+stopFile)
	var wout bytes.Buffer
	writer.Stdout, writer.Stderr = &wout, &wout
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	waitWrites(t, path, 5) // the writer is running
	stop2 := make(chan struct{})
	bad, wait = watchParses(path, stop2)
	var finished atomic.Int64
	gave := injectAll(t, home, 21, 40, true, func() {
		if finished.Add(1) == 5 { // most of mcpwire's writes are still to come
			if err := os.WriteFile(stopFile, nil, 0o600); err != nil {
				t.Error(err)
			}
		}
	})
	if err := writer.Wait(); err != nil {
		t.Fatalf("foreign writer: %v\n%s", err, wout.String())
	}
	close(stop2)
	wait()
	if n := bad.Load(); n > 0 {
		t.Errorf("%d reads of %s did not parse", n, path)
	}
	var last, reverts int
	if _, err := fmt.Sscanf(lastLine(wout.String()), "last=%d reverts=%d", &last, &reverts); err != nil || last < 5 {
		t.Fatalf("foreign writer said %q", wout.String())
	}
	// reverts are reads where the writer did not find its own previous value. Its
	// write landing between an mcpwire process's compare and rename is swapped back
	// at once (internal/fsys replace, tested on its own); the writer can only see
	// mcpwire's file during that instant (docs/writes.md), so this is logged, not
	// asserted.
	t.Logf("foreign writer: %d writes, %d reverted\n%s", last, reverts, wout.String())
	servers, top = claudeJSON(t, path)
	if string(top["fw"]) != strconv.Itoa(last) {
		t.Errorf("the other writer's last value %d was undone: fw is %s", last, top["fw"])
	}
	if string(top["numStartups"]) != "7" {
		t.Errorf("numStartups %s, want 7", top["numStartups"])
	}
	t.Logf("%d of 40 servers present after the foreign writer's rewrites; %d mcpwire processes gave up", len(servers), gave)
}

// lastLine returns the last line of s that starts with "last=".
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "last=") {
			return lines[i]
		}
	}
	return ""
}

// waitWrites waits until path's "fw" key reached n.
func waitWrites(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var top map[string]json.RawMessage
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &top) == nil {
			if v, _ := strconv.Atoi(string(top["fw"])); v >= n {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the foreign writer did not start")
}

// foreignPause is the other writer's pause between two rewrites. Claude Code
// rewrites ~/.claude.json on events, not in a loop; a few milliseconds is already far
// busier than that.
var foreignPause = 5 * time.Millisecond

const (
	foreignFileEnv = "MCPWIRE_TEST_FOREIGN_FILE"
	foreignStopEnv = "MCPWIRE_TEST_FOREIGN_STOP"
)

// TestForeignWriterHelper is not a test: TestConcurrentInjects runs it in a process
// of its own as the other writer. It rewrites the key "fw" of the file with 1, 2, 3…
// the way Claude Code writes ~/.claude.json (read, modify in memory, write a
// temporary file, rename over the file; no lock) until the stop file exists, then
// once more, and prints how many writes it made and how often it did not find its
// previous value.
func TestForeignWriterHelper(t *testing.T) {
	path, stop := os.Getenv(foreignFileEnv), os.Getenv(foreignStopEnv)
	if path == "" {
		t.Skip("helper process for TestConcurrentInjects")
	}
	reverts := 0
	write := func(i int) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(b, &top); err != nil {
			t.Fatalf("read a file that does not parse: %v", err)
		}
		if i > 1 && string(top["fw"]) != strconv.Itoa(i-1) {
			reverts++
			fmt.Printf("revert: found %s, wrote %d\n", top["fw"], i-1)
		}
		top["fw"] = json.RawMessage(strconv.Itoa(i))
		out, _ := json.MarshalIndent(top, "", "  ")
		tmp := path + ".claude-tmp"
		if err := os.WriteFile(tmp, out, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	i := 1
	for ; ; i++ {
		if _, err := os.Stat(stop); err == nil {
			break
		}
		write(i)
		time.Sleep(foreignPause)
	}
	write(i)
	fmt.Printf("last=%d reverts=%d\n", i, reverts)
}

// TestOwnershipDirUnwritable: an ownership directory (or the write layer that would
// hold a missing one) that mcpwire may not create files in is refused before the
// first write: exit 1, an error naming the directory, and every file as it was. As
// root, whom permissions do not stop, the check runs as uid/gid 65534.
//
// spec: W7 C3 C6
func TestOwnershipDirUnwritable(t *testing.T) {
	for _, tc := range []struct{ name, ro string }{
		{"mcp-ownership", ".aiwg/mcp-ownership"},
		{"claude-tool-permissions", ".aiwg/claude-tool-permissions"},
		{"write layer", ".aiwg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := os.MkdirTemp("", "mcpwire-unwritable-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(dir, "bin", "mcpwire")
			if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(mcpwireBin(t))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin, data, 0o755); err != nil {
				t.Fatal(err)
			}
			home := filepath.Join(dir, "home")
			project := filepath.Join(dir, "project")
			writeRegistry(t, home, 2, `{"profiles": {"p": {"servers": ["s01", "s02"], "providerOverrides": {"*": {"toolDeny": ["s01__rm"]}}}}}`)
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			ro := filepath.Join(home, tc.ro)
			if err := os.MkdirAll(ro, 0o700); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "inject", "--provider", "claude", "--profile", "p", "--project", project)
			cmd.Env, cmd.Dir = procEnv(home), project
			if os.Geteuid() == 0 {
				// root may write anywhere: hand the tree to an unprivileged user
				err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
					if err != nil {
						return err
					}
					return os.Lchown(p, 65534, 65534)
				})
				if err != nil {
					t.Fatal(err)
				}
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			}
			cmd.Env = append(cmd.Env, childCoverDir(t)...)
			if err := os.Chmod(ro, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(ro, 0o700) })
			before := fixtures.Tree(t, dir)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err = cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1\n%s", err, stderr.String())
			}
			want := "mcpwire: error: " + ro + ": directory is not writable: permission denied\n"
			if stderr.String() != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
			}
			if after := fixtures.Tree(t, dir); !maps.Equal(before, after) {
				t.Errorf("files changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// TestInjectFaultsThroughCLI runs "mcpwire inject" in this process on a filesystem
// that fails the Nth write (each of the four files of a Claude Code injection: MCP
// config, settings, deny record, ownership record), at the write and at the rename:
// exit 1, the injected fault reported, every file as before (the directories it
// created stay), and no receipt (injectedProviders) in the registry. Without a
// fault, the fifth write is the registry's receipt.
//
// spec: W7 W9 L10
func TestInjectFaultsThroughCLI(t *testing.T) {
	run := func(t *testing.T, f fsys.FS) (string, int, string) {
		root := t.TempDir()
		home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
		writeRegistry(t, home, 2, `{"profiles": {"p": {"servers": ["s01", "s02"], "providerOverrides": {"*": {"toolDeny": ["s01__rm"]}}}}}`)
		if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, ".claude", "settings.local.json"), []byte(`{"permissions": {"deny": ["Read(.env)"]}}`), 0o640); err != nil {
			t.Fatal(err)
		}
		before := fixtures.Tree(t, root)
		code, stderr := runMain(root, project, f, []string{"inject", "--provider", "claude", "--profile", "p"})
		after := fixtures.Tree(t, root)
		for _, c := range f.(*fsystest.Faulty).Calls() {
			if d, ok := strings.CutPrefix(c, "mkdir "); ok {
				delete(after, d[:strings.LastIndexByte(d, ' ')]) // a rollback keeps directories (fsys.Apply)
			}
		}
		diff := ""
		if !maps.Equal(before, after) {
			diff = fmt.Sprintf("before %v\nafter  %v", before, after)
		}
		return stderr, code, diff
	}
	ok := &fsystest.Faulty{}
	if _, code, _ := run(t, ok); code != 0 {
		t.Fatalf("without faults: exit %d", code)
	}
	var writes, removes []string
	for _, c := range ok.Calls() {
		if strings.HasPrefix(c, "write ") {
			writes = append(writes, c)
		}
		if strings.HasPrefix(c, "remove ") && strings.HasSuffix(c, ".staged") {
			removes = append(removes, c)
		}
	}
	// two staged records, 4 client files and records, the registry; then the staged
	// records go (docs/writes.md)
	if len(writes) != 7 || !strings.Contains(writes[6], "mcp-servers.json") || len(removes) != 2 {
		t.Fatalf("without faults: calls %q, want 2 staged records, 4 files, the registry", ok.Calls())
	}
	for n := 1; n <= 6; n++ {
		for _, stage := range []string{fsystest.StageWrite, fsystest.StageRename} {
			t.Run(fmt.Sprintf("write %d %s", n, stage), func(t *testing.T) {
				stderr, code, diff := run(t, &fsystest.Faulty{FailWrite: n, WriteStage: stage})
				if code != 1 || !strings.HasPrefix(stderr, "mcpwire: error: ") || !strings.Contains(stderr, fsystest.ErrInjected.Error()) {
					t.Errorf("exit %d, stderr %q", code, stderr)
				}
				if diff != "" {
					t.Errorf("files changed:\n%s", diff)
				}
			})
		}
	}
}

// TestConcurrentProfileInjectsFreshHome starts 20 "mcpwire inject --profile pNN"
// processes at once into a HOME holding nothing but the registry: each profile adds
// its own server and its own deny rule, so every process creates or changes
// ~/.claude.json, ~/.claude/settings.json (in a directory none of them finds), the
// deny-rule record and the ownership record (in directories none of them finds
// either), and the registry's receipts. Every process succeeds. A --profile inject is
// a sync (B7), so the last one leaves its own server and rule alone: ~/.claude.json
// holds one server, the ownership record exactly that one, settings.json that
// profile's rule and its record exactly that rule, and no staged record is left.
//
// spec: W8 W7 C2 C3 C6
func TestConcurrentProfileInjectsFreshHome(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 processes")
	}
	const n = 20
	home := t.TempDir()
	profiles := map[string]any{}
	for i := 1; i <= n; i++ {
		profiles[fmt.Sprintf("p%02d", i)] = map[string]any{
			"servers":           []string{fmt.Sprintf("s%02d", i)},
			"providerOverrides": map[string]any{"*": map[string]any{"toolDeny": []string{fmt.Sprintf("s%02d__rm", i)}}},
		}
	}
	pj, _ := json.Marshal(map[string]any{"profiles": profiles})
	writeRegistry(t, home, n, string(pj))
	bin := mcpwireBin(t)
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]string, n+1)
	for i := 1; i <= n; i++ {
		wg.Go(func() {
			cmd := exec.Command(bin, "inject", "--provider", "claude", "--scope", "user", "--profile", fmt.Sprintf("p%02d", i))
			cmd.Env, cmd.Dir = procEnv(home), home
			<-start
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("p%02d: %v\n%s", i, err, out)
			}
		})
	}
	close(start)
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	// each --profile inject is a sync (B7): the last one leaves its one server, its one
	// rule, and records naming exactly those
	servers, _ := claudeJSON(t, filepath.Join(home, ".claude.json"))
	if len(servers) != 1 {
		t.Errorf("~/.claude.json holds %d servers, want the last profile's one", len(servers))
	}
	var last string
	for name := range servers {
		last = name
	}
	var settings struct{ Permissions struct{ Deny []string } }
	var own struct{ Entries map[string]string }
	var deny struct{ DenyAdded []string }
	readJSON(t, filepath.Join(home, ".claude", "settings.json"), &settings)
	readOne(t, filepath.Join(home, ".aiwg", "mcp-ownership"), &own)
	readOne(t, filepath.Join(home, ".aiwg", "claude-tool-permissions"), &deny)
	if _, ok := own.Entries[last]; len(own.Entries) != 1 || !ok {
		t.Errorf("the ownership record tracks %v, want %s alone", own.Entries, last)
	}
	if rules := settings.Permissions.Deny; !slices.Equal(rules, []string{"mcp__" + last + "__rm"}) || !slices.Equal(rules, deny.DenyAdded) {
		t.Errorf("settings.json denies %q, its record names %q: want the rule of %s in both", rules, deny.DenyAdded, last)
	}
	reg, err := os.ReadFile(filepath.Join(home, ".aiwg", "mcp-servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c := bytes.Count(reg, []byte(`"claude-code"`)); c < 1 {
		t.Errorf("no receipt (injectedProviders) in the registry")
	}
	if staged, _ := filepath.Glob(filepath.Join(home, ".aiwg", "*", "*.staged")); len(staged) > 0 {
		t.Errorf("staged records left: %v", staged)
	}
	noLeftovers(t, home)
}

// claudeJSON decodes ~/.claude.json.
func claudeJSON(t *testing.T, path string) (servers map[string]json.RawMessage, top map[string]json.RawMessage) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	if err := json.Unmarshal(top["mcpServers"], &servers); err != nil {
		t.Fatalf("mcpServers: %v", err)
	}
	return servers, top
}

// readOne decodes the only record in dir into v.
func readOne(t *testing.T, dir string, v any) {
	t.Helper()
	recs, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(recs) != 1 {
		t.Fatalf("records in %s: %v, want one", dir, recs)
	}
	readJSON(t, recs[0], v)
}

// readJSON decodes the file at path into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// noLeftovers fails when a temporary or lock file of mcpwire is anywhere under root.
func noLeftovers(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n := d.Name(); strings.Contains(n, ".mcpwire-") || strings.HasSuffix(n, fsys.LockSuffix) {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
