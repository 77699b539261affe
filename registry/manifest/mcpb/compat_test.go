package mcpb_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
)

func TestSatisfies(t *testing.T) {
	cases := []struct {
		have, want string
		ok         bool
	}{
		{"20.11.1", ">=16.0.0", true},
		{"14.2.0", ">=16.0.0", false},
		{"3.12.3", ">=3.8,<4.0", true},
		{"3.7.9", ">=3.8,<4.0", false},
		{"4.0.0", ">=3.8,<4.0", false},
		{"1.2.9", "^1.2.3", true},
		{"2.0.0", "^1.2.3", false},
		{"0.2.9", "^0.2.3", true},
		{"0.3.0", "^0.2.3", false},
		{"1.2.9", "~1.2.3", true},
		{"1.3.0", "~1.2.3", false},
		{"3.10.2", "~=3.10", true},
		{"4.0.0", "~=3.10", false},
		{"1.5.0", "1.x", true},
		{"2.0.0", "1.x", false},
		{"1.5.0", "1.2.3 - 2", true},
		{"3.0.0", "1.2.3 - 2", false},
		{"5.0.0", ">=1 <2 || >=5", true},
		{"3.0.0", ">=1 <2 || >=5", false},
		{"3.11.0", "==3.*", true},
		{"3.9.1", "!=3.9", false},
		{"22.0.0", ">= 20", true},
		{"22.0.0", "*", true},
		{"22.0.0-rc.1", ">=22", true},
	}
	for _, tc := range cases {
		ok, err := mcpb.Satisfies(tc.have, tc.want)
		if err != nil || ok != tc.ok {
			t.Errorf("Satisfies(%q, %q) = %v, %v; want %v", tc.have, tc.want, ok, err, tc.ok)
		}
	}
	if _, err := mcpb.Satisfies("1.0.0", ">=banana"); err == nil {
		t.Errorf("an unreadable range is accepted")
	}
}

// spec: M3
func TestCheckCompat(t *testing.T) {
	m := func(compat string) *mcpb.Manifest {
		man, err := mcpb.ParseManifest([]byte(`{"manifest_version":"0.3","name":"x","version":"1.0.0","description":"d","author":{"name":"a"},
			"server":{"type":"node","entry_point":"i.js","mcp_config":{"command":"node"}},"compatibility":` + compat + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return man
	}
	node20 := func(rt string) (string, error) {
		if rt == "node" {
			return "v20.11.1\n", nil
		}
		return "", errors.New("not found")
	}
	cases := []struct {
		compat, goos string
		want         string // "" = accepted
	}{
		{`{"platforms":["darwin","linux"]}`, "linux", ""},
		{`{"platforms":["darwin","win32"]}`, "linux", "does not run on linux"},
		{`{"platforms":["win32"]}`, "windows", ""},
		{`{"runtimes":{"node":">=16.0.0"}}`, "linux", ""},
		{`{"runtimes":{"node":">=22"}}`, "linux", "node 20.11.1 is installed here"},
		{`{"runtimes":{"python":">=3.8"}}`, "linux", "python is not installed here"},
		{`{"claude_desktop":">=99.0.0"}`, "linux", ""},
	}
	for _, tc := range cases {
		err := m(tc.compat).CheckCompat(mcpb.CompatOptions{GOOS: tc.goos, RuntimeVersion: node20})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s on %s: err = %v, want %q", tc.compat, tc.goos, err, tc.want)
		}
	}
}

// spec: M3
func TestResolvedPlatformOverrides(t *testing.T) {
	man, err := mcpb.ParseManifest([]byte(`{"manifest_version":"0.3","name":"x","version":"1.0.0","description":"d","author":{"name":"a"},
		"server":{"type":"binary","entry_point":"server/s","mcp_config":{"command":"server/s","args":["--config","server/c.json"],"env":{"A":"1"},
		"platform_overrides":{"win32":{"command":"server/s.exe","args":["--config","server/w.json"]},"darwin":{"env":{"DYLD":"x"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	win, _ := man.Resolved("win32")
	if win.Command != "server/s.exe" || win.Args[1] != "server/w.json" || win.Env["A"] != "1" {
		t.Errorf("win32: %+v", win)
	}
	mac, _ := man.Resolved("darwin")
	if mac.Command != "server/s" || mac.Env["DYLD"] != "x" || mac.Env["A"] != "" {
		t.Errorf("darwin: %+v (an override's env replaces the base's)", mac)
	}
	lin, _ := man.Resolved("linux")
	if lin.Command != "server/s" || lin.Args[1] != "server/c.json" {
		t.Errorf("linux: %+v", lin)
	}
}

func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"manifest_version":"0.3","name":"x","version":"1","description":"d","author":{"name":"a"},"server":{"type":"node","entry_point":"i","mcp_config":{"command":"node","args":["${__dirname}/i"],"platform_overrides":{"win32":{"command":"x"}}}},"user_config":{"k":{"type":"string","title":"t","description":"d","default":["a",1,true]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := mcpb.ParseManifest(data)
		if err == nil && (m.Name == "" || m.Version == "" || m.ManifestVersion == "") {
			t.Fatalf("a manifest without its required fields: %+v", m)
		}
	})
}
