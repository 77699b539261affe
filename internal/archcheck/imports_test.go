package main

import (
	"path"
	"strings"
	"testing"
)

// loadRoot reads the module this test runs in.
func loadRoot(t *testing.T) *module {
	t.Helper()
	m, err := loadModule("../..")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// folderOf returns the nearest package that q sits below (render for
// render/dialect), or "" when no folder above q is a package (internal/fsys, render).
func folderOf(m *module, q string) string {
	for d := path.Dir(m.rel(q)); d != "."; d = path.Dir(d) {
		if p := m.pkgs[m.path+"/"+d]; p != nil && p.hasSrc {
			return p.path
		}
	}
	return ""
}

// dependsOn reports whether p imports q, directly or not (non-test imports).
func dependsOn(m *module, p, q string) bool {
	seen := map[string]bool{}
	var walk func(ip string) bool
	walk = func(ip string) bool {
		if ip == q {
			return true
		}
		if seen[ip] || m.pkgs[ip] == nil {
			return false
		}
		seen[ip] = true
		for _, dep := range m.imports(m.pkgs[ip], false) {
			if walk(dep) {
				return true
			}
		}
		return false
	}
	return walk(p)
}

// TestImportsFlowDown: the tree matches the imports (issue 26). A package below
// another package's folder (render/dialect below render) is a part of that package:
// only the package itself, its other parts, and packages above it (which import it)
// may import it. Before, layers and policy/redact, which render stands on, imported
// render/fsys and render/jsonc. The shared leaves sit under internal/, which is no
// package.
func TestImportsFlowDown(t *testing.T) {
	m := loadRoot(t)
	checked := 0
	for _, p := range m.sorted() {
		for _, q := range m.imports(p, false) {
			f := folderOf(m, q)
			if f == "" {
				continue
			}
			checked++
			if p.path == f || strings.HasPrefix(p.path, f+"/") || dependsOn(m, p.path, f) {
				continue
			}
			t.Errorf("%s imports %s from below %s, which it does not stand above", m.rel(p.path), m.rel(q), m.rel(f))
		}
	}
	if checked == 0 {
		t.Error("no import of a package below another's folder found")
	}
}

// testSupport reports whether a package only tests may import: fixtures (the shared
// test inputs) and the internal/.../*test packages (fakes of a seam).
func testSupport(m *module, ip string) bool {
	rel := m.rel(ip)
	return rel == "fixtures" || strings.HasPrefix(rel, "fixtures/") ||
		(strings.HasPrefix(rel, "internal/") && strings.HasSuffix(path.Base(rel), "test"))
}

// TestTestSupportStaysInTests: fixtures and the fakes of the seams (fault injection,
// crash filesystems) are imported by tests only, never by the program or its
// commands; test support may use each other.
func TestTestSupportStaysInTests(t *testing.T) {
	m := loadRoot(t)
	used := 0
	for _, p := range m.sorted() {
		for _, q := range m.imports(p, true) {
			if testSupport(m, q) {
				used++
			}
		}
		if testSupport(m, p.path) {
			continue
		}
		for _, q := range m.imports(p, false) {
			if testSupport(m, q) {
				t.Errorf("%s imports the test support %s outside its tests", m.rel(p.path), m.rel(q))
			}
		}
	}
	if used == 0 {
		t.Error("no test imports test support: the check finds nothing")
	}
}
