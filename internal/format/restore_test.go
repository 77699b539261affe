package format

import (
	"testing"
)

// TestRestore: an entry read (Text and JSON), replaced, then restored, gives the file
// back byte for byte — comments, spacing and members mcpwire does not write included —
// wherever it sits; one whose text cannot go back as it is (a TOML entry of dotted keys)
// comes back as a table of the same value.
//
// spec: H1 W1
func TestRestore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format Format
		src    string
		c      Container
		want   string // "" for src
	}{
		{"JSON with comments", JSONC,
			"{\n  \"mcpServers\": {\n    // mine\n    \"s\": { \"command\": \"mine\",   /* keep */ \"args\": [\"--a\"] },\n    \"t\": {\"command\": \"t\"}\n  }\n}\n",
			Container{Path: []string{"mcpServers"}}, ""},
		{"JSON nested project", JSON,
			"{\"projects\": {\"/p\": {\"mcpServers\": {\"s\": {\"command\":\"mine\",\"x\":1}}}}}",
			Container{Path: []string{"projects", "/p", "mcpServers"}}, ""},
		{"TOML table", TOML,
			"model = \"o3\"\n\n# mine\n[mcp_servers.s]\ncommand = \"mine\"\nstartup_timeout_sec = 60   # slow\n[mcp_servers.s.env]\nK = \"v\"\n\n[mcp_servers.t]\ncommand = \"t\"\n",
			Container{Path: []string{"mcp_servers"}}, ""},
		// its tables come back as one block: the blank line between them was not theirs
		{"TOML table with a sub-table apart", TOML,
			"[mcp_servers.s]\ncommand = \"mine\"\n\n[mcp_servers.s.env]\nK = \"v\"\n\n[mcp_servers.t]\ncommand = \"t\"\n",
			Container{Path: []string{"mcp_servers"}},
			"[mcp_servers.s]\ncommand = \"mine\"\n[mcp_servers.s.env]\nK = \"v\"\n\n[mcp_servers.t]\ncommand = \"t\"\n"},
		{"TOML array of tables", TOML,
			"[[mcp_servers]]\nname = \"s\"\ncommand = \"mine\" # mine\n\n[[mcp_servers]]\nname = \"t\"\ncommand = \"t\"\n",
			Container{Path: []string{"mcp_servers"}, NameKey: "name"}, ""},
		{"TOML dotted keys", TOML,
			"mcp_servers.s.command = \"mine\"\nmcp_servers.s.startup_timeout_sec = 60\n\n[mcp_servers.t]\ncommand = \"t\"\n",
			Container{Path: []string{"mcp_servers"}},
			"[mcp_servers.t]\ncommand = \"t\"\n\n[mcp_servers.s]\ncommand = \"mine\"\nstartup_timeout_sec = 60\n"},
		{"YAML mapping", YAML,
			"# goose\nextensions:\n  s:\n    cmd: docker   # mine\n    args: [run, x]\n    envs: {T: v}\n  t:\n    cmd: t\nGOOSE_MODE: auto\n",
			Container{Path: []string{"extensions"}}, ""},
		{"YAML list", YAML,
			"name: Mine\nmcpServers:\n  - name: t\n    command: t\n  - name: s   # mine\n    command: mine\n",
			Container{Path: []string{"mcpServers"}, NameKey: "name"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, es := open(t, tc.format, []byte(tc.src), tc.c)
			e, ok := es.Get("s")
			if !ok {
				t.Fatal("no entry s")
			}
			text, value, digest := e.Text(), e.JSON(), e.Digest()
			if len(text) == 0 {
				t.Fatal("no text")
			}
			replaced := edit(t, tc.format, tc.src, tc.c, set(t, "s"))
			got := edit(t, tc.format, replaced, tc.c, func(es Entries) {
				d, err := es.Restore("s", text, value)
				if err != nil {
					t.Fatal(err)
				}
				if d != digest {
					t.Errorf("digest %s, want %s", d, digest)
				}
				if e, _ := es.Get("s"); e.Digest() != digest {
					t.Errorf("entry digest %s after restore, want %s", e.Digest(), digest)
				}
			})
			want := tc.want
			if want == "" {
				want = tc.src
			}
			if got != want {
				t.Errorf("restored:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestRestoreMoved: YAML lines whose indentation no longer fits the entry are not put
// back as they are; the entry is written from its value.
//
// spec: H1
func TestRestoreMoved(t *testing.T) {
	c := Container{Path: []string{"extensions"}}
	_, es := open(t, YAML, []byte("extensions:\n  s:\n    cmd: mine   # mine\n"), c)
	e, _ := es.Get("s")
	text, value := e.Text(), e.JSON()
	got := edit(t, YAML, "extensions:\n    s:\n        cmd: theirs\n", c, func(es Entries) {
		if _, err := es.Restore("s", text, value); err != nil {
			t.Fatal(err)
		}
	})
	if got != "extensions:\n    s:\n        cmd: mine\n" {
		t.Errorf("restored:\n%s", got)
	}
}
