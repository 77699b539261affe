package tomledit

import (
	"testing"
)

const key = "mcp_servers"

// newBlock is the replacement used by the golden ReplaceServer cases.
func newBlock(name, nl string) []byte {
	return Table(key, name, []KV{
		{"command", "new-cmd"},
		{"args", []string{"--stdio"}},
		{"env", Inline{{"TOKEN", "t"}}},
	}, nl)
}

var replaceCases = []struct {
	name, server, in, want string
}{
	{
		name:   "plain table in place",
		server: "docs",
		in: `model = "o3"

[mcp_servers.docs]
command = "old"

[mcp_servers.tickets]
url = "https://x"
`,
		want: `model = "o3"

[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[mcp_servers.tickets]
url = "https://x"
`,
	},
	{
		name:   "realistic codex config with sub-table and leading comment",
		server: "docs",
		in: `# Codex configuration
model = "o3"
approval_policy = "on-request"

[profiles.fast]
model = "gpt-5-mini"

# Documentation server
[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]

[mcp_servers.docs.env]
DOCS_TOKEN = "abc"

[projects."/home/u/repo"]
trust_level = "trusted"
`,
		want: `# Codex configuration
model = "o3"
approval_policy = "on-request"

[profiles.fast]
model = "gpt-5-mini"

# Documentation server
[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[projects."/home/u/repo"]
trust_level = "trusted"
`,
	},
	{
		name:   "sub-table before its parent, tools sub-tables",
		server: "docs",
		in: `[mcp_servers.docs.tools.search]
approval_mode = "auto"

[profiles.x]
model = "o4"

[mcp_servers.docs]
command = "old"
`,
		want: `[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[profiles.x]
model = "o4"
`,
	},
	{
		name:   "absent server appended after one blank line",
		server: "new",
		in: `model = "o3"

[mcp_servers.docs]
command = "d"


`,
		want: `model = "o3"

[mcp_servers.docs]
command = "d"

[mcp_servers.new]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "absent server, no final newline",
		server: "new",
		in: `# config
model = "o3"`,
		want: `# config
model = "o3"

[mcp_servers.new]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "empty document",
		server: "new",
		in:     ``,
		want: `[mcp_servers.new]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "dotted keys at root moved to the end",
		server: "docs",
		in: `model = "o3"
# servers
mcp_servers.docs.command = "old"
mcp_servers.docs.env.TOKEN = "x"
mcp_servers.other.command = "o"
approval_policy = "never"

[profiles.x]
model = "o4"
`,
		want: `model = "o3"
# servers
mcp_servers.other.command = "o"
approval_policy = "never"

[profiles.x]
model = "o4"

[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "dotted keys inside [mcp_servers]",
		server: "docs",
		in: `[mcp_servers]
docs.command = "old"
docs.args = []
other.command = "o"

[tools]
x = 1
`,
		want: `[mcp_servers]
other.command = "o"

[tools]
x = 1

[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "inline entry inside [mcp_servers], header kept",
		server: "docs",
		in: `[mcp_servers]
docs = { command = "old" }

[tools]
x = 1
`,
		want: `[mcp_servers]

[tools]
x = 1

[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "root inline table rewritten as tables",
		server: "docs",
		in: `model = "o3"
mcp_servers = { docs = { command = "old" }, other = { command = "o", args = ["-v"] }, third.url = "https://x" }
approval_policy = "never"

[profiles.x]
model = "o4"
`,
		want: `model = "o3"
approval_policy = "never"

[profiles.x]
model = "o4"

[mcp_servers.other]
command = "o"
args = ["-v"]

[mcp_servers.third]
url = "https://x"

[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "root inline table, new server",
		server: "new",
		in: `mcp_servers = { other = { command = "o", env = { A = "1" } } }
`,
		want: `[mcp_servers.other]
command = "o"
env = { A = "1" }

[mcp_servers.new]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "quoted server name",
		server: "my.server",
		in: `[mcp_servers."my.server"]
command = "old"

[mcp_servers.'other']
command = "o"
`,
		want: `[mcp_servers."my.server"]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[mcp_servers.'other']
command = "o"
`,
	},
	{
		name:   "spaced and quoted header spellings",
		server: "x",
		in: `[ mcp_servers . 'x' ]
command = "old"
["mcp_servers".x.env]
A = "1"
[tools]
y = 1
`,
		want: `[mcp_servers.x]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[tools]
y = 1
`,
	},
	{
		name:   "escaped key",
		server: "abc",
		in: `[mcp_servers."a\u0062c"]
command = "old"

[mcp_servers.abd]
command = "o"
`,
		want: `[mcp_servers.abc]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[mcp_servers.abd]
command = "o"
`,
	},
	{
		name:   "multi-line lookalikes are not statements",
		server: "fake",
		in: `[mcp_servers.real]
description = """
[mcp_servers.fake]
command = "lookalike"
"""
notes = '''
mcp_servers.fake.command = 1
'''
args = [
  "a", # [mcp_servers.fake]
  "b",
]
`,
		want: `[mcp_servers.real]
description = """
[mcp_servers.fake]
command = "lookalike"
"""
notes = '''
mcp_servers.fake.command = 1
'''
args = [
  "a", # [mcp_servers.fake]
  "b",
]

[mcp_servers.fake]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "multi-line values inside the replaced table",
		server: "real",
		in: `[mcp_servers.real]
description = """
[tools]
x = 1
"""
args = [
  "a",
]

[tools]
x = 1
`,
		want: `[mcp_servers.real]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[tools]
x = 1
`,
	},
	{
		name:   "comments: only the body up to the last key/value goes",
		server: "docs",
		in: `# file header

# about docs
# (two lines)
[mcp_servers.docs]
# inside
command = "old" # trailing

# still inside docs' body

# about tools
[tools]
x = 1
`,
		want: `# file header

# about docs
# (two lines)
[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

# still inside docs' body

# about tools
[tools]
x = 1
`,
	},
	{
		name:   "blank line added before a following header",
		server: "docs",
		in: `[mcp_servers.docs]
command = "old"
[tools]
x = 1
`,
		want: `[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[tools]
x = 1
`,
	},
	{
		name:   "root dotted keys and a sub-table header",
		server: "docs",
		in: `mcp_servers.docs.env.A = "1"
model = "o3"

[mcp_servers.docs.tools.x]
approval_mode = "auto"

[tools]
y = 1
`,
		want: `model = "o3"

[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

[tools]
y = 1
`,
	},
	{
		name:   "comment above a removed dotted key stays detached from the block",
		server: "docs",
		in: `# a comment
"mcp_servers".'docs'.args = ["a", # c
 "b"]
[mcp_servers."docs".tools.x]
approval_mode = "auto"
`,
		want: `# a comment

[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
`,
	},
	{
		name:   "banner above the first server and a trailing block after a blank line stay",
		server: "docs",
		in: `model = "o3"

# ---- model settings: DO NOT REMOVE ----
[mcp_servers.docs]
command = "old"
args = []

# trailing block about profiles
# second line

[profiles.x]
model = "o4"
`,
		want: `model = "o3"

# ---- model settings: DO NOT REMOVE ----
[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }

# trailing block about profiles
# second line

[profiles.x]
model = "o4"
`,
	},
	{
		name:   "comment right after the last key/value stays right after",
		server: "docs",
		in: `[mcp_servers.docs]
command = "old"
# about tools
[tools]
x = 1
`,
		want: `[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
# about tools
[tools]
x = 1
`,
	},
	{
		name:   "stale markers of the server go, a person's comment between them stays",
		server: "docs",
		in: `# >>> mcpwire-managed: docs
[mcp_servers.docs]
command = "old"
# <<< mcpwire-managed: docs
# >>> mcpwire-managed: docs-other
# note
`,
		want: `[mcp_servers.docs]
command = "new-cmd"
args = ["--stdio"]
env = { TOKEN = "t" }
# >>> mcpwire-managed: docs-other
# note
`,
	},
}

func TestReplace(t *testing.T) {
	for _, tc := range replaceCases {
		t.Run(tc.name, func(t *testing.T) {
			eachNewline(t, func(t *testing.T, conv func(string) string) {
				d, err := parseFramed([]byte(conv(tc.in)))
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				nl := d.Newline()
				if tc.in == "" {
					nl = conv("\n")
				}
				block := newBlock(tc.server, nl)
				if err := d.Replace(key, tc.server, block); err != nil {
					t.Fatalf("ReplaceServer: %v", err)
				}
				got := string(d.Bytes())
				if want := conv(tc.want); got != want {
					t.Fatalf("ReplaceServer:\n got: %q\nwant: %q", got, want)
				}
				text, ok := d.Text(key, tc.server)
				if !ok || text != string(block) {
					t.Errorf("ServerText after replace = %q, %v; want the block %q", text, ok, block)
				}
				// Idempotent: replacing again with the same block changes nothing.
				if err := d.Replace(key, tc.server, block); err != nil {
					t.Fatalf("second ReplaceServer: %v", err)
				}
				if again := string(d.Bytes()); again != got {
					t.Errorf("second ReplaceServer changed the document:\n got: %q\nwant: %q", again, got)
				}
			})
		})
	}
}

var removeCases = []struct {
	name, server, in, want string
	removed                bool
}{
	{
		name:   "table with sub-table and comments",
		server: "docs", removed: true,
		in: `model = "o3"

# docs
[mcp_servers.docs]
command = "d"

[mcp_servers.docs.env]
A = "1"

# tickets
[mcp_servers.tickets]
url = "https://x"
`,
		want: `model = "o3"

# docs

# tickets
[mcp_servers.tickets]
url = "https://x"
`,
	},
	{
		name:   "banner above, trailing comments after: both stay",
		server: "docs", removed: true,
		in: `model = "o3"

# ---- model settings: DO NOT REMOVE ----
[mcp_servers.docs]
command = "d"
# trailing, right after

# trailing block
[profiles.x]
model = "o4"
`,
		want: `model = "o3"

# ---- model settings: DO NOT REMOVE ----
# trailing, right after

# trailing block
[profiles.x]
model = "o4"
`,
	},
	{
		name:   "marker lines go with the block, comments around them stay",
		server: "tickets", removed: true,
		in: `[ui]
theme = "dark"

# my servers
# >>> mcpwire-managed: tickets
[mcp_servers.tickets]
url = "https://x"
# <<< mcpwire-managed: tickets
# end of my servers

[mcp_servers.local]
command = "l"
`,
		want: `[ui]
theme = "dark"

# my servers
# end of my servers

[mcp_servers.local]
command = "l"
`,
	},
	{
		name:   "marker lines not right against the table are not its own",
		server: "tickets", removed: true,
		in: `# >>> mcpwire-managed: tickets
# a note
[mcp_servers.tickets]
url = "https://x"

# <<< mcpwire-managed: tickets
`,
		want: `# >>> mcpwire-managed: tickets
# a note

# <<< mcpwire-managed: tickets
`,
	},
	{
		name:   "last table at the end",
		server: "docs", removed: true,
		in: `model = "o3"

[mcp_servers.docs]
command = "d"
`,
		want: `model = "o3"
`,
	},
	{
		name:   "absent server",
		server: "nope", removed: false,
		in: `model = "o3"

[mcp_servers.docs]
command = "d"
`,
		want: `model = "o3"

[mcp_servers.docs]
command = "d"
`,
	},
	{
		name:   "root dotted keys between blank lines",
		server: "docs", removed: true,
		in: `model = "o3"

mcp_servers.docs.command = "d"
mcp_servers.docs.args = []

approval_policy = "never"
`,
		want: `model = "o3"

approval_policy = "never"
`,
	},
	{
		name:   "explicit [mcp_servers] header kept",
		server: "docs", removed: true,
		in: `[mcp_servers]
docs = { command = "d" }
# other servers go here

[tools]
x = 1
`,
		want: `[mcp_servers]
# other servers go here

[tools]
x = 1
`,
	},
	{
		name:   "root inline table keeps the other entries in place",
		server: "docs", removed: true,
		in: `model = "o3"
mcp_servers = { docs = { command = "d" }, other.command = "o", other.args = ["x"] } # servers
approval_policy = "never"
`,
		want: `model = "o3"
mcp_servers = { other.command = "o", other.args = ["x"] } # servers
approval_policy = "never"
`,
	},
	{
		name:   "root inline table with only that server",
		server: "docs", removed: true,
		in: `model = "o3"
mcp_servers = { docs = { command = "d" } }
approval_policy = "never"
`,
		want: `model = "o3"
approval_policy = "never"
`,
	},
	{
		name:   "multi-line root inline table",
		server: "docs", removed: true,
		in: `mcp_servers = {
  docs = { command = "d" },
  other = { command = """
o""" },
}
model = "o3"
`,
		want: `mcp_servers = { other = { command = """
o""" } }
model = "o3"
`,
	},
}

func TestRemove(t *testing.T) {
	for _, tc := range removeCases {
		t.Run(tc.name, func(t *testing.T) {
			eachNewline(t, func(t *testing.T, conv func(string) string) {
				d, err := parseFramed([]byte(conv(tc.in)))
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				removed, err := d.Remove(key, tc.server)
				if err != nil {
					t.Fatalf("RemoveServer: %v", err)
				}
				if removed != tc.removed {
					t.Errorf("RemoveServer reported %v, want %v", removed, tc.removed)
				}
				if got, want := string(d.Bytes()), conv(tc.want); got != want {
					t.Errorf("RemoveServer:\n got: %q\nwant: %q", got, want)
				}
				if _, ok := d.Get(key, tc.server); ok {
					t.Errorf("server still present")
				}
			})
		})
	}
}
