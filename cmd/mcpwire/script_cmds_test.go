package main

import (
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdCount asserts how many regular files a directory holds (not recursive): "count N
// DIR" (a missing directory holds none). Ownership records are counted this way
// (SPEC C3: aliases share one record).
func cmdCount(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: count N DIR")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	entries, err := os.ReadDir(ts.MkAbs(args[1]))
	if err != nil && !os.IsNotExist(err) {
		ts.Fatalf("%v", err)
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() {
			n++
		}
	}
	if (n == want) == neg {
		ts.Fatalf("%s holds %d files, want %s%d", args[1], n, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}
