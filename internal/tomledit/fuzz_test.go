package tomledit

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// codexSeed is a realistic ~/.codex/config.toml.
const codexSeed = `# ~/.codex/config.toml
model = "o3"
model_reasoning_effort = "high"
approval_policy = "on-request"

[profiles.fast]
model = "gpt-5-mini"
approval_policy = "never"

# Documentation server (managed by hand)
[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs-mcp", "--stdio"]
startup_timeout_sec = 20
disabled_tools = ["delete_page"]

[mcp_servers.docs.env]
DOCS_TOKEN = "abc123"

[mcp_servers.tickets]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "TICKETS_TOKEN"
tool_timeout_sec = 120.0

[projects."/home/u/repo"]
trust_level = "trusted"
`

// grokSeed is a realistic ~/.grok/config.toml with mcpwire marker comments.
const grokSeed = `[ui]
theme = "dark"

# >>> mcpwire-managed: tickets
[mcp_servers.tickets]
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer ${TICKETS_TOKEN}" }
startup_timeout_sec = 30
tool_timeout_sec = 6000
# <<< mcpwire-managed: tickets

[mcp_servers.local]
command = "local-mcp"
args = []
env = { HOME_DIR = "${HOME}" }
enabled = false
`

// fuzzSeeds returns the documents the fuzzers start from.
func fuzzSeeds() []string {
	seeds := []string{codexSeed, crlf(codexSeed), grokSeed, crlf(grokSeed)}
	for _, tc := range stripCases {
		seeds = append(seeds, tc.in)
	}
	for _, tc := range replaceCases {
		seeds = append(seeds, tc.in)
	}
	for _, tc := range removeCases {
		seeds = append(seeds, tc.in)
	}
	return seeds
}

// stmtTexts returns the source text of each statement of src.
func stmtTexts(t *testing.T, src []byte) []stmt {
	t.Helper()
	st, err := scan(src)
	if err != nil {
		t.Fatalf("scan(%q): %v", src, err)
	}
	return st
}

// checkPreserved verifies that every statement of orig that keep selects appears, byte for byte and
// in order, among the statements of out.
func checkPreserved(t *testing.T, orig, out []byte, keep func(i int, st *stmt) bool) {
	t.Helper()
	os, ns := stmtTexts(t, orig), stmtTexts(t, out)
	j := 0
	for i := range os {
		if !keep(i, &os[i]) {
			continue
		}
		text := orig[os[i].start:os[i].end]
		for j < len(ns) && !sameStmt(text, out[ns[j].start:ns[j].end]) {
			j++
		}
		if j == len(ns) {
			t.Fatalf("statement %q of the original is missing or out of order in:\n%q\noriginal:\n%q", text, out, orig)
		}
		j++
	}
}

// sameStmt compares statement texts; the last statement of a file may gain a line terminator.
func sameStmt(a, b []byte) bool {
	return bytes.Equal(bytes.TrimRight(a, "\r\n"), bytes.TrimRight(b, "\r\n")) &&
		(bytes.Equal(a, b) || !bytes.HasSuffix(a, []byte("\n")))
}

// lossAllowed is the comment rule of ReplaceServer and RemoveServer, written independently of
// extents: comment statement i of the original may disappear only when it lies between a header of
// the server's tables and that table's last key/value line, or when it is the server's own marker
// line right against such a table (the start marker directly above its header, the end marker
// directly after its last key/value line or its header).
func lossAllowed(src []byte, sts []stmt, i int, name string) bool {
	affected := func(k int) bool {
		return k >= 0 && k < len(sts) && sts[k].isHeader() && hasPrefix(sts[k].path, []string{key, name})
	}
	h := -1 // the header whose section holds i
	for k := i - 1; k >= 0; k-- {
		if sts[k].isHeader() {
			h = k
			break
		}
	}
	if affected(h) {
		for k := i + 1; k < len(sts) && !sts[k].isHeader(); k++ {
			if sts[k].kind == kindKeyValue {
				return true
			}
		}
	}
	line := strings.TrimSuffix(strings.TrimSuffix(string(src[sts[i].start:sts[i].end]), "\n"), "\r")
	if line == "# >>> mcpwire-managed: "+name && affected(i+1) {
		return true
	}
	if line == "# <<< mcpwire-managed: "+name && affected(h) {
		p := &sts[i-1]
		return p.kind == kindKeyValue || p.isHeader()
	}
	return false
}

// commentSafe reports whether s can sit in a comment line.
func commentSafe(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return false
		}
	}
	return true
}

func isServerStmt(st *stmt, key, name string) bool {
	if st.kind != kindKeyValue && !st.isHeader() {
		return false
	}
	return hasPrefix(st.path, []string{key, name}) || st.kind == kindKeyValue && len(st.path) == 1 && st.path[0] == key
}

func FuzzReplace(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, "docs", "cmd")
		f.Add(s, "new", `we"ird\`)
		f.Add(s, "my.server", "x\ny")
	}
	f.Fuzz(func(t *testing.T, src, name, value string) {
		checkReplace(t, []byte(src), name, value)
	})
}

// checkReplace runs ReplaceServer on src (when it parses) and checks the result: it parses
// strictly, its data is the original data with only the server changed, and every statement that
// does not define the server is kept byte for byte and in order.
func checkReplace(t *testing.T, src []byte, name, value string) {
	d, err := parseFramed(src)
	if err != nil || !utf8.ValidString(name) {
		return
	}
	orig := d.Bytes()
	origData := clone(d.data).(map[string]any)
	checkErr := d.Check(key)
	sts := stmtTexts(t, orig)
	nl := d.Newline()
	block := Table(key, name, []KV{
		{"command", value},
		{"args", []string{value, "--stdio"}},
		{"env", Inline{{value, "v"}, {"B-C", value}}},
		{"startup_timeout_sec", 10.0},
		{"enabled", true},
	}, nl)
	if len(value)%2 == 1 && commentSafe(name) {
		block = []byte(testFrame.Start + name + nl + string(block) + testFrame.End + name + nl)
	}
	err = d.Replace(key, name, block)
	if checkErr != nil {
		if err == nil {
			t.Fatalf("ReplaceServer accepted a document CheckServers refuses (%v)", checkErr)
		}
		if !bytes.Equal(d.Bytes(), orig) {
			t.Fatalf("failed ReplaceServer changed the document")
		}
		return
	}
	if err != nil {
		t.Fatalf("ReplaceServer(%q): %v\ndocument:\n%q", name, err, orig)
	}
	out := d.Bytes()
	nd, err := parseFramed(out)
	if err != nil {
		t.Fatalf("result does not parse: %v\n%q", err, out)
	}
	bd, err := parseFramed(block)
	if err != nil {
		t.Fatalf("block does not parse: %v\n%q", err, block)
	}
	want := origData
	servers, ok := want[key].(map[string]any)
	if !ok {
		servers = map[string]any{}
		want[key] = servers
	}
	servers[name] = bd.data[key].(map[string]any)[name]
	if !equal(nd.data, want) {
		t.Fatalf("data differs:\n got: %v\nwant: %v\nresult:\n%q", nd.data, want, out)
	}
	if text, ok := d.Text(key, name); !ok || text != string(block) {
		t.Fatalf("ServerText after ReplaceServer = %q, want %q\nresult:\n%q", text, block, out)
	}
	checkPreserved(t, orig, out, func(i int, st *stmt) bool {
		switch st.kind {
		case kindBlank:
			return false
		case kindComment:
			return !lossAllowed(orig, sts, i, name)
		}
		return !isServerStmt(st, key, name)
	})
	// Idempotent: the same block again changes nothing.
	if err := d.Replace(key, name, block); err != nil {
		t.Fatalf("second ReplaceServer: %v", err)
	}
	if again := d.Bytes(); !bytes.Equal(again, out) {
		t.Fatalf("second ReplaceServer changed the document:\n got: %q\nwant: %q", again, out)
	}
}

func FuzzRemove(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, "docs")
		f.Add(s, "other")
	}
	f.Fuzz(func(t *testing.T, src, name string) {
		checkRemove(t, []byte(src), name)
	})
}

// checkRemove runs RemoveServer on src (when it parses) and checks the result like checkReplace.
func checkRemove(t *testing.T, src []byte, name string) {
	d, err := parseFramed(src)
	if err != nil {
		return
	}
	orig := d.Bytes()
	origData := clone(d.data).(map[string]any)
	checkErr := d.Check(key)
	sts := stmtTexts(t, orig)
	removed, err := d.Remove(key, name)
	if checkErr != nil {
		if err == nil || !bytes.Equal(d.Bytes(), orig) {
			t.Fatalf("RemoveServer on a refused document: err=%v, changed=%v", err, !bytes.Equal(d.Bytes(), orig))
		}
		return
	}
	if err != nil {
		t.Fatalf("RemoveServer(%q): %v\ndocument:\n%q", name, err, orig)
	}
	out := d.Bytes()
	if !removed {
		if !bytes.Equal(out, orig) {
			t.Fatalf("RemoveServer of an absent server changed the document")
		}
		return
	}
	nd, err := parseFramed(out)
	if err != nil {
		t.Fatalf("result does not parse: %v\n%q", err, out)
	}
	delete(origData[key].(map[string]any), name)
	if !equalModel(nd.data, origData, []string{key}) {
		t.Fatalf("data differs:\n got: %v\nwant: %v\nresult:\n%q", nd.data, origData, out)
	}
	checkPreserved(t, orig, out, func(i int, st *stmt) bool {
		switch st.kind {
		case kindBlank:
			return false
		case kindComment:
			return !lossAllowed(orig, sts, i, name)
		}
		return !isServerStmt(st, key, name)
	})
}

func FuzzStripTree(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkStrip(t, []byte(src))
	})
}

// checkStrip runs StripTree on src (when it parses) and checks that the result parses, equals the
// original data without the key and keeps every other statement.
func checkStrip(t *testing.T, src []byte) {
	d, err := parseFramed(src)
	if err != nil {
		return
	}
	orig := d.Bytes()
	want := shallowWithout(d.data, key)
	marks := d.marks(func(path []string) bool { return len(path) > 0 && path[0] == key }, d.greedyExtents())
	if err := d.StripTree(key); err != nil {
		t.Fatalf("StripTree: %v\ndocument:\n%q", err, orig)
	}
	out := d.Bytes()
	nd, err := parseFramed(out)
	if err != nil {
		t.Fatalf("result does not parse: %v\n%q", err, out)
	}
	if !equal(nd.data, want) {
		t.Fatalf("data differs:\n got: %v\nwant: %v\nresult:\n%q", nd.data, want, out)
	}
	checkPreserved(t, orig, out, func(i int, st *stmt) bool {
		switch st.kind {
		case kindBlank:
			return false
		case kindComment:
			return !marks[i]
		}
		return len(st.path) == 0 || st.path[0] != key
	})
}

// Fragments FuzzForms assembles documents from: every form a server may be defined in.
var (
	rootFragments = []string{
		`model = "o3"`,
		`# a comment`,
		``,
		`mcp_servers.docs.command = "d"`,
		`mcp_servers.docs.env.A = "1"`,
		`mcp_servers.other.command = "o"`,
		`mcp_servers = { docs = { command = "d" }, other.args = [] }`,
		`mcp_servers = { other = { command = "o" } }`,
		"notes = \"\"\"\n[mcp_servers.fake]\nmcp_servers.x = 1\n\"\"\"",
		"\"mcp_servers\".'docs'.args = [\"a\", # c\n \"b\"]",
		`mcp_servers.docs = { url = "u" }`,
		`mcp_servers."a\u0062c".x = 1`,
		"  mcp_servers . docs . url = 'u'   # spaced",
		`mcp_servers = {}`,
		"   ",
	}
	tableFragments = []string{
		"[mcp_servers.docs]\ncommand = \"d\"",
		"[mcp_servers.docs.env]\nA = \"1\"",
		"[mcp_servers.\"docs\".tools.x]\napproval_mode = \"auto\"",
		"[mcp_servers]\ndocs.url = \"u\"",
		"[mcp_servers]\nother = { command = \"o\" }",
		"[mcp_servers]",
		"# about other\n[mcp_servers.other]\ncommand = \"o\"\n# trailing",
		"[profiles.x]\nmodel = \"o4\"",
		"[tools]\nx = 1",
		"[[mcp_servers.other.hooks]]\nrun = \"a\"",
		"[ mcp_servers . 'my.server' ]\ncommand = \"\"\"\n[mcp_servers.docs]\n\"\"\"",
		"[mcp_servers.\"a\\u0062c\"]\ncommand = \"abc\"",
		"[[mcp_servers]]\nname = \"x\"",
		"",
		"# a comment",
		"[projects.\"/home/u/repo\"]\ntrust_level = \"trusted\"",
		"[mcp_servers.docs]\n# c1\n\n# c2\nurl = \"u\"\n\n# trailing after a blank line",
		"\t[mcp_servers.other]  # indented header\n\tcommand = 'o'",
		"[mcp_servers]\n\"docs\".env = { A = \"1\" }",
		"[mcp_servers.other]\nargs = [\n  \"x\",\n  # [mcp_servers.docs]\n]",
		"[profiles.x.mcp_servers.docs]\ncommand = \"profile-scoped, kept\"",
		"# >>> mcpwire-managed: docs\n[mcp_servers.docs]\nurl = \"u\"\n# <<< mcpwire-managed: docs",
		"# >>> mcpwire-managed: other\n# a person's note\n[mcp_servers.other]\ncommand = \"o\"\n\n# <<< mcpwire-managed: other",
		"# <<< mcpwire-managed: docs",
		"# ---- banner: DO NOT REMOVE ----\n[mcp_servers.docs]\nargs = []\n\n# trailing block\n# second line",
	}
	formNames = []string{"docs", "other", "my.server", "abc", "new"}
)

// assemble builds a document from fuzz bytes: data[0] picks the line ending, then each byte picks a
// root fragment (while below 128) or a table fragment.
func assemble(data []byte) (doc []byte, name string) {
	if len(data) == 0 {
		return nil, "docs"
	}
	nl := "\n"
	if data[0]&1 != 0 {
		nl = "\r\n"
	}
	name = formNames[int(data[0]>>1)%len(formNames)]
	var parts []string
	root := true
	for _, b := range data[1:] {
		if root && b < 128 {
			parts = append(parts, rootFragments[int(b)%len(rootFragments)])
			continue
		}
		root = false
		parts = append(parts, tableFragments[int(b)%len(tableFragments)])
	}
	s := strings.Join(parts, "\n")
	if data[0]&0x80 == 0 {
		s += "\n"
	}
	return []byte(strings.ReplaceAll(s, "\n", nl)), name
}

// FuzzForms assembles documents from the forms a server may be defined in and checks
// ReplaceServer, RemoveServer and StripTree on them.
func FuzzForms(f *testing.F) {
	f.Add([]byte{0, 0, 3, 4, 2, 200, 201, 135, 134})
	f.Add([]byte{3, 0, 6, 1, 136, 135})
	f.Add([]byte{4, 8, 9, 130, 138, 129, 142, 139, 140})
	f.Add([]byte{129, 1, 7, 5, 10, 11, 141, 143})
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, name := assemble(data)
		checkReplace(t, doc, name, "v")
		checkRemove(t, doc, name)
		checkStrip(t, doc)
	})
}

// FuzzScan checks the statement tokenizer against go-toml's own parser: same statements, same
// decoded keys, same key/value source ranges.
func FuzzScan(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		b := []byte(src)
		if _, err := decode(b); err != nil {
			return
		}
		stmts, err := scan(b)
		if err != nil {
			t.Fatalf("scan rejects a document go-toml accepts: %v\n%q", err, src)
		}
		end := 0
		for _, st := range stmts {
			if st.start != end {
				t.Fatalf("statements do not tile the document at %d", st.start)
			}
			end = st.end
		}
		if end != len(b) {
			t.Fatalf("statements end at %d of %d", end, len(b))
		}
		var p unstable.Parser
		p.Reset(b)
		n := 0
		for p.NextExpression() {
			e := p.Expression()
			for n < len(stmts) && (stmts[n].kind == kindBlank || stmts[n].kind == kindComment) {
				n++
			}
			if n == len(stmts) {
				t.Fatalf("go-toml has more expressions than the scanner")
			}
			st := stmts[n]
			n++
			var wantKind kind
			switch e.Kind {
			case unstable.Table:
				wantKind = kindTable
			case unstable.ArrayTable:
				wantKind = kindArrayTable
			case unstable.KeyValue:
				wantKind = kindKeyValue
			default:
				t.Fatalf("unexpected expression kind %v", e.Kind)
			}
			if st.kind != wantKind {
				t.Fatalf("line %d: kind %v, go-toml says %v", st.line, st.kind, e.Kind)
			}
			var keys []string
			it := e.Key()
			for it.Next() {
				keys = append(keys, string(it.Node().Data))
			}
			if got := names(st.key); !equal(got, keys) {
				t.Fatalf("line %d: key %q, go-toml says %q", st.line, got, keys)
			}
			if e.Kind == unstable.KeyValue {
				r := e.Raw
				if int(r.Offset) != st.key[0].start || int(r.Offset+r.Length) != st.valEnd {
					t.Fatalf("line %d: key/value range %d-%d, go-toml says %d-%d", st.line, st.key[0].start, st.valEnd, r.Offset, r.Offset+r.Length)
				}
			}
		}
		if err := p.Error(); err != nil {
			t.Fatalf("unstable parser: %v", err)
		}
		for ; n < len(stmts); n++ {
			if stmts[n].kind != kindBlank && stmts[n].kind != kindComment {
				t.Fatalf("scanner has more statements than go-toml")
			}
		}
	})
}
