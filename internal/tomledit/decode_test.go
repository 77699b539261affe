package tomledit

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// trackerCases are documents Decode accepts (line == 0 and err == "") or refuses: a refusal's
// error must be on line and name key (err is a fragment of the message). go-toml refuses on the
// same line, or on goLine when it is set (go-toml points at the key of the expression, Decode at
// the key of the inline table that repeats it).
var trackerCases = []struct {
	name, in     string
	line, goLine int
	key, err     string
}{
	{name: "empty", in: ""},
	{name: "keys", in: "a = 1\nb = 2\n"},
	{name: "dotted keys share a table", in: "a.b = 1\na.c = 2\n"},
	{name: "same key in other tables", in: "a = 1\n[b]\na = 2\n[c.d]\na = 3\n"},
	{name: "implicit table defined later", in: "[a.b]\nx = 1\n[a]\ny = 2\n"},
	{name: "table then sub-table", in: "[a]\n[a.b]\n[a.b.c]\n"},
	{name: "sub-table of a dotted-key table", in: "[fruit]\napple.color = \"red\"\n[fruit.apple.texture]\nsmooth = true\n"},
	{name: "header under a root dotted-key table", in: "a.b.c = 1\n[a.d]\nx = 1\n"},
	{name: "array of tables", in: "[[s]]\nname = \"x\"\n[[s]]\nname = \"y\"\n"},
	{name: "sub-tables of each element", in: "[[a]]\n[a.b]\nx = 1\n[[a]]\n[a.b]\nx = 2\n"},
	{name: "nested arrays of tables", in: "[[a]]\n[[a.b]]\nx = 1\n[[a.b]]\n[[a]]\n[[a.b]]\n"},
	{name: "implicit table of an array header defined later", in: "[[a.b]]\n[a]\nx = 1\n"},
	{name: "inline tables", in: "a = { b = 1, c.d = 2, c.e = { f = [1, { g = 3 }] } }\n"},
	{name: "inline tables in an array", in: "a = [{ b = 1 }, { b = 2 }]\n"},
	{name: "tables after an array of tables", in: "[[a]]\nx = 1\n[b]\n[c]\nx = 2\n"},
	{name: "dotted key tables", in: "[a]\nb.c = 1\nb.d = 2\n[a.b.e]\n"},
	{name: "values of every kind", in: "i = [0x1_0, 0o7, 0b1, +1_000, -0]\nf = [1.5e3, -inf, nan, 1e-7]\nd = [1979-05-27, 07:32:00, 1979-05-27T07:32:00.5, 1979-05-27T07:32:00-07:00]\ns = ['''a''', \"\"\"b\"\"\", 'c', \"\\u00e9\"]\n"},

	{name: "duplicate key", in: "a = 1\na = 2\n", line: 2, key: "a", err: "key a is already defined"},
	{name: "duplicate quoted key", in: "a = 1\n\"a\" = 2\n", line: 2, key: "a", err: "already defined"},
	{name: "duplicate literal key", in: "[t]\n'a b' = 1\n\"a b\" = 2\n", line: 3, key: `"a b"`, err: "already defined"},
	{name: "duplicate dotted key", in: "a.b = 1\na.b = 2\n", line: 2, key: "a.b", err: "key a.b is already defined"},
	{name: "dotted key over a value", in: "a = 1\na.b = 2\n", line: 2, key: "a", err: "key a is already defined"},
	{name: "value over a dotted-key table", in: "a.b = 1\na = 2\n", line: 2, key: "a", err: "already defined"},
	{name: "table twice", in: "[t]\nx = 1\n[t]\n", line: 3, key: "t", err: "table t already exists"},
	{name: "sub-table twice", in: "[a]\n[a.b]\n\n[a.b]\n", line: 4, key: "a.b", err: "table a.b already exists"},
	{name: "implicit table defined twice", in: "[a.b]\n[a]\n[a]\n", line: 3, key: "a", err: "table a already exists"},
	{name: "table after a root dotted key", in: "t.x = 1\n[t]\n", line: 2, key: "t", err: "dotted key"},
	{name: "table after a dotted key in another table", in: "[t]\nx.y = 1\n[t.x]\n", line: 3, key: "t.x", err: "dotted key"},
	{name: "table after an inline table", in: "t = {}\n[t]\n", line: 2, key: "t", err: "not a value"},
	{name: "sub-table of an inline table", in: "t = { a = 1 }\n[t.b]\n", line: 2, key: "t", err: "already exists as a value"},
	{name: "dotted key into an inline table", in: "t = { a = 1 }\nt.b = 2\n", line: 2, key: "t", err: "already defined"},
	{name: "array of tables after a static array", in: "a = []\n[[a]]\n", line: 2, key: "a", err: "should be an array of tables"},
	{name: "array of tables after an inline table", in: "t = {}\n[[t]]\n", line: 2, key: "t", err: "should be an array of tables"},
	{name: "table after an array of tables", in: "[[a]]\n[a]\n", line: 2, key: "a", err: "as an array of tables"},
	{name: "array of tables after a table", in: "[a]\n[[a]]\n", line: 2, key: "a", err: "should be an array of tables"},
	{name: "array of tables after a sub-table", in: "[[a]]\n[a.b]\n[[a.b]]\n", line: 3, key: "a.b", err: "should be an array of tables"},
	{name: "sub-table twice in one element", in: "[[a]]\n[a.b]\n[a.b]\n", line: 3, key: "a.b", err: "already exists"},
	{name: "duplicate key in an element", in: "[[a]]\nx = 1\nx = 2\n", line: 3, key: "x", err: "already defined"},
	{name: "table under a value", in: "a = 1\n[a.b]\n", line: 2, key: "a", err: "already exists as a value"},
	{name: "table over a value", in: "a = 1\n[a]\n", line: 2, key: "a", err: "not a value"},
	{name: "array of tables under a value", in: "a = 1\n[[a.b]]\n", line: 2, key: "a", err: "already exists as a value"},
	{name: "sub-table of a static array of tables", in: "a = [{ b = 1 }]\n[a.c]\n", line: 2, key: "a", err: "already exists as a value"},
	{name: "dotted key into a header's table", in: "[a.b.c]\nz = 1\n[a]\nb.c.t = 2\n", line: 4, key: "b", err: "key b is already defined"},
	{name: "dotted key into an implicit table", in: "[a.b]\n[a]\nb.c = 1\n", line: 3, key: "b", err: "already defined"},
	{name: "duplicate key in an inline table", in: "a = { b = 1, b = 2 }\n", line: 1, key: "a.b", err: "key a.b is already defined"},
	{name: "duplicate dotted key in an inline table", in: "a = { b.c = 1, b.c = 2 }\n", line: 1, key: "a.b.c", err: "already defined"},
	{name: "dotted key into an inline table's inline table", in: "a = { b = { c = 1 }, b.d = 2 }\n", line: 1, key: "a.b", err: "already defined"},
	{name: "duplicate key in an array's inline table", in: "a = [{ b = 1, b = 2 }]\n", line: 1, key: "a.b", err: "already defined"},
	{name: "duplicate key in a multi-line inline table", in: "x = 1\na = {\n  b = 1,\n  b = 2,\n}\n", line: 4, goLine: 2, key: "a.b", err: "already defined"},
	{name: "table redefined after its sub-tables", in: "[a]\nx = 1\n[a.y]\n[a]\n", line: 4, key: "a", err: "already exists"},
	{name: "syntax: missing value", in: "x = 1\nmodel = \n", line: 2},
	{name: "syntax: unterminated string", in: "x = \"abc\n", line: 1},
	{name: "syntax: unclosed header", in: "\n\n[a\n", line: 3},
	{name: "integer out of range", in: "a = 1\nb = 9223372036854775808\n", line: 2, err: "too large"},
	{name: "impossible date", in: "a = 1979-02-30\n", line: 1, err: "impossible date"},
	{name: "bad offset", in: "a = 1979-05-27T07:32:00+25:00\n", line: 1},
	{name: "conversion after a tracker error", in: "a = 1\na = [99999999999999999999]\n", line: 2, key: "a", err: "already defined"},
}

// errLine returns the line of a go-toml error, 0 if it has none.
func errLine(err error) int {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		return line
	}
	return 0
}

// TestDecodeTracker checks the definition rules Decode enforces against its cases, and that
// go-toml accepts and refuses the same documents, refusing on the same line.
func TestDecodeTracker(t *testing.T) {
	for _, tc := range trackerCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.in))
			var want map[string]any
			werr := toml.Unmarshal([]byte(tc.in), &want)
			if (err == nil) != (werr == nil) {
				t.Fatalf("Decode: %v, go-toml: %v", err, werr)
			}
			refuse := tc.line != 0 || tc.err != ""
			switch {
			case err == nil && refuse:
				t.Fatalf("accepted, want line %d: %s", tc.line, tc.err)
			case err == nil:
				if !equal(got, want) {
					t.Fatalf("Decode gives %#v, go-toml %#v", got, want)
				}
				return
			case !refuse:
				t.Fatalf("refused: %v", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, fmt.Sprintf("line %d: ", tc.line)) || !strings.Contains(msg, tc.err) {
				t.Errorf("error %q, want line %d: …%s…", msg, tc.line, tc.err)
			}
			if tc.key != "" && !strings.Contains(msg, " "+tc.key+" ") {
				t.Errorf("error %q does not name key %s", msg, tc.key)
			}
			if l := errLine(werr); l != tc.line && l != tc.goLine {
				t.Errorf("go-toml refuses on line %d (%v), Decode on line %d", l, werr, tc.line)
			}
		})
	}
}

// TestDecodeReusesParsers: decoding a small document again reuses a go-toml parser and
// its node arena, as a file's entries are decoded one by one: a thousand decodes of
// one small table allocate less than a thousand arenas of 64 nodes would.
func TestDecodeReusesParsers(t *testing.T) {
	src := []byte("[mcp_servers.a]\ncommand = \"srv\"\nargs = [\"--n\", \"1\"]\n")
	if _, err := Decode(src); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 1000 {
		if _, err := Decode(src); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	arenas := uint64(1000 * 64 * unsafe.Sizeof(unstable.Node{}))
	if got := after.TotalAlloc - before.TotalAlloc; got > arenas {
		t.Errorf("1,000 decodes allocated %d bytes, more than 1,000 node arenas (%d)", got, arenas)
	}
}
