package manifest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb/mcpbtest"
)

// bundleWith builds and opens a bundle whose manifest has this server block and
// user_config (JSON objects).
func bundleWith(t *testing.T, server, userConfig string) *mcpb.Archive {
	t.Helper()
	man := mcpbtest.Manifest("weather", "1.4.0", server)
	if userConfig != "" {
		man = strings.TrimSuffix(man, "}") + `,"user_config":` + userConfig + `}`
	}
	a, err := mcpb.Open(mcpbtest.Build(
		mcpbtest.Entry{Name: "manifest.json", Data: man},
		mcpbtest.Entry{Name: "server/index.js", Data: "x"},
		mcpbtest.Entry{Name: "server/weather", Data: "#!/bin/sh", Mode: 0o755},
	), mcpb.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

const weatherConfig = `{
	"api_key":{"type":"string","title":"API key","description":"Your key","sensitive":true,"required":true},
	"units":{"type":"string","title":"Units","description":"u","default":"metric"},
	"dirs":{"type":"directory","title":"Dirs","description":"d","multiple":true,"default":["${HOME}/Desktop","${DOCUMENTS}"]},
	"timeout":{"type":"number","title":"Timeout","description":"t","min":1,"max":300},
	"verbose":{"type":"boolean","title":"Verbose","description":"v","default":false},
	"region":{"type":"string","title":"Region","description":"r","required":true}}`

// spec: M3
func TestMapBundle(t *testing.T) {
	dir := filepath.FromSlash("/home/me/.aiwg/mcp-bundles/weather-1.4.0-abc")
	server := `{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node",
		"args":["${__dirname}/server/index.js","--units=${user_config.units}","${user_config.dirs}","--timeout","${user_config.timeout}","--sep=${/}"],
		"env":{"API_KEY":"${user_config.api_key}","REGION":"${user_config.region}","VERBOSE":"${user_config.verbose}","HOME_DIR":"${HOME}"}}}`
	a := bundleWith(t, server, weatherConfig)
	_, err := MapBundle(a, dir, Options{}, BundleEnv{GOOS: "linux"})
	if err == nil || !strings.Contains(err.Error(), "required values missing: region") {
		t.Fatalf("err = %v", err)
	}
	plan, err := MapBundle(a, dir, Options{Values: map[string][]string{"region": {"eu"}}}, BundleEnv{GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	s := plan.Server
	wantArgs := []string{dir + "/server/index.js", "--units=metric", "${userHome}/Desktop", "${userHome}/Documents", "--sep=/"}
	if s.Command != "node" || !slices.Equal(s.Args, wantArgs) || s.Cwd != dir {
		t.Errorf("command %s args %q cwd %s\nwant args %q", s.Command, s.Args, s.Cwd, wantArgs)
	}
	if s.EnvFrom["API_KEY"] != "API_KEY" || s.Env["REGION"] != "eu" || s.Env["VERBOSE"] != "false" || s.Env["HOME_DIR"] != "${userHome}" {
		t.Errorf("env %v from %v", s.Env, s.EnvFrom)
	}
	if !slices.Contains(s.PlainEnv, "REGION") || slices.Contains(s.PlainEnv, "API_KEY") {
		t.Errorf("plain %v", s.PlainEnv)
	}
	// flags: several directories, a timeout in bounds, the secret from a variable of
	// the person's choosing, as an input
	plan, err = MapBundle(a, dir, Options{Values: map[string][]string{"region": {"us"}, "dirs": {"/a", "/b", "/c"}, "timeout": {"30"}},
		From: map[string]string{"api_key": "WEATHER_KEY"}}, BundleEnv{GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(plan.Server.Args[2:], " "); got != "/a /b /c --timeout 30 --sep=/" || plan.Server.EnvFrom["API_KEY"] != "WEATHER_KEY" {
		t.Errorf("args %s from %v", got, plan.Server.EnvFrom)
	}
	plan, err = MapBundle(a, dir, Options{Values: map[string][]string{"region": {"us"}}, Secrets: SecretInput}, BundleEnv{GOOS: "linux"})
	if err != nil || plan.Server.EnvInput["API_KEY"] != "weather-api_key" || len(plan.Server.Inputs) != 1 {
		t.Errorf("input: %v %+v", err, plan.Server)
	}
	for name, vals := range map[string]map[string][]string{
		"out of bounds":     {"region": {"us"}, "timeout": {"0"}},
		"not a number":      {"region": {"us"}, "timeout": {"soon"}},
		"not a boolean":     {"region": {"us"}, "verbose": {"yes"}},
		"a secret as value": {"region": {"us"}, "api_key": {"abc"}},
		"not an option":     {"region": {"us"}, "colour": {"red"}},
	} {
		if _, err := MapBundle(a, dir, Options{Values: vals}, BundleEnv{GOOS: "linux"}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// spec: M3
func TestMapBundlePlatformAndBinary(t *testing.T) {
	server := `{"type":"binary","entry_point":"server/weather","mcp_config":{"command":"server/weather","args":["--config","server/c.json"],
		"platform_overrides":{"win32":{"args":["--config","server/w.json"]},"darwin":{"env":{"DYLD_LIBRARY_PATH":"${__dirname}/lib"}}}}}`
	a := bundleWith(t, server, "")
	dir := filepath.FromSlash("/b/weather")
	lin, err := MapBundle(a, dir, Options{}, BundleEnv{GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	if lin.Server.Command != filepath.Join(dir, "server", "weather") || lin.Server.Args[1] != "server/c.json" || len(lin.Server.Env) != 0 {
		t.Errorf("linux: %+v", lin.Server)
	}
	win, err := MapBundle(a, dir, Options{}, BundleEnv{GOOS: "windows"})
	if err != nil {
		t.Fatal(err)
	}
	if win.Server.Command != filepath.Join(dir, "server", "weather")+".exe" || win.Server.Args[1] != "server/w.json" {
		t.Errorf("windows: %+v", win.Server)
	}
	mac, err := MapBundle(a, dir, Options{}, BundleEnv{GOOS: "darwin"})
	if err != nil || mac.Server.Env["DYLD_LIBRARY_PATH"] != dir+"/lib" {
		t.Errorf("darwin: %v %+v", err, mac)
	}
}

// spec: M3
func TestMapBundleRefuses(t *testing.T) {
	cases := map[string]struct{ server, want string }{
		"no mcp_config":      {`{"type":"uv","entry_point":"src/server.py"}`, "no server.mcp_config"},
		"unknown variable":   {`{"type":"node","entry_point":"i.js","mcp_config":{"command":"node","args":["${FOO}"]}}`, "${FOO} is no variable"},
		"undeclared option":  {`{"type":"node","entry_point":"i.js","mcp_config":{"command":"node","args":["${user_config.nope}"]}}`, "user_config.nope"},
		"list inside a text": {`{"type":"node","entry_point":"i.js","mcp_config":{"command":"node","args":["--dirs=${user_config.dirs}"]}}`, "several values"},
	}
	for name, tc := range cases {
		a := bundleWith(t, tc.server, `{"dirs":{"type":"directory","title":"d","description":"d","multiple":true,"default":["/a","/b"]}}`)
		if _, err := MapBundle(a, "/b", Options{}, BundleEnv{GOOS: "linux"}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
	// an optional value with no default leaves out what uses it
	a := bundleWith(t, `{"type":"node","entry_point":"i.js","mcp_config":{"command":"node","args":["i.js","${user_config.opt}","--x=${user_config.opt}"],"env":{"OPT":"${user_config.opt}"}}}`,
		`{"opt":{"type":"string","title":"o","description":"o"}}`)
	plan, err := MapBundle(a, "/b", Options{}, BundleEnv{GOOS: "linux"})
	if err != nil || !slices.Equal(plan.Server.Args, []string{"i.js"}) || len(plan.Server.Env) != 0 {
		t.Errorf("%v %+v", err, plan)
	}
}
