package format

import (
	"regexp"
	"strings"
	"testing"
)

// spec: K8
// TestCRLFEditsKeepCommentsAndLineEndings: a JSONC, TOML or YAML client file with
// CRLF line endings and comments is edited — an entry replaced, one removed, one
// added — with every comment outside the rewritten and removed entries kept and every
// line ending still CRLF.
func TestCRLFEditsKeepCommentsAndLineEndings(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	for _, tc := range []struct {
		format   Format
		c        Container
		src      string
		comments []string
	}{
		{JSONC, Container{Path: []string{"mcpServers"}}, crlf(`// head
{
  // servers
  "mcpServers": {
    // a
    "a": {"command": "old"}, // after a
    "b": {"command": "b"},
    /* c */ "c": {"command": "c"}
  },
  "other": 1 // tail
}
`), []string{"// head", "// servers", "// a", "/* c */", "// tail"}},
		{TOML, Container{Path: []string{"mcp_servers"}}, crlf(`# head
model = "o3" # model

# a
[mcp_servers.a]
command = "old" # old

[mcp_servers.b]
command = "b"

# c
[mcp_servers.c]
command = "c"
# tail
`), []string{"# head", "# model", "# a", "# c", "# tail"}},
		{YAML, Container{Path: []string{"extensions"}}, crlf(`# head
GOOSE_MODE: auto # mode
extensions:
  # a
  a:
    cmd: old # old
  b:
    cmd: b
  # c
  c:
    cmd: c
# tail
`), []string{"# head", "# mode", "# a", "# c", "# tail"}},
	} {
		got := edit(t, tc.format, tc.src, tc.c, func(es Entries) {
			for _, step := range []error{
				func() error { _, err := es.Set("a", entry); return err }(),
				es.Delete("b"),
				func() error { _, err := es.Set("d", entry); return err }(),
			} {
				if step != nil {
					t.Fatalf("%s: %v", tc.format, step)
				}
			}
		})
		if regexp.MustCompile(`[^\r]\n`).MatchString(got) {
			t.Errorf("%s: a line ending is not CRLF:\n%q", tc.format, got)
		}
		for _, c := range tc.comments {
			if !strings.Contains(got, c) {
				t.Errorf("%s: comment %q lost:\n%s", tc.format, c, got)
			}
		}
		doc, es := open(t, tc.format, []byte(got), tc.c)
		_ = doc
		if names := strings.Join(es.Names(), ","); names != "a,c,d" {
			t.Errorf("%s: entries %s, want a,c,d:\n%s", tc.format, names, got)
		}
	}
}
