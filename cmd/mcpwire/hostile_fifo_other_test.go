//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

// cmdMkfifo: no FIFO can be made here (scripts that need one skip on [!unix]).
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("mkfifo: no FIFO on this system")
}
