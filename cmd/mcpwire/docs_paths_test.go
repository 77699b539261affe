package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// spec: §0 (docs) — every repository path the documentation cites (`internal/fsys/…_test.go`,
// `cmd/mcpwire/…`) exists: a renamed file must not leave a dangling reference.
func TestDocsCiteExistingFiles(t *testing.T) {
	docs, _ := filepath.Glob("../../docs/*.md")
	docs = append(docs, "../../README.md")
	cited := regexp.MustCompile("`([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+)`")
	checked := 0
	for _, d := range docs {
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cited.FindAllStringSubmatch(string(b), -1) {
			p := m[1]
			top := strings.SplitN(p, "/", 2)[0]
			if fi, err := os.Stat(filepath.Join("../..", top)); err != nil || !fi.IsDir() || !strings.Contains(filepath.Base(p), ".") {
				continue // not a path in this repository (a client's file, a layer directory)
			}
			checked++
			if _, err := os.Stat(filepath.Join("../..", p)); err != nil {
				t.Errorf("%s cites %s, which does not exist", filepath.Base(d), p)
			}
		}
	}
	if checked == 0 {
		t.Error("no cited path found")
	}
}
