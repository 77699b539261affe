package render_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// spliceFiles are ~/.claude.json files as Claude Code and people leave them, with
// projectMark for the project's key.
var spliceFiles = map[string]string{
	"pretty": `{
  "numStartups": 3,
  "projects": {
    "/elsewhere": {
      "allowedTools": [],
      "mcpServers": {}
    },
    "@PROJECT@": {
      "allowedTools": [],
      "mcpServers": {
        "mine": {"command": "x"}
      },
      "hasTrustDialogAccepted": true
    },
    "/after": {"mcpServers": {}}
  },
  "mcpServers": {
    "mine": {"type": "stdio", "command": "y", "args": []}
  },
  "userID": "abc"
}
`,
	"minified":          `{"numStartups":3,"projects":{"/elsewhere":{"mcpServers":{}},"@PROJECT@":{"allowedTools":[]},"/after":{}},"userID":"abc"}`,
	"bom and crlf":      "\ufeff{\r\n  \"projects\": {\r\n    \"@PROJECT@\": {\r\n      \"mcpServers\": {}\r\n    }\r\n  },\r\n  \"mcpServers\": {}\r\n}\r\n",
	"no project":        "{\n  \"projects\": {\n    \"/elsewhere\": {}\n  },\n  \"tipsHistory\": {\"a\": 1}\n}\n",
	"comments":          "// kept\n{\n  /* here */ \"projects\": {}, // and here\n  \"mcpServers\": {\n    // a server\n  }\n}\n",
	"empty object":      "{}",
	"no final new line": "{\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"x\"}\n  }\n}",
}

// spliceSteps inject and remove servers in turn; each step's file is compared.
var spliceSteps = []struct {
	remove  bool
	servers []string
}{
	{false, []string{"notes", "github"}},
	{false, []string{"fetch"}},
	{true, []string{"notes"}},
	{false, []string{"notes", "docs"}},
	{true, []string{"notes", "github", "fetch", "docs"}},
}

// spec: W1 W3 K8
// TestSpliceWritesTheSameBytes: an edit of a client file written in pieces (the
// untouched stretches of the file as it was read, and the edited region: issue 31's
// streaming splice, used from a size on) leaves exactly the bytes the edit built in
// one buffer leaves, step after step, in Claude Code's ~/.claude.json in user and
// local scope: pretty and minified, with a byte order mark and CRLF, comments, the
// project present or not, servers present or not.
func TestSpliceWritesTheSameBytes(t *testing.T) {
	root := t.TempDir()
	for name, content := range spliceFiles {
		for _, scope := range []providers.Scope{providers.User, providers.Local} {
			t.Run(name+"/"+string(scope), func(t *testing.T) {
				joined := spliceRun(t, root, content, scope, 1<<40)
				pieces := spliceRun(t, root, content, scope, 0)
				for i := range joined {
					if joined[i] != pieces[i] {
						t.Errorf("step %d: in pieces\n%s\nwant, as in one buffer:\n%s", i, pieces[i], joined[i])
					}
				}
			})
		}
	}
}

// spliceRun runs spliceSteps on content in a world at root, the edits written in
// pieces from splice bytes on, and returns what each step left (file or error).
func spliceRun(t *testing.T, root, content string, scope providers.Scope, splice int) []string {
	t.Helper()
	defer write.SetSpliceMin(splice)()
	defer fsys.SetMapMin(int64(max(splice, 1)))() // in pieces, every file read is mapped (Linux)
	w := newWorldIn(t, root)
	key, _ := json.Marshal(w.projectKey())
	path := w.dest(w.provider("claude-code"), scope)
	w.place(path, []byte(strings.ReplaceAll(content, `"`+projectMark+`"`, string(key))))
	var out []string
	for _, s := range spliceSteps {
		req := w.request("claude-code", scope, "", s.servers...)
		var err error
		if s.remove {
			_, err = write.Uninject(fsys.NewOS(), req)
		} else {
			_, err = write.Inject(fsys.NewOS(), req)
		}
		got, rerr := os.ReadFile(path)
		out = append(out, fmt.Sprintf("%q\nerror: %v %v", got, err, rerr))
	}
	return out
}

// bigClaudeJSON writes a ~/.claude.json of about size bytes, in projects of about
// 1.5 kB (the project halfway through them), as bench/genclaude does, and returns
// its path.
func bigClaudeJSON(w *world, size int) string {
	var b strings.Builder
	b.WriteString("{\n  \"numStartups\": 3,\n  \"projects\": {\n")
	key, _ := json.Marshal(w.projectKey())
	n := size / 1500
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		k := fmt.Sprintf("%q", fmt.Sprintf("/home/dev/src/project-%06d", i))
		if i == n/2 {
			k = string(key)
		}
		fmt.Fprintf(&b, "    %s: {\n      \"allowedTools\": [],\n      \"history\": [%s],\n      \"mcpServers\": {},\n      \"hasTrustDialogAccepted\": false,\n      \"lastCost\": 0.25\n    }", k, history(i))
	}
	b.WriteString("\n  },\n  \"userID\": \"abc\"\n}\n")
	path := filepath.Join(w.home, ".claude.json")
	w.place(path, []byte(b.String()))
	return path
}

// spec: K7
// TestInjectLargeFileHeldOnce: an inject into an 8 MB ~/.claude.json, in user and in
// local scope, allocates beyond one read of the file less than half the file (the
// edited region, the noted projects of local scope: issue 31, the new content is
// written in pieces, never built in one buffer beside the read, which cost the whole
// file again and more).
func TestInjectLargeFileHeldOnce(t *testing.T) {
	for _, scope := range []providers.Scope{providers.User, providers.Local} {
		t.Run(string(scope), func(t *testing.T) {
			w := newWorld(t)
			path := bigClaudeJSON(w, 8<<20)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			_, read := allocsOf(func() {
				if _, err := fsys.ReadSnapshot(fsys.NewOS(), path); err != nil {
					t.Fatal(err)
				}
			})
			for i, servers := range [][]string{{"notes"}, {"notes", "fetch"}} {
				req := w.request("claude-code", scope, "", servers...)
				_, bytes := allocsOf(func() {
					if _, err := write.Inject(fsys.NewOS(), req); err != nil {
						t.Fatal(err)
					}
				})
				if limit := read + uint64(fi.Size())/2; bytes > limit {
					t.Errorf("inject %d allocated %d bytes for a file of %d, want at most %d (its read, %d, and half the file)", i, bytes, fi.Size(), limit, read)
				}
			}
		})
	}
}

// history is a project's prompt history in bigClaudeJSON.
func history(i int) string {
	var h []string
	for j := range 12 {
		h = append(h, fmt.Sprintf(`{"display": "refactor the parser in module %d step %d and add tests", "pastedContents": {}}`, i, j))
	}
	return strings.Join(h, ", ")
}

// spec: C3 C4 C6 W7
// TestCrashConvergenceInPieces: TestCrashConvergence with every client file's edit
// computed in pieces (issue 31's splice, used for large files) and the JSON files it
// places padded (padPlaced), so that each scenario editing one (the Claude Code ones)
// writes it in pieces, never joined: fixtures.CrashFS passes them to fsys.OS's
// piecewise write, and the uninterrupted run must have used it. A crash at any change
// converges on the rerun all the same.
func TestCrashConvergenceInPieces(t *testing.T) {
	defer write.SetSpliceMin(0)()
	defer fsys.SetMapMin(4 << 10)() // the padded JSON files are mapped (Linux)
	crashConvergence(t, true)
}

// spec: W7 W3 W9 C3 C5 C6
// TestFaultRollbackInPieces: TestFaultRollback with every client file's edit computed
// in pieces and the JSON files it places padded, so that the scenarios editing an
// existing .mcp.json write it in pieces (fsystest.Faulty passes them to fsys.OS's
// piecewise write, and the run without faults must have used it): every fault is
// rolled back all the same.
func TestFaultRollbackInPieces(t *testing.T) {
	defer write.SetSpliceMin(0)()
	defer fsys.SetMapMin(4 << 10)() // the padded JSON files are mapped (Linux)
	faultRollback(t, true)
}
