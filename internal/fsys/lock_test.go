package fsys

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockAsync tries to take the lock of p in a goroutine; the channel yields its
// release function once it has it.
func lockAsync(t *testing.T, p string) <-chan func() error {
	t.Helper()
	got := make(chan func() error, 1)
	go func() {
		release, err := (OS{}).Lock(p)
		if err != nil {
			t.Error(err)
			close(got)
			return
		}
		got <- release
	}()
	return got
}

// waitsThenGets checks that the lock attempt waits while held and succeeds after
// release is called.
func waitsThenGets(t *testing.T, got <-chan func() error, release func()) {
	t.Helper()
	select {
	case <-got:
		t.Fatal("second Lock did not wait for the first")
	case <-time.After(150 * time.Millisecond):
	}
	release()
	select {
	case r, ok := <-got:
		if !ok {
			t.Fatal("second Lock failed")
		}
		if err := r(); err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second Lock never got the lock")
	}
}

// spec: W8
func TestLockSerialises(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	release, err := (OS{}).Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(p + LockSuffix); err != nil {
		t.Errorf("lock file missing while held: %v", err)
	}
	waitsThenGets(t, lockAsync(t, p), func() {
		if err := release(); err != nil {
			t.Error(err)
		}
	})
	if err := release(); err != nil { // a second call is harmless
		t.Error(err)
	}
	if got := listTree(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
}

// spec: W8
func TestLockMutualExclusion(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "counter")
	writeTestFile(t, p, "0", 0o600)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 25 {
				release, err := (OS{}).Lock(p)
				if err != nil {
					t.Error(err)
					return
				}
				data, _ := os.ReadFile(p)
				n, _ := strconv.Atoi(string(data))
				if err := (OS{}).WriteFile(p, []byte(strconv.Itoa(n+1)), 0o600, nil); err != nil {
					t.Error(err)
				}
				if err := release(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if got := fileState(t, p); got != state(0o600, "200") {
		t.Errorf("counter = %q, want 200 (lost updates)", got)
	}
	noTemp(t, dir)
}

// spec: W8
func TestLockTimeout(t *testing.T) {
	old := lockTimeout
	lockTimeout = 100 * time.Millisecond
	t.Cleanup(func() { lockTimeout = old })
	p := filepath.Join(t.TempDir(), "f.json")
	release, err := (OS{}).Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	_, err = (OS{}).Lock(p)
	if err == nil || !strings.HasPrefix(err.Error(), "lock "+p+LockSuffix+": timed out") {
		t.Fatalf("err = %v, want a timeout naming the lock file", err)
	}
}

// spec: W8
func TestLockAcrossProcesses(t *testing.T) {
	if os.Getenv("MCPWIRE_LOCK_HELPER") != "" {
		t.Skip("helper")
	}
	p := filepath.Join(t.TempDir(), "f.json")
	cmd, stdin := startLockHelper(t, p)
	waitsThenGets(t, lockAsync(t, p), func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Error(err)
		}
	})
}

// startLockHelper starts TestLockHelperProcess on p and waits until it holds the
// lock; closing stdin makes it release the lock and exit.
func startLockHelper(t *testing.T, p string) (*exec.Cmd, io.Closer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), "MCPWIRE_LOCK_HELPER="+p)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	return cmd, stdin
}

// TestLockHelperProcess holds the lock named by MCPWIRE_LOCK_HELPER until stdin
// closes; it is run by TestLockAcrossProcesses and TestLockDiesWithProcess.
func TestLockHelperProcess(t *testing.T) {
	p := os.Getenv("MCPWIRE_LOCK_HELPER")
	if p == "" {
		t.Skip("helper process only")
	}
	release, err := (OS{}).Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	if err := release(); err != nil {
		t.Fatal(err)
	}
}

// lockAtFirstTry is Lock with a deadline already past: it takes the lock at its first
// try or fails with the timeout, so a test tells "at once" from "after waiting" by the
// number of tries, not by the clock (issue 24, H14).
func lockAtFirstTry(p string) (func() error, error) {
	old := lockTimeout
	lockTimeout = -time.Hour
	defer func() { lockTimeout = old }()
	return (OS{}).Lock(p)
}
