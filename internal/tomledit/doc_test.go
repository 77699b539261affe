package tomledit

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// testFrame is the frame the tests' documents use: Grok Build's marker lines.
var testFrame = Frame{Start: "# >>> mcpwire-managed: ", End: "# <<< mcpwire-managed: "}

// parseFramed parses src with the test frame set.
func parseFramed(src []byte) (*Doc, error) {
	d, err := Parse(src)
	if err == nil {
		d.SetFrame(testFrame)
	}
	return d, err
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a = 1\na = 2\n", "line 2: key a is already defined"},
		{"[a]\nx = 1\n[a]\n", "line 3: table a already exists"},
		{"model = \n", "line 1: "},
		{"x = \"unterminated\n", "line 1: "},
		{"[mcp_servers.a]\ncommand = \"x\"\n[mcp_servers.a]\n", "line 3: "},
		{"mcp_servers.a.command = \"x\"\n[mcp_servers.a]\n", "line 2: "},
		{"mcp_servers = { a = {} }\n[mcp_servers.b]\n", "line 2: "},
		{"\xef\xbb\xbfa = 1\n", "line 1: "},
		{"a = 1\rb = 2\n", "line 1: "},
	} {
		_, err := parseFramed([]byte(tc.in))
		if err == nil {
			t.Errorf("parseFramed(%q) succeeded", tc.in)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, tc.want) || strings.HasSuffix(msg, ".") || strings.Contains(msg, "toml:") {
			t.Errorf("parseFramed(%q) error %q, want prefix %q, no final period, no toml: prefix", tc.in, msg, tc.want)
		}
	}
}

func TestNewline(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "\n",
		"a = 1":             "\n",
		"a = 1\nb = 2\r\n":  "\n",
		"a = 1\r\nb = 2\n":  "\r\n",
		"# c\r\n[t]\r\n":    "\r\n",
		"\r\n":              "\r\n",
		"x = '''\r\n'''\n":  "\r\n",
		"\n\r\nx = 1\r\n":   "\n",
		"[t]\r\nx = 1\r\n":  "\r\n",
		"a = 1\n\n\n\n\n\n": "\n",
	} {
		d, err := parseFramed([]byte(in))
		if err != nil {
			t.Fatalf("parseFramed(%q): %v", in, err)
		}
		if got := d.Newline(); got != want {
			t.Errorf("Newline(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBytesRoundTrip(t *testing.T) {
	for _, s := range fuzzSeeds() {
		d, err := parseFramed([]byte(s))
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		b := d.Bytes()
		if string(b) != s {
			t.Errorf("Bytes() = %q, want %q", b, s)
		}
		if len(b) == 0 {
			continue
		}
		b[0] = '!' // callers cannot alter the document through Bytes
		if string(d.Bytes()) != s {
			t.Errorf("Bytes() aliases the document")
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"absent", "model = \"o3\"\n", ""},
		{"empty header", "[mcp_servers]\n", ""},
		{"tables", codexSeed, ""},
		{"grok", grokSeed, ""},
		{"inline", "mcp_servers = { a = { command = \"x\" } }\n", ""},
		{"array of tables under a server", "[mcp_servers.a]\n[[mcp_servers.a.hooks]]\nrun = \"x\"\n", ""},
		{"integer", "model = \"o3\"\nmcp_servers = 3\n", "line 2: mcp_servers must be a table of tables, not an integer"},
		{"string", "mcp_servers = \"x\"\n", "line 1: mcp_servers must be a table of tables, not a string"},
		{"array", "mcp_servers = [\"a\"]\n", "line 1: mcp_servers must be a table of tables, not an array"},
		{"inline array of tables", "mcp_servers = [{ name = \"a\" }]\n", "line 1: mcp_servers must be a table of tables, not an array of tables"},
		{"array of tables", "model = \"o3\"\n\n[[mcp_servers]]\nname = \"a\"\n", "line 3: mcp_servers must be a table of tables, not an array of tables"},
		{"server array of tables", "[mcp_servers.a]\ncommand = \"x\"\n\n[[mcp_servers.b]]\ncommand = \"y\"\n", "line 4: mcp_servers.b must be a table, not an array of tables"},
		{"server scalar", "[mcp_servers]\na = { command = \"x\" }\nb = true\n", "line 3: mcp_servers.b must be a table, not a boolean"},
		{"dotted server scalar", "mcp_servers.\"my.server\" = 1.5\n", `line 1: mcp_servers."my.server" must be a table, not a float`},
		{"server date", "mcp_servers.a = 1979-05-27\n", "line 1: mcp_servers.a must be a table, not a date/time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseFramed([]byte(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			err = d.Check(key)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckServers: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("CheckServers = %v, want %q", err, tc.want)
			}
			// Edits refuse the same documents and leave them unchanged.
			if err := d.Replace(key, "a", newBlock("a", "\n")); err == nil || err.Error() != tc.want {
				t.Errorf("ReplaceServer = %v, want %q", err, tc.want)
			}
			if _, err := d.Remove(key, "a"); err == nil || err.Error() != tc.want {
				t.Errorf("RemoveServer = %v, want %q", err, tc.want)
			}
			if string(d.Bytes()) != tc.in {
				t.Errorf("refused edit changed the document")
			}
			// StripTree still removes everything.
			if err := d.StripTree(key); err != nil {
				t.Errorf("StripTree: %v", err)
			}
		})
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"model = \"o3\"\n", nil},
		{"mcp_servers = 3\n", nil},
		{"[mcp_servers]\n", []string{}},
		{codexSeed, []string{"docs", "tickets"}},
		{grokSeed, []string{"tickets", "local"}},
		{"mcp_servers.zeta.command = \"z\"\n[mcp_servers.alpha]\n[mcp_servers.\"my.server\"]\n[mcp_servers.zeta.env]\n", []string{"zeta", "alpha", "my.server"}},
		{"mcp_servers = { b = {}, a.x = 1, \"c\\u0064\" = {} }\n", []string{"b", "a", "cd"}},
		{"[mcp_servers]\nz = {}\ny.command = \"x\"\n[mcp_servers.x]\n", []string{"z", "y", "x"}},
	} {
		d, err := parseFramed([]byte(tc.in))
		if err != nil {
			t.Fatalf("parseFramed(%q): %v", tc.in, err)
		}
		got := d.Names(key)
		if !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("ServerNames(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}

func TestGet(t *testing.T) {
	d, err := parseFramed([]byte(codexSeed))
	if err != nil {
		t.Fatal(err)
	}
	srv, ok := d.Get(key, "docs")
	if !ok {
		t.Fatal("docs not found")
	}
	want := map[string]any{
		"command":             "npx",
		"args":                []any{"-y", "@acme/docs-mcp", "--stdio"},
		"startup_timeout_sec": int64(20),
		"disabled_tools":      []any{"delete_page"},
		"env":                 map[string]any{"DOCS_TOKEN": "abc123"},
	}
	if !equal(srv, want) {
		t.Errorf("Server = %#v, want %#v", srv, want)
	}
	srv["env"].(map[string]any)["DOCS_TOKEN"] = "changed"
	again, _ := d.Get(key, "docs")
	if again["env"].(map[string]any)["DOCS_TOKEN"] != "abc123" {
		t.Errorf("Server returned the document's own map")
	}
	if _, ok := d.Get(key, "nope"); ok {
		t.Errorf("absent server found")
	}
	if _, ok := d.Get("nokey", "docs"); ok {
		t.Errorf("server found under an absent key")
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct {
		name, in, server, want string
		ok                     bool
	}{
		{
			name: "tables with comments and sub-table", server: "docs", ok: true,
			in:   "model = \"o3\"\n\n# docs\n[mcp_servers.docs]\ncommand = \"d\" # c\n\n[mcp_servers.docs.env]\nA = \"1\"\n\n\n[tools]\nx = 1\n",
			want: "[mcp_servers.docs]\ncommand = \"d\" # c\n[mcp_servers.docs.env]\nA = \"1\"\n",
		},
		{
			name: "grok marker block", server: "tickets", ok: true,
			in: grokSeed,
			want: "# >>> mcpwire-managed: tickets\n[mcp_servers.tickets]\nurl = \"https://mcp.example.com/mcp\"\n" +
				"headers = { Authorization = \"Bearer ${TICKETS_TOKEN}\" }\nstartup_timeout_sec = 30\ntool_timeout_sec = 6000\n" +
				"# <<< mcpwire-managed: tickets\n",
		},
		{
			name: "dotted keys", server: "docs", ok: true,
			in:   "mcp_servers.docs.command = \"d\"\nmodel = \"o3\"\nmcp_servers.docs.args = [\n  \"a\",\n]\n",
			want: "mcp_servers.docs.command = \"d\"\nmcp_servers.docs.args = [\n  \"a\",\n]\n",
		},
		{
			name: "inline entry", server: "docs", ok: true,
			in:   "[mcp_servers]\n# c\ndocs = { command = \"d\" }\nother = {}\n",
			want: "docs = { command = \"d\" }\n",
		},
		{
			name: "root inline table", server: "docs", ok: true,
			in:   "mcp_servers = { docs = { command = \"d\" }, other = {} }\nmodel = \"o3\"\n",
			want: "mcp_servers = { docs = { command = \"d\" }, other = {} }\n",
		},
		{
			name: "escaped name", server: "abc", ok: true,
			in:   "[mcp_servers.\"a\\u0062c\"]\ncommand = \"d\"",
			want: "[mcp_servers.\"a\\u0062c\"]\ncommand = \"d\"",
		},
		{name: "absent", server: "nope", in: codexSeed},
		{name: "no servers", server: "docs", in: "model = \"o3\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseFramed([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := d.Text(key, tc.server)
			if got != tc.want || ok != tc.ok {
				t.Errorf("ServerText = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestReplaceRefusesBadBlocks(t *testing.T) {
	for _, tc := range []struct{ name, block, want string }{
		{"other server", "[mcp_servers.other]\ncommand = \"x\"\n", "block must define exactly the table mcp_servers.docs"},
		{"two servers", "[mcp_servers.docs]\n[mcp_servers.other]\n", "block must define exactly the table mcp_servers.docs"},
		{"extra table", "[mcp_servers.docs]\n[tools]\n", "block must define exactly the table mcp_servers.docs"},
		{"not a table", "mcp_servers.docs = 1\n", "block must define exactly the table mcp_servers.docs"},
		{"array of tables", "[[mcp_servers.docs]]\n", "block must define exactly the table mcp_servers.docs"},
		{"dotted form", "mcp_servers.docs.command = \"x\"\n", "block for mcp_servers.docs: line 1: must start with a [mcp_servers.docs] header"},
		{"parent header", "[mcp_servers]\ndocs.command = \"x\"\n", "block for mcp_servers.docs: line 1: table mcp_servers is outside it"},
		{"invalid", "[mcp_servers.docs]\ncommand = \n", "block for mcp_servers.docs: line 2: "},
		{"empty", "", "block must define exactly the table mcp_servers.docs"},
		{"person's comment above", "# mine\n[mcp_servers.docs]\ncommand = \"x\"\n", "block for mcp_servers.docs: line 1: only the table and its frame lines"},
		{"comment after the body", "[mcp_servers.docs]\ncommand = \"x\"\n# after\n", "block for mcp_servers.docs: line 3: only the table and its frame lines"},
		{"trailing blank line", "[mcp_servers.docs]\ncommand = \"x\"\n\n", "block for mcp_servers.docs: line 3: only the table and its frame lines"},
		{"other server's marker", "# >>> mcpwire-managed: other\n[mcp_servers.docs]\n", "block for mcp_servers.docs: line 1: only the table and its frame lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseFramed([]byte(codexSeed))
			if err != nil {
				t.Fatal(err)
			}
			err = d.Replace(key, "docs", []byte(tc.block))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("ReplaceServer = %v, want %q", err, tc.want)
			}
			if string(d.Bytes()) != codexSeed {
				t.Errorf("refused ReplaceServer changed the document")
			}
		})
	}
}

func TestReplaceBlockWithComments(t *testing.T) {
	d, err := parseFramed([]byte(grokSeed))
	if err != nil {
		t.Fatal(err)
	}
	block := "# >>> mcpwire-managed: tickets\n" +
		string(Table(key, "tickets", []KV{{"url", "https://new.example.com/mcp"}, {"startup_timeout_sec", 30}}, "\n")) +
		"# <<< mcpwire-managed: tickets\n"
	if err := d.Replace(key, "tickets", []byte(block)); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(grokSeed, `[mcp_servers.tickets]
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer ${TICKETS_TOKEN}" }
startup_timeout_sec = 30
tool_timeout_sec = 6000
`, `[mcp_servers.tickets]
url = "https://new.example.com/mcp"
startup_timeout_sec = 30
`, 1)
	if got := string(d.Bytes()); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if text, _ := d.Text(key, "tickets"); text != block {
		t.Errorf("ServerText = %q, want %q", text, block)
	}
}

func TestReplaceBlockWithoutFinalNewline(t *testing.T) {
	d, err := parseFramed([]byte(crlf(codexSeed)))
	if err != nil {
		t.Fatal(err)
	}
	block := bytes.TrimSuffix(Table(key, "new", []KV{{"command", "x"}}, "\r\n"), []byte("\r\n"))
	if err := d.Replace(key, "new", block); err != nil {
		t.Fatal(err)
	}
	if got, want := string(d.Bytes()), crlf(codexSeed)+"\r\n[mcp_servers.new]\r\ncommand = \"x\"\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCommitRefusesInvalidResults(t *testing.T) {
	d, err := parseFramed([]byte(codexSeed))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.commit([]byte("model = \"o3\"\nmodel = \"o4\"\n"), d.data, []string{key}); err == nil || !strings.Contains(err.Error(), "does not parse: line 2:") {
		t.Errorf("commit of an invalid document = %v", err)
	}
	if err := d.commit([]byte("model = \"o4\"\n"), d.data, []string{key}); err == nil || !strings.Contains(err.Error(), "expected data") {
		t.Errorf("commit of a document with other data = %v", err)
	}
	if string(d.Bytes()) != codexSeed {
		t.Errorf("failed commit changed the document")
	}
}
