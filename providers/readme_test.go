package providers

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeSystems returns the "Supported systems" section of the README.
func readmeSystems(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## Supported systems\n")
	if i < 0 {
		t.Fatal("README.md has no Supported systems section")
	}
	s = s[i+1:]
	if j := strings.Index(s[3:], "\n## "); j >= 0 {
		s = s[:j+3]
	}
	return s
}

// tableVariables are every variable that relocates a destination of the table (its
// servers and settings files) on Linux, macOS or Windows.
func tableVariables() []string {
	var out []string
	for _, p := range All() {
		dests := p.dests()
		for _, d := range p.Settings {
			dests = append(dests, d)
		}
		for _, d := range dests {
			for _, goos := range []string{"linux", "darwin", "windows"} {
				for _, v := range d.Variables(goos) {
					if !slices.Contains(out, v) {
						out = append(out, v)
					}
				}
			}
		}
	}
	return out
}

// readmeVar is a variable name written as code in the README.
var readmeVar = regexp.MustCompile("`([A-Z][A-Z0-9_]{2,})`")

// TestReadmeNamesVariables: the README's "Supported systems" names every variable
// the clients' entries follow to a client's file, and no variable they do not have
// (besides AIWG_CONFIG_LAYERS, mcpwire's own), so that it cannot go stale when a
// client is added. (Which clients it names is the README's to say: `mcpwire
// providers` lists every one, and a new client is its own file, fixture and golden.)
//
// spec: V1 V8
func TestReadmeNamesVariables(t *testing.T) {
	section := readmeSystems(t)
	vars := tableVariables()
	for _, v := range vars {
		if !strings.Contains(section, "`"+v+"`") {
			t.Errorf("README.md Supported systems does not name %s, which the table follows", v)
		}
	}
	for _, m := range readmeVar.FindAllStringSubmatch(section, -1) {
		if v := m[1]; v != "AIWG_CONFIG_LAYERS" && !slices.Contains(vars, v) {
			t.Errorf("README.md Supported systems names %s, which no destination of the table follows", v)
		}
	}
}
