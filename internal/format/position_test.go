package format

import "testing"

// spec: E1 — the line a verdict of explain points at, in each format.
func TestLine(t *testing.T) {
	jsonDoc := []byte(`{
  // a comment
  "mcpServers": {
    "a": {"command": "x"},
    "b": {
      "command": "y"
    }
  },
  "projects": {"/p": {"disabledMcpServers": [
    "a",
    "b"
  ]}}
}`)
	tomlDoc := []byte(`model = "m"

[mcp_servers.a]
command = "x"

[mcp_servers."b c"]
command = "y"
mcp_servers.d.command = "z"

[[list]]
name = "one"
[[list]]
name = "two"
`)
	tomlDotted := []byte("mcp_servers.a.command = \"x\"\nmcp_servers.b.command = \"y\"\n")
	yamlDoc := []byte(`extensions:
  a:
    cmd: x
  b:
    cmd: y
mcpServers:
  - name: one
    command: x
  - name: two
    command: y
excluded:
  - a
  - b
`)
	list := Container{Path: []string{"list"}, NameKey: "name"}
	yamlList := Container{Path: []string{"mcpServers"}, NameKey: "name"}
	for _, c := range []struct {
		name string
		f    Format
		data []byte
		c    Container
		path []string
		elem string
		want int
	}{
		{"json entry", JSONC, jsonDoc, Container{}, []string{"mcpServers", "b"}, "", 5},
		{"json member", JSONC, jsonDoc, Container{}, []string{"mcpServers", "b", "command"}, "", 6},
		{"json element", JSONC, jsonDoc, Container{}, []string{"projects", "/p", "disabledMcpServers"}, "b", 11},
		{"json missing", JSONC, jsonDoc, Container{}, []string{"mcpServers", "z"}, "", 0},
		{"json through a scalar", JSONC, jsonDoc, Container{}, []string{"mcpServers", "a", "command", "x"}, "", 0},
		{"toml header", TOML, tomlDoc, Container{}, []string{"mcp_servers", "a"}, "", 3},
		{"toml quoted header", TOML, tomlDoc, Container{}, []string{"mcp_servers", "b c"}, "", 6},
		{"toml member", TOML, tomlDoc, Container{}, []string{"mcp_servers", "b c", "command"}, "", 7},
		{"toml dotted table", TOML, tomlDotted, Container{}, []string{"mcp_servers", "b"}, "", 2},
		{"toml list entry", TOML, tomlDoc, list, []string{"list", "two"}, "", 12},
		{"toml missing", TOML, tomlDoc, Container{}, []string{"mcp_servers", "z"}, "", 0},
		{"yaml entry", YAML, yamlDoc, Container{}, []string{"extensions", "b"}, "", 4},
		{"yaml list entry", YAML, yamlDoc, yamlList, []string{"mcpServers", "two"}, "", 9},
		{"yaml element", YAML, yamlDoc, Container{}, []string{"excluded"}, "b", 13},
		{"yaml missing", YAML, yamlDoc, Container{}, []string{"extensions", "z"}, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.f, c.data, c.c, c.path, c.elem); got != c.want {
				t.Errorf("Line(%v, %q) = %d, want %d", c.path, c.elem, got, c.want)
			}
		})
	}
}
