//go:build conformance && unix

package conformance

// The situations of the explain matrix (spec: E3). Each builds, for one client, the
// files a person of that client would have in that situation: the entries in the
// client's own spelling, and its own trust, approval and lists where it has them. A
// situation that names something a client does not have (a local scope, a disable
// list) writes what that client does have, or nothing of it: the cell then checks
// that explain does not make up a rule the client lacks.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// situation is one row of the matrix. gated: it is about what a project waits for,
// and grants nothing it does not say; in the others a client that starts no server at
// all in a folder it does not trust (Gemini CLI) is given that trust first, so that
// the cell says something of the rest.
type situation struct {
	name  string
	gated bool
	build func(c *cell, lc *liveClient)
}

// ok is a server whose command is on PATH; broken one whose command is not.
func ok(name string) srv     { return srv{name: name, command: "confsrv"} }
func broken(name string) srv { return srv{name: name, command: "confsrv-missing"} }

// off is s switched off by its own member.
func off(s srv) srv { s.off = true; return s }

// withEnv is s referencing variable v in its environment.
func withEnv(s srv, v string) srv { s.env = map[string]string{"CONF_VALUE": v}; return s }

// denyOr writes the client's own disable list naming names; a client without one
// gets nothing (its servers stay live).
func denyOr(c *cell, lc *liveClient, names ...string) {
	if lc.deny != nil {
		lc.deny(c, names)
	}
}

var situations = []situation{
	// scopes and precedence
	{"user", false, func(c *cell, lc *liveClient) { c.user(lc, ok("a"), ok("b")) }},
	{"user-empty", false, func(c *cell, lc *liveClient) { c.user(lc) }},
	{"project-granted", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.project(lc, ok("p"))
		c.grant(lc, c.proj, "p")
	}},
	{"project-ungranted", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.project(lc, ok("p"))
	}},
	{"project-trust-only", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.project(lc, ok("p"))
		c.grant(lc, c.proj)
	}},
	{"project-approval-only", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.project(lc, ok("p"))
		if lc.approve != nil {
			lc.approve(c, c.proj, []string{"p"})
		}
	}},
	{"collide-project-broken", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("x"))
		c.project(lc, broken("x"))
		c.grant(lc, c.proj, "x")
	}},
	{"collide-user-broken", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, broken("x"))
		c.project(lc, ok("x"))
		c.grant(lc, c.proj, "x")
	}},
	{"collide-project-broken-ungranted", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("x"))
		c.project(lc, broken("x"))
	}},
	{"collide-user-broken-ungranted", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, broken("x"))
		c.project(lc, ok("x"))
	}},
	{"local", false, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		if !c.local(lc, ok("l")) {
			c.user(lc, ok("l"))
		}
	}},
	{"collide-local-user", false, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("x"))
		c.local(lc, broken("x"))
	}},
	{"three-scopes", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, broken("x"), ok("u"))
		c.project(lc, broken("x"), ok("p"))
		c.local(lc, ok("x"))
		c.grant(lc, c.proj, "x", "p")
	}},
	// shared files
	{"mcpjson-granted", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), ok("m"))
		c.grant(lc, c.proj, "m")
	}},
	{"mcpjson-ungranted", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), ok("m"))
	}},
	{"mcpjson-and-own", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), broken("x"), ok("m"))
		if lc.project != ".mcp.json" {
			c.project(lc, ok("x"))
		}
		c.user(lc, ok("x"))
		c.grant(lc, c.proj, "x", "m")
	}},
	{"github-mcpjson", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.mcpJSON(filepath.Join(c.proj, ".github", "mcp.json"), ok("g"))
		c.grant(lc, c.proj, "g")
	}},
	{"github-and-mcpjson", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.mcpJSON(filepath.Join(c.proj, ".github", "mcp.json"), ok("g"))
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), ok("m"))
		c.grant(lc, c.proj, "g", "m")
	}},
	{"opencode-json", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.put(opencodeClient(), filepath.Join(c.proj, "opencode.json"), ok("o"))
		if lc.project != "opencode.json" {
			c.project(lc, ok("p"))
		}
		c.grant(lc, c.proj, "p", "o")
	}},
	{"every-client-user", false, func(c *cell, lc *liveClient) {
		for _, o := range liveClients {
			c.user(o, ok("u-"+o.provider))
		}
		c.put(liveClientOf("claude-code"), c.home(".cursor/mcp.json"), ok("u-cursor"))
	}},
	{"every-client-project", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		for _, o := range liveClients {
			if o.project != ".mcp.json" {
				c.project(o, ok("p-"+o.provider))
			}
		}
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), ok("p-mcpjson"))
		c.put(liveClientOf("claude-code"), filepath.Join(c.proj, ".cursor", "mcp.json"), ok("p-cursor"))
		c.grant(lc, c.proj, "p-"+lc.provider, "p-mcpjson")
	}},
	// parent directories
	{"start-in-subdir-git", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.start = filepath.Join(c.proj, "sub", "deeper")
		c.mkdir(c.start)
		c.project(lc, ok("p"))
		c.grant(lc, c.proj, "p")
	}},
	{"start-in-subdir-no-git", true, func(c *cell, lc *liveClient) {
		c.start = filepath.Join(c.proj, "sub")
		c.mkdir(c.start)
		c.project(lc, ok("p"))
		c.grant(lc, c.proj, "p")
	}},
	{"nested-project-files", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.start = filepath.Join(c.proj, "sub")
		c.mkdir(c.start)
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), ok("r"))
		c.projectIn(lc, c.start, ok("s"))
		c.grant(lc, c.proj, "r", "s")
		c.grant(lc, c.start, "r", "s")
	}},
	{"start-in-home", true, func(c *cell, lc *liveClient) {
		c.start = c.homeD
		c.user(lc, ok("u"))
		c.mcpJSON(c.home(".mcp.json"), ok("h"))
		c.grant(lc, c.homeD, "h")
	}},
	// switches and lists
	{"switch-user", false, func(c *cell, lc *liveClient) { c.user(lc, ok("a"), off(ok("b"))) }},
	{"switch-project", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.project(lc, ok("a"), off(ok("b")))
		c.grant(lc, c.proj, "a", "b")
	}},
	{"switch-collide-project-off", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("x"))
		c.project(lc, off(ok("x")))
		c.grant(lc, c.proj, "x")
	}},
	{"switch-collide-user-off", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, off(ok("x")))
		c.project(lc, ok("x"))
		c.grant(lc, c.proj, "x")
	}},
	{"deny-user", false, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("a"), ok("b"))
		denyOr(c, lc, "b")
	}},
	{"deny-project", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.project(lc, ok("a"), ok("b"))
		c.grant(lc, c.proj, "a", "b")
		denyOr(c, lc, "b")
	}},
	{"deny-absent", false, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("a"))
		denyOr(c, lc, "zz")
	}},
	{"allow-without", false, func(c *cell, lc *liveClient) {
		c.user(lc, ok("a"), ok("b"))
		if lc.allow != nil {
			lc.allow(c, []string{"a"})
		}
	}},
	{"allow-and-deny", false, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("a"), ok("b"))
		if lc.allow != nil {
			lc.allow(c, []string{"a", "b"})
		}
		denyOr(c, lc, "a")
	}},
	{"deny-other-case", false, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("Alpha"))
		denyOr(c, lc, "alpha")
	}},
	{"claude-enable-all", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), ok("m1"), ok("m2"))
		c.project(lc, ok("p"))
		c.grant(lc, c.proj, "p")
		c.jsonSet(filepath.Join(c.proj, ".claude", "settings.json"), []string{"enableAllProjectMcpServers"}, true)
	}},
	{"claude-disabled-mcpjson", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.mcpJSON(filepath.Join(c.proj, ".mcp.json"), ok("m1"), ok("m2"))
		c.user(lc, ok("m2"))
		c.grant(lc, c.proj, "m1", "m2")
		c.jsonSet(filepath.Join(c.proj, ".claude", "settings.json"), []string{"enableAllProjectMcpServers"}, true)
		c.jsonAppend(filepath.Join(c.proj, ".claude", "settings.local.json"), []string{"disabledMcpjsonServers"}, []string{"m2"})
	}},
	// trust
	{"trust-parent", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.project(lc, ok("p"))
		c.grant(lc, filepath.Dir(c.proj), "p")
		if lc.approve != nil {
			lc.approve(c, c.proj, []string{"p"})
		}
	}},
	{"trust-refused", true, func(c *cell, lc *liveClient) {
		c.git(c.proj)
		c.user(lc, ok("u"))
		c.project(lc, ok("p"))
		if lc.approve != nil {
			lc.approve(c, c.proj, []string{"p"})
		}
		switch lc.provider {
		case "claude-code":
			c.jsonSet(c.home(".claude.json"), []string{"projects", c.proj, "hasTrustDialogAccepted"}, false)
		case "gemini-cli":
			c.jsonSet(c.home(".gemini/trustedFolders.json"), []string{c.proj}, "DO_NOT_TRUST")
		case "codex":
			c.tomlTable(c.home(".codex/config.toml"), fmt.Sprintf("[projects.%q]\ntrust_level = \"untrusted\"\n", c.proj))
		case "grok-build":
			c.tomlTable(c.home(".grok/trusted_folders.toml"), fmt.Sprintf("[folders.%q]\ntrusted = false\n", c.proj))
		}
	}},
	// the environment
	{"command-missing", false, func(c *cell, lc *liveClient) { c.user(lc, ok("a"), broken("b")) }},
	{"command-absolute", false, func(c *cell, lc *liveClient) {
		c.user(lc, srv{name: "a", command: filepath.Join(c.bin, "confsrv")})
	}},
	{"command-absolute-missing", false, func(c *cell, lc *liveClient) {
		c.user(lc, ok("a"), srv{name: "b", command: filepath.Join(c.base, "nowhere", "confsrv")})
	}},
	{"command-on-extra-path", false, func(c *cell, lc *liveClient) {
		extra := filepath.Join(c.base, "extra-bin")
		c.mkdir(extra)
		c.link(filepath.Join(c.bin, "confsrv"), filepath.Join(extra, "confsrv-extra"))
		c.extra = append(c.extra, "PATH="+extra+string(os.PathListSeparator)+c.path())
		c.user(lc, srv{name: "a", command: "confsrv-extra"})
	}},
	{"variable-unset", false, func(c *cell, lc *liveClient) {
		c.user(lc, withEnv(ok("a"), "CONF_EXPLAIN_UNSET"))
	}},
	{"variable-set", false, func(c *cell, lc *liveClient) {
		c.extra = append(c.extra, "CONF_EXPLAIN_SET=value-4b1e")
		c.user(lc, withEnv(ok("a"), "CONF_EXPLAIN_SET"))
	}},
	// managed policy: the clients' own administrator files (laid over /etc in a mount
	// namespace of the run's own: Gemini CLI reads its system settings only where they
	// and the directories above them are root's alone; Qwen Code's where its variable
	// says)
	{"managed-deny-name", false, func(c *cell, lc *liveClient) {
		c.user(lc, ok("a"), ok("b"))
		c.managed("claude-code/managed-settings.json", `{"deniedMcpServers": [{"serverName": "b"}]}`)
		c.managed("gemini-cli/settings.json", `{"mcp": {"excluded": ["b"]}}`)
		c.jsonAppend(filepath.Join(c.base, "etc", "qwen-code", "settings.json"), []string{"mcp", "excluded"}, []string{"b"})
	}},
	{"managed-allow", false, func(c *cell, lc *liveClient) {
		c.user(lc, ok("a"), ok("b"))
		c.managed("claude-code/managed-settings.json", `{"allowedMcpServers": [{"serverName": "a"}]}`)
		c.managed("gemini-cli/settings.json", `{"mcp": {"allowed": ["a"]}}`)
		c.jsonAppend(filepath.Join(c.base, "etc", "qwen-code", "settings.json"), []string{"mcp", "allowed"}, []string{"a"})
	}},
	{"managed-deny-command", false, func(c *cell, lc *liveClient) {
		c.user(lc, ok("a"), ok("b"))
		c.managed("claude-code/managed-settings.json", `{"deniedMcpServers": [{"serverCommand": ["confsrv", "b"]}]}`)
	}},
	{"managed-exclusive", false, func(c *cell, lc *liveClient) {
		c.user(lc, ok("a"))
		c.managed("claude-code/managed-mcp.json", `{"mcpServers": {"mx": {"command": "confsrv", "args": ["mx"]}}}`)
		c.managed("gemini-cli/settings.json", `{"mcpServers": {"mx": {"command": "confsrv", "args": ["mx"]}}}`)
		c.jsonSet(filepath.Join(c.base, "etc", "qwen-code", "settings.json"), []string{"mcpServers", "mx"}, map[string]any{"command": "confsrv", "args": []string{"mx"}})
	}},
	// entries a client cannot use
	{"entry-without-command", false, func(c *cell, lc *liveClient) { c.user(lc, ok("a"), srv{name: "b"}) }},
	{"same-command-twice", false, func(c *cell, lc *liveClient) {
		c.user(lc, srv{name: "a", command: "confsrv", args: []string{"same"}}, srv{name: "b", command: "confsrv", args: []string{"same"}})
	}},
}

// liveClientOf is the matrix's client of a provider.
func liveClientOf(provider string) *liveClient {
	i := slices.IndexFunc(liveClients, func(lc *liveClient) bool { return lc.provider == provider })
	return liveClients[i]
}

// opencodeClient is opencode's spelling, which situations use for opencode.json.
func opencodeClient() *liveClient { return liveClientOf("opencode") }

func (c *cell) mkdir(dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		c.t.Fatal(err)
	}
}

// link makes newname a symlink to oldname.
func (c *cell) link(oldname, newname string) {
	if err := os.Symlink(oldname, newname); err != nil {
		c.t.Fatal(err)
	}
}
