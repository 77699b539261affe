package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestNoWorkInInit: mcpwire's own packages do next to nothing when the process starts
// (a scripted launch runs mcpwire every time): every init of theirs allocates at most
// 8 KB. Compiling a regular expression in a package variable took 17–18 KB and
// 0.1–0.2 ms each (yamledit, policy/redact); they compile on first use now. Measured
// with GODEBUG=inittrace=1 on this test binary, which links every package of the
// command.
func TestNoWorkInInit(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (github\.com/mcpwire/mcpwire/\S*) @\S+ ms, \S+ ms clock, (\d+) bytes`)
	found := line.FindAllSubmatch(out, -1)
	if len(found) < 5 {
		t.Fatalf("inittrace printed %d of mcpwire's packages:\n%s", len(found), out)
	}
	for _, m := range found {
		if n, _ := strconv.Atoi(string(m[2])); n > 8<<10 {
			t.Errorf("init of %s allocates %d bytes, want at most 8 KB: build what it needs on first use", m[1], n)
		}
	}
}
