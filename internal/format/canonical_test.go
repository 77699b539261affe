package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// canonicalCases are JSON texts whose canonical form is taken either way: directly,
// or through encoding/json (escapes, fractions, exponents, big integers, repeated
// keys, U+2028, invalid UTF-8, invalid JSON).
var canonicalCases = []string{
	`{"command":"npx","args":["-y","@modelcontextprotocol/server-github"],"env":{"GITHUB_TOKEN":"${GITHUB_TOKEN}"}}`,
	` { "b" : 1 , "a" : [ true , false , null , -0 , 0 , 123456789012345 ] , "a!" : {} , "a b" : [] } `,
	`{"a":1,"a":2}`, `{"x":"\u00e9\n\"q\"","y":"<&>"}`, `{"n":1.50,"m":1e3,"k":-2.5E-7,"big":1234567890123456789}`,
	`{"s":"line\u2028sep"}`, "{\"s\":\"line\u2028sep\"}", "{\"s\":\"caf\xc3\xa9 \xff\"}", `{"s":"tab	in"}`,
	`{"unterminated":`, `[1,2,]`, `{"a":01}`, `{"a":-}`, `{"a":tru}`, `nul`, `"top"`, `42`, ``, `{} x`,
	`{"ü":1,"u":2,"U":3,"_":4," ":5,"":6}`, `{"nested":{"z":{"y":[{"b":1,"a":2}]},"a":"ä"}}`, "{\"del\":\"\x7f\"}",
}

// TestCanonicalMatchesEncodingJSON: Canonical gives encoding/json's round trip byte
// for byte (the digests of every ownership record on disk depend on it, C6).
//
// spec: C6
func TestCanonicalMatchesEncodingJSON(t *testing.T) {
	for _, c := range canonicalCases {
		if got, want := Canonical([]byte(c)), canonicalSlow([]byte(c)); !bytes.Equal(got, want) {
			t.Errorf("Canonical(%q) = %q, want %q", c, got, want)
		}
	}
}

// TestDigestPinned pins digests of entries as records on disk hold them: a change of
// the canonical form would make mcpwire disown every entry it wrote before (C6).
//
// spec: C6
func TestDigestPinned(t *testing.T) {
	for in, want := range map[string]string{
		`{"command":"npx","args":["-y","@modelcontextprotocol/server-github"],"env":{"GITHUB_TOKEN":"${GITHUB_TOKEN}"}}`:                "8018e6426ad14596754b46ee1abfc8f9281866b8648b31f965b853eeb4ff7d19",
		"{\n  \"type\": \"http\",\n  \"url\": \"https://example.com/mcp\",\n  \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"}\n}": "683311274ac04f1949eef0b6668173440f7989fe695e3882ee8326343347341c",
		`{"command":"srv","args":["--n","7"],"timeout":30000,"disabled":false}`:                                                         "d1db546e7db801ae48a9cdf937faa1c21a1ed5148ce0cd7f74b9d0ffb74f8bb2",
		`{"command":"caf\u00e9","n":1.5}`: "92558693dbc319138d4a3a9b125f214007ab889d48e7ea7b764eb64a49355442",
	} {
		if got := Digest([]byte(in)); got != want {
			t.Errorf("Digest(%q) = %s, want %s", in, got, want)
		}
	}
}

// FuzzCanonical checks Canonical against encoding/json's round trip on any input.
func FuzzCanonical(f *testing.F) {
	for _, c := range canonicalCases {
		f.Add([]byte(c))
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "files", "*", "*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := Canonical(in), canonicalSlow(in); !bytes.Equal(got, want) {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	})
}

// TestCanonicalAllocatesLittle: the canonical form of an entry is built in one buffer
// sized from the entry, its objects' members sorted without allocating (up to 16
// members) and their values moved through one reused scratch buffer: computing the
// digests of every entry of every client was a tenth of the bytes an injection into
// every client allocated.
func TestCanonicalAllocatesLittle(t *testing.T) {
	entry := []byte(`{"type": "stdio", "command": "srv", "args": ["--n", "1"], "env": {"B": "2", "A": "1"}, "headers": {"X": "y"}}`)
	n := testing.AllocsPerRun(50, func() { Canonical(entry) })
	if n > 4 {
		t.Errorf("Canonical of a small entry made %.0f allocations, want at most 4 (15 before)", n)
	}
}
