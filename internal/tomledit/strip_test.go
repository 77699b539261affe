package tomledit

import (
	"strings"
	"testing"
)

// crlf converts a golden LF string to CRLF line endings.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// eachNewline runs f with the identity conversion and with the CRLF conversion.
func eachNewline(t *testing.T, f func(t *testing.T, conv func(string) string)) {
	t.Helper()
	t.Run("LF", func(t *testing.T) { f(t, func(s string) string { return s }) })
	t.Run("CRLF", func(t *testing.T) { f(t, crlf) })
}

var stripCases = []struct {
	name, in, want string
}{
	{
		name: "plain tables",
		in: `model = "o3"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]

[mcp_servers.tickets]
url = "https://mcp.example.com/mcp"

[profiles.x]
model = "o4"
`,
		want: `model = "o3"

[profiles.x]
model = "o4"
`,
	},
	{
		name: "sub-tables",
		in: `model = "o3"

[mcp_servers.docs]
command = "docs-mcp"

[mcp_servers.docs.env]
TOKEN = "x"

[mcp_servers.docs.tools.search]
approval_mode = "auto"

[tools]
web_search = true
`,
		want: `model = "o3"

[tools]
web_search = true
`,
	},
	{
		name: "dotted keys at root",
		in: `model = "o3"
mcp_servers.docs.command = "docs-mcp"
mcp_servers.docs.args = ["--stdio"]
mcp_servers.docs.env.TOKEN = "x"
approval_policy = "never"

[profiles.x]
model = "o4"
`,
		want: `model = "o3"
approval_policy = "never"

[profiles.x]
model = "o4"
`,
	},
	{
		name: "dotted keys inside [mcp_servers]",
		in: `model = "o3"

[mcp_servers]
docs.command = "docs-mcp"
docs.args = ["--stdio"]
tickets.url = "https://mcp.example.com/mcp"

[profiles.x]
model = "o4"
`,
		want: `model = "o3"

[profiles.x]
model = "o4"
`,
	},
	{
		name: "inline table at root",
		in: `model = "o3"
mcp_servers = { docs = { command = "docs-mcp", args = ["--stdio"] }, tickets = { url = "https://x" } }
approval_policy = "never"
`,
		want: `model = "o3"
approval_policy = "never"
`,
	},
	{
		name: "multi-line inline table at root",
		in: `model = "o3"
mcp_servers = {
  # the docs server
  docs = { command = "docs-mcp" },
  tickets = { url = "https://x" },
}
approval_policy = "never"
`,
		want: `model = "o3"
approval_policy = "never"
`,
	},
	{
		name: "inline entries inside [mcp_servers]",
		in: `model = "o3"

[mcp_servers]
docs = { command = "docs-mcp", env = { TOKEN = "x" } }
tickets = { url = "https://x" }

[tools]
web_search = true
`,
		want: `model = "o3"

[tools]
web_search = true
`,
	},
	{
		name: "quoted keys",
		in: `model = "o3"

["mcp_servers"."my.server"]
command = "a"

[ mcp_servers . 'x' ]
command = "b"

[profiles.x]
model = "o4"
"mcp_servers" = "kept: profile key"
`,
		want: `model = "o3"

[profiles.x]
model = "o4"
"mcp_servers" = "kept: profile key"
`,
	},
	{
		name: "escaped quoted keys",
		in: `model = "o3"
"mcp_\u0073ervers".a.command = "x"

["mcp\u005fservers"."a\u0062c"]
command = "y"

[tools]
x = 1
`,
		want: `model = "o3"

[tools]
x = 1
`,
	},
	{
		name: "[mcp_servers] header with nothing else",
		in: `model = "o3"

[mcp_servers]

[profiles.x]
model = "o4"
`,
		want: `model = "o3"

[profiles.x]
model = "o4"
`,
	},
	{
		name: "multi-line string lookalikes",
		in: `model = "o3"
instructions = """
[mcp_servers.fake]
mcp_servers.x = 1
"""
notes = '''
[[mcp_servers]]
'''
args = [
  "[mcp_servers.y]",
  # [mcp_servers.z]
]

[mcp_servers.real]
command = "r"
description = """
[profiles.fake]
"""
`,
		want: `model = "o3"
instructions = """
[mcp_servers.fake]
mcp_servers.x = 1
"""
notes = '''
[[mcp_servers]]
'''
args = [
  "[mcp_servers.y]",
  # [mcp_servers.z]
]
`,
	},
	{
		name: "arrays of tables",
		in: `model = "o3"

[[mcp_servers]]
name = "docs"

[[mcp_servers]]
name = "tickets"

[profiles.x]
model = "o4"
`,
		want: `model = "o3"

[profiles.x]
model = "o4"
`,
	},
	{
		name: "array of tables under a server",
		in: `[mcp_servers.docs]
command = "x"

[[mcp_servers.docs.hooks]]
run = "a"

[tools]
x = 1
`,
		want: `[tools]
x = 1
`,
	},
	{
		name: "root array value",
		in: `model = "o3"
mcp_servers = [{ name = "docs" }]
`,
		want: `model = "o3"
`,
	},
	{
		name: "root scalar value",
		in: `mcp_servers = 3
model = "o3"
`,
		want: `model = "o3"
`,
	},
	{
		name: "comments between tables preserved",
		in: `# Codex config
model = "o3"

# Profiles below
[profiles.x]
model = "o4"

# The docs server
# (local)
[mcp_servers.docs]
command = "docs-mcp" # trailing
# body comment

# a stray note inside the table

# Tools
[tools]
web_search = true

[mcp_servers.tickets]
url = "https://x"
# end of file
`,
		want: `# Codex config
model = "o3"

# Profiles below
[profiles.x]
model = "o4"

# Tools
[tools]
web_search = true
`,
	},
	{
		name: "other tables untouched",
		in: `model = "o3"
approval_policy = "on-request"
sandbox_mode   =   'workspace-write'   # spacing kept

[profiles.x]
model = "o4"
mcp_servers.not_root = { command = "kept" }

[tools]
web_search = true

[mcp_servers.docs]
command = "d"

[projects."/home/u/repo"]
trust_level = "trusted"
`,
		want: `model = "o3"
approval_policy = "on-request"
sandbox_mode   =   'workspace-write'   # spacing kept

[profiles.x]
model = "o4"
mcp_servers.not_root = { command = "kept" }

[tools]
web_search = true

[projects."/home/u/repo"]
trust_level = "trusted"
`,
	},
	{
		name: "only servers",
		in: `[mcp_servers.docs]
command = "d"
`,
		want: ``,
	},
	{
		name: "no servers",
		in: `model = "o3"


# trailing blank lines stay when nothing is removed
`,
		want: `model = "o3"


# trailing blank lines stay when nothing is removed
`,
	},
	{
		name: "no final newline",
		in: `model = "o3"
mcp_servers.docs.command = "d"`,
		want: `model = "o3"
`,
	},
	{
		name: "servers first",
		in: `mcp_servers.docs.command = "d"

model = "o3"
`,
		want: `model = "o3"
`,
	},
}

func TestStripTree(t *testing.T) {
	for _, tc := range stripCases {
		t.Run(tc.name, func(t *testing.T) {
			eachNewline(t, func(t *testing.T, conv func(string) string) {
				d, err := parseFramed([]byte(conv(tc.in)))
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if err := d.StripTree("mcp_servers"); err != nil {
					t.Fatalf("StripTree: %v", err)
				}
				if got, want := string(d.Bytes()), conv(tc.want); got != want {
					t.Errorf("StripTree:\n got: %q\nwant: %q", got, want)
				}
				if _, ok := d.data["mcp_servers"]; ok {
					t.Errorf("mcp_servers still present")
				}
			})
		})
	}
}
