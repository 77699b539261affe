package fsys

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// errStop is what the tests stop writes with (a signal in mcpwire).
var errStop = fmt.Errorf("%w by a test", ErrInterrupted)

// stopAt returns an interruptible OS whose Interrupt is stopped right after the n-th
// step of the given stage, and a function returning the steps seen.
func stopAt(stage string, n int) (OS, *Interrupt, func() []string) {
	intr := NewInterrupt(nil, nil)
	var steps []string
	o := NewOSWith(OSOptions{Interrupt: intr, AfterStep: func(s, name string) {
		steps = append(steps, s+" "+filepath.Base(name))
		if s == stage {
			if n--; n == 0 {
				intr.Stop(errStop)
			}
		}
	}})
	return o, intr, func() []string { return steps }
}

// TestWriteFileInterrupted: an Interrupt stopped after the temporary file is created,
// after its first MiB is written, or once it is written and synced, fails the write
// with the Interrupt's error before the rename: the destination keeps its content
// and no temporary file remains.
//
// spec: W3
func TestWriteFileInterrupted(t *testing.T) {
	big := strings.Repeat("x", 3*writeChunk)
	for _, stage := range []string{"temp", "partial", "synced"} {
		t.Run(stage, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.json")
			writeTestFile(t, p, "old", 0o640)
			o, _, steps := stopAt(stage, 1)
			err := o.WriteFile(p, []byte(big), 0o640, nil)
			if !errors.Is(err, errStop) || !strings.HasPrefix(err.Error(), "write "+p+": ") {
				t.Fatalf("err = %v, want the Interrupt's error naming the file", err)
			}
			if got := fileState(t, p); got != state(0o640, "old") {
				t.Errorf("destination = %q", got)
			}
			if s := steps(); s[len(s)-1] != stage+" "+s[0][len("temp "):] {
				t.Errorf("steps %q: the write went on after %s", s, stage)
			}
			noTemp(t, dir)
		})
	}
}

// TestApplyInterrupted: an Interrupt stopped after the first file of a transaction
// was replaced fails the transaction before the second, and the rollback (never
// interrupted) restores the first; a transaction begun afterwards fails at once,
// writing nothing.
//
// spec: W7
func TestApplyInterrupted(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	writeTestFile(t, a, "a0", 0o600)
	o, intr, steps := stopAt("rename", 1)
	_, err := Apply(o, []Target{{Path: a, Edit: editSet("a1", 0o600)}, {Path: b, Edit: editSet("b1", 0o600)}})
	if !errors.Is(err, errStop) || intr.Err() != errStop {
		t.Fatalf("err = %v, want the Interrupt's error", err)
	}
	if fileState(t, a) != state(0o600, "a0") || fileState(t, b) != "absent" {
		t.Errorf("a %q, b %q: not rolled back", fileState(t, a), fileState(t, b))
	}
	if s := strings.Join(steps(), ","); !strings.Contains(s, "rename a.json,temp .a.json.mcpwire-") || strings.Contains(s, "b.json.mcpwire") {
		t.Errorf("steps %s: want a written, then a restored (a new rename), and no write of b", s)
	}
	noTemp(t, dir)
	before := steps()
	if _, err := Apply(o, []Target{{Path: b, Edit: editSet("b1", 0o600)}}); !errors.Is(err, errStop) {
		t.Errorf("a transaction after Stop: %v", err)
	}
	if len(steps()) != len(before) || fileState(t, b) != "absent" {
		t.Errorf("a transaction after Stop wrote: %q", steps()[len(before):])
	}
}

// TestLockWaitInterrupted: a Stop ends the wait for a lock another process holds: the
// wait ends with the Interrupt's error, not with the lock's timeout (30 s, longer than
// the Stop's 50 ms however loaded the machine).
//
// spec: W8
func TestLockWaitInterrupted(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.json")
	release, err := (OS{}).Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	intr := NewInterrupt(nil, nil)
	o := NewOSWith(OSOptions{Interrupt: intr})
	time.AfterFunc(50*time.Millisecond, func() { intr.Stop(errStop) })
	if _, err := o.Lock(p); !errors.Is(err, errStop) {
		t.Errorf("err = %v, want the Interrupt's error", err)
	}
}

// TestInterruptArmsOnlyWhileWriting: arm runs when the first write begins and disarm
// when the last ends (nested: a transaction's writes), once each; Stop reports
// whether a write was under way.
func TestInterruptArmsOnlyWhileWriting(t *testing.T) {
	var log []string
	intr := NewInterrupt(func() { log = append(log, "arm") }, func() { log = append(log, "disarm") })
	o := NewOSWith(OSOptions{Interrupt: intr})
	dir := t.TempDir()
	busy := false
	_, err := Apply(o, []Target{{Path: filepath.Join(dir, "a"), Edit: func(Snapshot) ([]byte, os.FileMode, bool, error) {
		busy = intr.Stop(nil) // nil: stops nothing, only asks
		return []byte("a"), 0o600, false, nil
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(log, ",") != "arm,disarm" || !busy {
		t.Errorf("log %q, busy %v", log, busy)
	}
	if intr.Stop(errStop) {
		t.Error("Stop reports a write under way after it ended")
	}
}
