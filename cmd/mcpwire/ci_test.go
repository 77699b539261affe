package main

import (
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestCIRunsTheREADMECommand keeps the promise of Q1: the test command README.md
// gives is exactly what .ci/run runs, and .ci/run also runs the conformance suite
// with the command README.md documents for it (Q3), and runs go vet and staticcheck
// for Linux, macOS and Windows and the race detector on the write path (issue 15),
// and the Windows tests under wine (issue 32).
// Plain `go test ./...` needs only
// Go: the conformance tests sit behind a build tag.
//
// spec: Q1 Q3
func TestCIRunsTheREADMECommand(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	// (Windows keeps no execute bit: git's index holds it there)
	if fi, err := os.Stat("../../.ci/run"); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		t.Fatalf(".ci/run is not executable: %v", err)
	}
	if !strings.Contains(string(ci), "set -euo pipefail") {
		t.Error(".ci/run does not stop at the first failure (set -euo pipefail)")
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	var commands []string
	for _, b := range blocks {
		for _, line := range strings.Split(b[1], "\n") {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, "go test") {
				commands = append(commands, line)
			}
		}
	}
	want := []string{"go test ./...", "go test -tags conformance -count=1 -timeout 80m ./conformance/..."}
	for _, w := range want {
		found := false
		for _, c := range commands {
			found = found || c == w
		}
		if !found {
			t.Errorf("README.md gives no `%s` command (it gives %q)", w, commands)
		}
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(w) + `$`).Match(ci) {
			t.Errorf(".ci/run does not run `%s`", w)
		}
	}
	// vet, of the tagless packages and of the conformance suite (which go vet ./...
	// does not see without its tag), for every supported system (issue 15); staticcheck
	// at a pinned version; the race detector on the write path and the locks
	for _, w := range []string{"go vet ./...", "go vet -tags conformance ./conformance/...",
		"GOOS=darwin go vet ./...", "GOOS=darwin go vet -tags conformance ./conformance/...", "GOOS=windows go vet ./...",
		`GOBIN=$staticcheck_bin go install honnef.co/go/tools/cmd/staticcheck@v0.8.2`,
		`"$staticcheck_bin/staticcheck" ./...`, `"$staticcheck_bin/staticcheck" -tags conformance ./conformance/...`,
		`GOOS=darwin "$staticcheck_bin/staticcheck" ./...`, `GOOS=windows "$staticcheck_bin/staticcheck" ./...`,
		"go test -race ./internal/fsys/ ./render/ ./layers/", "go test -race -run 'Concurrent' ./cmd/mcpwire/"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(w) + `$`).Match(ci) {
			t.Errorf(".ci/run does not run `%s`", w)
		}
	}
	// the Windows build's own tests, under wine (issue 32, docs/portability.md)
	if !regexp.MustCompile(`(?m)^\s+GOOS=windows go test -exec /usr/lib/wine/wine64 -timeout \S+ \./\.\.\.$`).Match(ci) {
		t.Error(".ci/run does not run the Windows tests under wine: GOOS=windows go test -exec /usr/lib/wine/wine64 -timeout … ./...")
	}
	if tags, err := os.ReadFile("../../conformance/doc.go"); err != nil || strings.Contains(string(tags), "//go:build") {
		t.Errorf("conformance/doc.go must build without tags, so go test ./... needs only Go: %v", err)
	}
}
