package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 15: a test skipped on some system says why. Every `skip` line of a script
// carries its reason after the word skip, so a skip that hides a failure cannot creep
// in unexplained.
func TestScriptSkipsGiveReasons(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts found: %v", err)
	}
	skip := regexp.MustCompile(`^(\[[^\]]*\]\s*)*skip\s*$`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		script, _, _ := strings.Cut(string(data), "\n-- ")
		for i, line := range strings.Split(script, "\n") {
			if skip.MatchString(strings.TrimSpace(line)) {
				t.Errorf("%s:%d: %q skips without saying why", f, i+1, line)
			}
		}
	}
}
