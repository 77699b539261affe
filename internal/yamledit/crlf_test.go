package yamledit

import (
	"strings"
	"testing"
)

// crlf writes a file's lines with CRLF line endings.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// spec: K8
// TestCRLFWithComments: a Goose file (a mapping of entries) and a Continue file (a
// list of entries) with CRLF line endings and comments everywhere — above entries,
// after values, between entries, at the end — are edited: entries added, replaced and
// removed, every comment that is not inside a rewritten entry kept, every line ending
// CRLF.
func TestCRLFWithComments(t *testing.T) {
	runEdits(t, []editCase{
		{"goose", crlf("# my goose config\nGOOSE_MODE: auto # mode\nextensions:\n  # mine\n  mine:\n    cmd: x # c\n    args: [a] # a\n\n  # theirs\n  other:\n    cmd: y\n# tail\n"),
			[]Op{{Path: []string{"extensions"}, Name: "s", Value: entry}, {Path: []string{"extensions"}, Name: "mine", Delete: true},
				{Path: []string{"extensions"}, Name: "other", Value: Map{{"cmd", "z"}}}},
			crlf("# my goose config\nGOOSE_MODE: auto # mode\nextensions:\n  # mine\n\n  # theirs\n  other:\n    cmd: z\n  s:\n" + entryText + "# tail\n")},
		{"continue", crlf("name: c # n\nversion: 0.0.1\nschema: v1\nmcpServers:\n  # one\n  - name: a # x\n    command: x\n  # two\n  - name: b\n    command: y # y\n"),
			[]Op{item("c", Map{{"command", "z"}}), item("a", Map{{"command", "q"}})},
			crlf("name: c # n\nversion: 0.0.1\nschema: v1\nmcpServers:\n  # one\n  - name: a\n    command: q\n  # two\n  - name: b\n    command: y # y\n  - name: c\n    command: z\n")},
	})
}
