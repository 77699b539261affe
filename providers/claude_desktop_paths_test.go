package providers

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestClaudeDesktopPaths pins Claude Desktop's platform file per GOOS: macOS
// ~/Library/Application Support/Claude, Windows %APPDATA%\Claude (else
// ~/AppData/Roaming/Claude when APPDATA is unset), Linux and other Unixes
// $XDG_CONFIG_HOME/Claude (else ~/.config/Claude; a relative XDG_CONFIG_HOME is
// ignored, as the XDG spec asks). Each OS consults only its own variable, Desktop has
// no relocation variable of its own, and it has exactly one (user) file. The rules are
// pure data: every GOOS is resolved here whatever the test machine is.
//
// spec: I1 V1 V6
func TestClaudeDesktopPaths(t *testing.T) {
	home := filepath.Join(string(filepath.Separator)+"h", "me")
	file := "claude_desktop_config.json"
	cases := []struct {
		name string
		goos string
		env  map[string]string
		want string
	}{
		{"linux, XDG_CONFIG_HOME unset", "linux", nil,
			filepath.Join(home, ".config", "Claude", file)},
		{"linux, XDG_CONFIG_HOME set", "linux", map[string]string{"XDG_CONFIG_HOME": "/xdg/cfg"},
			filepath.Join("/xdg/cfg", "Claude", file)},
		{"linux, relative XDG_CONFIG_HOME ignored", "linux", map[string]string{"XDG_CONFIG_HOME": "rel/cfg"},
			filepath.Join(home, ".config", "Claude", file)},
		{"linux, APPDATA ignored", "linux", map[string]string{"APPDATA": "/appdata"},
			filepath.Join(home, ".config", "Claude", file)},
		{"freebsd like linux", "freebsd", map[string]string{"XDG_CONFIG_HOME": "/xdg/cfg"},
			filepath.Join("/xdg/cfg", "Claude", file)},
		{"darwin", "darwin", nil,
			filepath.Join(home, "Library", "Application Support", "Claude", file)},
		{"darwin ignores XDG_CONFIG_HOME and APPDATA", "darwin", map[string]string{"XDG_CONFIG_HOME": "/xdg/cfg", "APPDATA": "/appdata"},
			filepath.Join(home, "Library", "Application Support", "Claude", file)},
		{"windows, APPDATA set", "windows", map[string]string{"APPDATA": `C:\Users\me\AppData\Roaming`},
			filepath.Join(`C:\Users\me\AppData\Roaming`, "Claude", file)},
		{"windows, APPDATA unset", "windows", nil,
			filepath.Join(home, "AppData", "Roaming", "Claude", file)},
		{"windows, empty APPDATA is unset", "windows", map[string]string{"APPDATA": ""},
			filepath.Join(home, "AppData", "Roaming", "Claude", file)},
		{"windows ignores XDG_CONFIG_HOME", "windows", map[string]string{"XDG_CONFIG_HOME": "/xdg/cfg"},
			filepath.Join(home, "AppData", "Roaming", "Claude", file)},
	}
	p, ok := Get("claude-desktop")
	if !ok {
		t.Fatal("no claude-desktop provider")
	}
	if p.DefaultScope != User || p.Project != nil || p.User == nil {
		t.Fatalf("claude-desktop must have one user file (default scope user), got default %q, project %v", p.DefaultScope, p.Project)
	}
	if p.User.Env != "" {
		t.Errorf("claude-desktop has no relocation variable of its own, got %q", p.User.Env)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := PathEnv{GOOS: c.goos, Home: home, Project: "/some/project", Getenv: func(k string) string { return c.env[k] }}
			got, err := p.Dest(User).Candidates(env)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, []string{c.want}) {
				t.Errorf("got %q, want [%q]", got, c.want)
			}
		})
	}
	t.Run("no home", func(t *testing.T) {
		if _, err := p.Dest(User).Candidates(PathEnv{GOOS: "linux"}); err == nil {
			t.Error("resolved a path without a home directory")
		}
	})
}
