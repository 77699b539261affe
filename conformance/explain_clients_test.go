//go:build conformance && unix

package conformance

// The clients of the explain matrix (spec: E3): for each client that can list what it
// loads, where its files are, how it spells a server, how a person trusts a project,
// approves a server or switches one off, and what it lists as live.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// srv is one server entry a situation writes.
type srv struct {
	name    string
	command string            // "" for an entry without one
	args    []string          // the name by default: no two entries start the same process
	env     map[string]string // variable → the variable it references (a reference, never a value)
	off     bool              // switched off by the entry's own member
}

// liveClient is one client of the matrix.
type liveClient struct {
	provider string // mcpwire's name
	// files per scope, relative to the home directory (user) or a project directory
	// (project, local); "" when the client has none
	user, project, local string
	// entry spells a server for the client; servers is where the entries go in a file
	entry   func(s srv) map[string]any
	servers []string
	toml    bool // TOML [mcp_servers.NAME] tables
	// trust and approve grant what a project's servers wait for (nil: nothing);
	// deny and allow write the client's own lists of names (nil: it has none)
	trust   func(c *cell, dir string)
	approve func(c *cell, dir string, names []string)
	deny    func(c *cell, names []string)
	allow   func(c *cell, names []string)
	// list is the client's own list of what it starts, and the command's result;
	// loads: the list says what the client loads and does not start a server (it is
	// compared with what explain says the client loads, whether or not it can start it)
	list  func(c *cell) (map[string]bool, result)
	loads bool
}

// entry spellings.
func stdEntry(switchKey string) func(s srv) map[string]any {
	return func(s srv) map[string]any {
		e := map[string]any{}
		if s.command != "" {
			e["command"] = s.command
			e["args"] = s.argv()
		}
		if len(s.env) > 0 {
			e["env"] = s.refs("${%s}")
		}
		if s.off {
			switch switchKey {
			case "enabled":
				e["enabled"] = false
			default:
				e["disabled"] = true // read by the client or not: written either way
			}
		}
		return e
	}
}

func opencodeEntry(s srv) map[string]any {
	e := map[string]any{"type": "local"}
	if s.command != "" {
		e["command"] = append([]string{s.command}, s.argv()...)
	}
	if len(s.env) > 0 {
		e["environment"] = s.refs("{env:%s}")
	}
	if s.off {
		e["enabled"] = false
	}
	return e
}

// refs is the server's environment, each variable referenced in a client's spelling
// (a format with one %s).
func (s srv) refs(spelling string) map[string]any {
	env := map[string]any{}
	for k, v := range s.env {
		env[k] = fmt.Sprintf(spelling, v)
	}
	return env
}

func (s srv) argv() []string {
	if s.args != nil {
		return s.args
	}
	return []string{s.name}
}

// tomlEntry is a [mcp_servers.NAME] table (Codex's references by name, Grok's ${VAR}).
func tomlEntry(byName bool) func(s srv) map[string]any {
	return func(s srv) map[string]any {
		e := map[string]any{}
		if s.command != "" {
			e["command"] = s.command
			e["args"] = s.argv()
		}
		if len(s.env) > 0 {
			if byName {
				var names []string
				for _, v := range s.env {
					names = append(names, v)
				}
				slices.Sort(names)
				e["env_vars"] = names
			} else {
				e["env"] = s.refs("${%s}")
			}
		}
		if s.off {
			e["enabled"] = false
		}
		return e
	}
}

var (
	markLive    = regexp.MustCompile(`^✓ (\S+): `)
	claudeLive  = regexp.MustCompile(`^(\S+): .* - ✔ Connected$`)
	boxLive     = regexp.MustCompile(`✓ (\S+) connected`)
	droidLiveRe = regexp.MustCompile(`^\s*(\S+)\s+\S+\s+connected\s+\[`)
)

// lineSet is the set of names a regexp's first group finds in the lines of out.
func lineSet(out string, re *regexp.Regexp) map[string]bool {
	set := map[string]bool{}
	for _, l := range strings.Split(stripANSI(out), "\n") {
		if m := re.FindStringSubmatch(strings.TrimRight(l, " \r")); m != nil {
			set[m[1]] = true
		}
	}
	return set
}

// jsonFlagged is the set of names whose member flag is true in a client's JSON list:
// the array (or the map by name) at member list of the document (the document itself
// when list is ""), each object named by its "name" member in an array.
func jsonFlagged(out, list, flag string) map[string]bool {
	var doc any
	set := map[string]bool{}
	if json.Unmarshal([]byte(out), &doc) != nil {
		return set
	}
	if m, ok := doc.(map[string]any); ok && list != "" {
		doc = m[list]
	}
	switch x := doc.(type) {
	case []any:
		for _, e := range x {
			if o, ok := e.(map[string]any); ok && o[flag] == true {
				name, _ := o["name"].(string)
				set[name] = true
			}
		}
	case map[string]any:
		for n, e := range x {
			if o, ok := e.(map[string]any); ok && o[flag] == true {
				set[n] = true
			}
		}
	}
	return set
}

// liveClients are the clients of the matrix: every client the suite runs that lists
// what it loads (Continue and Cline have no list: they show their servers only by
// offering the tools to a model).
var liveClients = []*liveClient{
	{provider: "claude-code", user: ".claude.json", project: ".mcp.json", servers: []string{"mcpServers"}, entry: stdEntry(""),
		trust: func(c *cell, dir string) {
			c.jsonSet(c.home(".claude.json"), []string{"projects", dir, "hasTrustDialogAccepted"}, true)
		},
		approve: func(c *cell, dir string, names []string) {
			c.jsonAppend(filepath.Join(dir, ".claude", "settings.local.json"), []string{"enabledMcpjsonServers"}, names)
		},
		deny: func(c *cell, names []string) {
			c.jsonAppend(c.home(".claude.json"), []string{"projects", c.proj, "disabledMcpServers"}, names)
		},
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.claude, "mcp", "list")
			return lineSet(r.stdout, claudeLive), r
		}},
	{provider: "codex", loads: true, user: ".codex/config.toml", project: ".codex/config.toml", servers: []string{"mcp_servers"}, toml: true, entry: tomlEntry(true),
		trust: func(c *cell, dir string) {
			c.tomlTable(c.home(".codex/config.toml"), fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", dir))
		},
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.codex, "mcp", "list", "--json")
			return jsonFlagged(r.stdout, "", "enabled"), r
		}},
	{provider: "gemini-cli", user: ".gemini/settings.json", project: ".gemini/settings.json", servers: []string{"mcpServers"}, entry: stdEntry(""),
		trust: func(c *cell, dir string) {
			c.jsonSet(c.home(".gemini/trustedFolders.json"), []string{dir}, "TRUST_FOLDER")
		},
		deny: func(c *cell, names []string) {
			c.jsonAppend(c.home(".gemini/settings.json"), []string{"mcp", "excluded"}, names)
		},
		allow: func(c *cell, names []string) {
			c.jsonAppend(c.home(".gemini/settings.json"), []string{"mcp", "allowed"}, names)
		},
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.gemini, "mcp", "list")
			return lineSet(r.output(), markLive), r
		}},
	{provider: "opencode", user: ".config/opencode/opencode.json", project: "opencode.json", servers: []string{"mcp"}, entry: opencodeEntry,
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.opencode, "mcp", "list")
			return lineSet(r.output(), boxLive), r
		}},
	{provider: "copilot-cli", loads: true, user: ".copilot/mcp-config.json", project: ".mcp.json", servers: []string{"mcpServers"}, entry: stdEntry(""),
		trust: func(c *cell, dir string) {
			c.jsonAppend(c.home(".copilot/config.json"), []string{"trustedFolders"}, []string{dir})
		},
		deny: func(c *cell, names []string) {
			c.jsonAppend(c.home(".copilot/settings.json"), []string{"disabledMcpServers"}, names)
		},
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.copilot, "mcp", "list", "--json")
			return jsonFlagged(r.stdout, "mcpServers", "enabled"), r
		}},
	{provider: "qwen-code", user: ".qwen/settings.json", project: ".qwen/settings.json", servers: []string{"mcpServers"}, entry: stdEntry(""),
		approve: func(c *cell, dir string, names []string) {
			for _, n := range names {
				c.later = append(c.later, func() { c.runIn(dir, cl.qwen, "mcp", "approve", n) })
			}
		},
		deny: func(c *cell, names []string) {
			c.jsonAppend(c.home(".qwen/settings.json"), []string{"mcp", "excluded"}, names)
		},
		allow: func(c *cell, names []string) {
			c.jsonAppend(c.home(".qwen/settings.json"), []string{"mcp", "allowed"}, names)
		},
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.qwen, "mcp", "list")
			return lineSet(r.stdout, markLive), r
		}},
	{provider: "auggie", loads: true, user: ".augment/settings.json", project: ".augment/settings.json", local: ".augment/settings.local.json",
		servers: []string{"mcpServers"}, entry: stdEntry("disabled"),
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.auggie, "mcp", "list", "--json")
			return jsonFlagged(r.stdout, "servers", "enabled"), r
		}},
	{provider: "amp", user: ".config/amp/settings.json", project: ".amp/settings.json", servers: []string{"amp.mcpServers"}, entry: stdEntry(""),
		approve: func(c *cell, dir string, names []string) {
			for _, n := range names {
				if !c.holds(filepath.Join(dir, ".amp/settings.json"), n) {
					continue // amp mcp approve waits 30 s for a server it does not have, then fails
				}
				c.later = append(c.later, func() { c.runIn(dir, cl.amp, "mcp", "approve", n) })
			}
		},
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.amp, "mcp", "doctor")
			state := map[string]string{}
			for _, l := range strings.Split(stripANSI(r.stdout), "\n") {
				if m := ampDoctorLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
					state[m[1]] = m[3]
				}
			}
			set := map[string]bool{}
			for n, st := range state {
				if strings.HasPrefix(st, "connected (") {
					set[n] = true
				}
			}
			return set, r
		}},
	{provider: "kilo", user: ".config/kilo/kilo.json", project: "kilo.json", servers: []string{"mcp"}, entry: opencodeEntry,
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.kilo, "mcp", "list")
			return lineSet(r.output(), boxLive), r
		}},
	{provider: "qoder", user: ".qoder/settings.json", project: ".mcp.json", local: ".qoder/settings.local.json",
		servers: []string{"mcpServers"}, entry: stdEntry("disabled"),
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.qoder, "mcp", "list")
			return lineSet(r.stdout, markLive), r
		}},
	{provider: "factory", user: ".factory/mcp.json", project: ".factory/mcp.json", servers: []string{"mcpServers"}, entry: stdEntry("disabled"),
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.droid, "mcp", "list")
			return lineSet(r.output(), droidLiveRe), r
		}},
	{provider: "grok-build", user: ".grok/config.toml", project: ".grok/config.toml", servers: []string{"mcp_servers"}, toml: true, entry: tomlEntry(false),
		trust: func(c *cell, dir string) {
			c.tomlTable(c.home(".grok/trusted_folders.toml"), fmt.Sprintf("[folders.%q]\ntrusted = true\n", dir))
		},
		deny: func(c *cell, names []string) {
			c.tomlTop(c.home(".grok/config.toml"), "disabled_mcp_servers", names)
		},
		list: func(c *cell) (map[string]bool, result) {
			r := c.run(cl.grok, "mcp", "doctor", "--json")
			return jsonFlagged(r.stdout, "servers", "healthy"), r
		}},
	{provider: "omp", user: ".omp/agent/mcp.json", project: ".omp/mcp.json", servers: []string{"mcpServers"}, entry: stdEntry("enabled"),
		deny: func(c *cell, names []string) {
			c.jsonAppend(c.home(".omp/agent/mcp.json"), []string{"disabledServers"}, names)
		},
		list: func(c *cell) (map[string]bool, result) {
			script := filepath.Join(c.base, "omp-load.ts")
			writeFile(c.t, script, ompScript)
			r := c.run(cl.bun, script, cl.omp, c.start)
			var got ompLoaded
			set := map[string]bool{}
			if json.Unmarshal([]byte(r.stdout), &got) == nil {
				for n, st := range got.Status {
					if st == "connected" {
						set[n] = true
					}
				}
			}
			return set, r
		}},
}
