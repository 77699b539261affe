package jsonc

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

const claudeMCP = `{
  // Project servers for Claude Code.
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/", // remote
    },
    /* local tools */
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]},
    "esc\u0061ped": "\"q\" \u00e9",
  },
  "n": -1.5e3, "t": true, "f": false, "z": null, "arr": [1, /* c */ 2,],
}
`

func TestLookup(t *testing.T) {
	d, err := Parse([]byte(claudeMCP))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path []string
		kind Kind
		json string
	}{
		{nil, Object, `{"mcpServers":{"github":{"type":"http","url":"https://api.githubcopilot.com/mcp/"},"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","."]},"esc\u0061ped":"\"q\" \u00e9"},"n":-1.5e3,"t":true,"f":false,"z":null,"arr":[1,2]}`},
		{[]string{"mcpServers", "github"}, Object, `{"type":"http","url":"https://api.githubcopilot.com/mcp/"}`},
		{[]string{"mcpServers", "github", "url"}, String, `"https://api.githubcopilot.com/mcp/"`},
		{[]string{"mcpServers", "escaped"}, String, `"\"q\" \u00e9"`},
		{[]string{"n"}, Number, `-1.5e3`},
		{[]string{"t"}, Bool, `true`},
		{[]string{"f"}, Bool, `false`},
		{[]string{"z"}, Null, `null`},
		{[]string{"arr"}, Array, `[1,2]`},
	}
	for _, tt := range tests {
		v, ok := d.Lookup(tt.path...)
		if !ok {
			t.Errorf("Lookup(%q) not found", tt.path)
			continue
		}
		if v.Kind() != tt.kind {
			t.Errorf("Lookup(%q).Kind() = %v, want %v", tt.path, v.Kind(), tt.kind)
		}
		if got := string(v.JSON()); got != tt.json {
			t.Errorf("Lookup(%q).JSON() = %s, want %s", tt.path, got, tt.json)
		}
	}
	for _, path := range [][]string{{"nope"}, {"mcpServers", "nope"}, {"n", "x"}, {"arr", "0"}} {
		if v, ok := d.Lookup(path...); ok || v.Kind() != Invalid || v.JSON() != nil || v.String() != "" {
			t.Errorf("Lookup(%q) = %v, %v; want zero Value, false", path, v, ok)
		}
	}
	servers, _ := d.Lookup("mcpServers")
	if got, want := servers.Keys(), []string{"github", "fs", "escaped"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys() = %q, want %q", got, want)
	}
	if got, want := d.Root().Keys(), []string{"mcpServers", "n", "t", "f", "z", "arr"}; !reflect.DeepEqual(got, want) {
		t.Errorf("root Keys() = %q, want %q", got, want)
	}
	if v, _ := servers.Member("escaped"); v.String() != `"q" é` {
		t.Errorf("String() = %q", v.String())
	}
	if v, _ := d.Lookup("arr"); v.String() != "[1,2]" || v.Keys() != nil {
		t.Errorf("array String() = %q, Keys() = %q", v.String(), v.Keys())
	}
	if k := Kind(42).String(); k != "invalid" || Object.String() != "object" {
		t.Errorf("Kind names: %q %q", k, Object.String())
	}
}

func TestLookupDuplicatesUseLast(t *testing.T) {
	d, err := Parse([]byte(`{"a": 1, "b": {"x": 1, "x": 2}, "a": 3}`))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := d.Lookup("a"); string(v.JSON()) != "3" {
		t.Errorf("a = %s, want 3", v.JSON())
	}
	if v, _ := d.Lookup("b", "x"); string(v.JSON()) != "2" {
		t.Errorf("b.x = %s, want 2", v.JSON())
	}
	if got := d.Root().Keys(); !reflect.DeepEqual(got, []string{"a", "b", "a"}) {
		t.Errorf("Keys() = %q", got)
	}
}

// TestLookupIsLazy checks that looking up and editing a small member of a
// big document materialises only the objects on the path.
func TestLookupIsLazy(t *testing.T) {
	data := genClaudeJSON(1 << 20)
	d, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Lookup("projects", "/home/u/src/project-3", "mcpServers"); !ok {
		t.Fatal("project not found")
	}
	if err := d.Set([]string{"mcpServers", "x"}, []byte(`{"command":"x"}`)); err != nil {
		t.Fatal(err)
	}
	for _, m := range d.root.members {
		if keyIs(m.key, "projects") && m.val.obj != nil {
			t.Error("projects was materialised")
		}
		if keyIs(m.key, "mcpServers") && m.val.obj == nil {
			t.Error("mcpServers was not materialised")
		}
	}
}

func TestBytesAndWriteTo(t *testing.T) {
	in := []byte(claudeMCP)
	orig := bytes.Clone(in)
	d, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Set([]string{"mcpServers", "fs", "env"}, []byte(`{"A":"1"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Delete([]string{"mcpServers", "github"}); err != nil {
		t.Fatal(err)
	}
	got := d.Bytes()
	var buf bytes.Buffer
	n, err := d.WriteTo(&buf)
	if err != nil || n != int64(len(got)) || !bytes.Equal(buf.Bytes(), got) {
		t.Errorf("WriteTo = %d, %v; bytes differ from Bytes: %v", n, err, !bytes.Equal(buf.Bytes(), got))
	}
	if !bytes.Equal(in, orig) {
		t.Error("the input buffer was modified")
	}
	want := `{
  // Project servers for Claude Code.
  "mcpServers": {
    /* local tools */
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": {"A": "1"}},
    "esc\u0061ped": "\"q\" \u00e9",
  },
  "n": -1.5e3, "t": true, "f": false, "z": null, "arr": [1, /* c */ 2,],
}
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > 10 {
		return 0, errShortWrite
	}
	w.n += len(p)
	return len(p), nil
}

var errShortWrite = errors.New("short write")

func TestWriteToError(t *testing.T) {
	d, err := Parse(genClaudeJSON(100 << 10))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Set([]string{"x"}, []byte("1")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteTo(&failWriter{}); err == nil {
		t.Error("WriteTo did not report the writer's error")
	}
}
