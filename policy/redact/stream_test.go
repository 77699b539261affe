package redact

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/policy"
)

// jsonReader reads internal/jsonc values for policy.Walk, in place: the walk of a JSON
// file's values the stream (stream.go) is checked against.
type jsonReader struct{}

func (jsonReader) Kind(v jsonc.Value) policy.Kind {
	switch v.Kind() {
	case jsonc.String:
		return policy.KindString
	case jsonc.Array:
		return policy.KindList
	case jsonc.Object:
		return policy.KindMap
	}
	return policy.KindOther
}

func (jsonReader) Children(v jsonc.Value, fn func(string, jsonc.Value)) {
	if v.Kind() == jsonc.Array {
		for e := range v.Elements() {
			fn("", e)
		}
		return
	}
	for name, e := range v.Members() {
		fn(name, e)
	}
}

func (jsonReader) Text(v jsonc.Value) string { return v.String() }

// byValues is what a Redactor learns from a JSON document by walking its values.
func byValues(servers []string, docs ...[]byte) (*Redactor, bool) {
	r := New(servers...)
	for _, data := range docs {
		doc, err := jsonc.Parse(withoutBOM(data))
		if err != nil {
			return nil, false
		}
		learn[jsonc.Value](r, jsonReader{}, doc.Root(), false, false)
	}
	return r, true
}

// sameLearning reports how two redactors' knowledge differs, "" when it does not.
func sameLearning(got, want *Redactor) string {
	switch {
	case !maps.Equal(got.exact, want.exact):
		return "exact: " + diffKeys(got.exact, want.exact)
	case !maps.Equal(got.anywhere, want.anywhere):
		return "anywhere: " + diffKeys(got.anywhere, want.anywhere)
	}
	return ""
}

func diffKeys[V comparable](got, want map[string]V) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok || g != want[k] {
			b.WriteString(" missing or other " + k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			b.WriteString(" extra " + k)
		}
	}
	return b.String()
}

var streamSeeds = []string{
	`{"mcpServers": {"a": {"command": "npx mcp-remote https://u:PW1@h/sse", "args": ["--token", "T2", "-e", "K=V3", ["--api-key", "N4"], {"secret": "S5"}], "env": {"A": "v6", "type": "t7", "L": ["l8", {"x": "y9"}]}}}}`,
	`{"projects": {"/p": {"mcpServers": {"token": {"command": "run", "args": ["--token", "x"]}, "auth": {"headers": {"Authorization": "Bearer Z"}}}}}, "primaryApiKey": "sk-ant-abc", "oauthAccount": {"accessToken": "at"}}`,
	"// c\n{\"a\": [1, \"s\", true, null, {\"cmd\": \"x --password p\"}], \"b\": {\"c\": {}}, /* d */ \"e\": [],}",
	`{"args": ["a", "b"], "command": ["c", "--key", "k"], "cmd": 5, "env": "e", "x\u0074oken": "esc", "k": "\u0073ecret"}`,
	`["top", {"env": {"A": "B"}}]`, `"scalar"`, `{"env": {"mcpServers": {"n": "v"}}, "mcpServers": {"env": "w"}}`,
}

// FuzzStreamLearnsAsValues: the stream learns from a JSON document what the walk of
// its values learns, credential by credential, in the same order (K7).
func FuzzStreamLearnsAsValues(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, ok := byValues([]string{"mcpServers"}, b)
		got := New("mcpServers")
		if newStream(got, withoutBOM(b)).walk() != ok {
			t.Fatalf("%q: the stream reads it: %v; Parse: %v", b, !ok, ok)
		}
		if !ok {
			if len(got.exact)+len(got.anywhere) > 0 {
				t.Fatalf("%q: not JSON, yet learnt from", b)
			}
			return
		}
		if d := sameLearning(got, want); d != "" {
			t.Fatalf("%q: %s", b, d)
		}
	})
}

// FuzzChangeLearnsEveryVersion: learning a change of a JSON document learns every
// credential of both versions (what walking both whole learns), reading of the new
// version only what holds its difference.
func FuzzChangeLearnsEveryVersion(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s), 0, []byte(`"x"`))
		f.Add([]byte(s), len(s)/2, []byte(`, "env": {"NEW": "new-secret"}`))
		f.Add([]byte(s), len(s)-1, []byte(`, "tok": ["--token", "t"]`))
	}
	f.Fuzz(func(t *testing.T, old []byte, at int, insert []byte) {
		if at < 0 || at > len(old) {
			return
		}
		new := append(append(append([]byte{}, old[:at]...), insert...), old[at:]...)
		want, ok := byValues([]string{"mcpServers"}, old, new)
		if !ok {
			return
		}
		got := New("mcpServers")
		got.Change("/x.json", old, new)
		if d := sameLearning(got, want); d != "" {
			t.Fatalf("%q -> %q: %s", old, new, d)
		}
		// the new version in pieces, as a dry run's write of a large file gives it:
		// the old version's bytes around the insertion, not copied (issue 31)
		pieces := New("mcpServers")
		pieces.ChangeContent("/x.json", old, fsys.PiecesOf([][]byte{old[:at], insert, old[at:]}))
		if d := sameLearning(pieces, want); d != "" {
			t.Fatalf("%q -> %q in pieces: %s", old, new, d)
		}
	})
}

// The new version of a small change is read only around it (K7: a minified 52 MB
// ~/.claude.json with one server added is read once, not twice).
func TestChangeReadsTheChangedValue(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"projects": {`)
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"/p` + strings.Repeat("x", i%7) + `": {"history": ["a", "b"], "mcpServers": {}}`)
	}
	b.WriteString(`}, "mcpServers": {"personal": {"command": "notes", "env": {"K": "OLDSECRET"}}}}`)
	old := b.String()
	new := strings.Replace(old, `"personal":`, `"added": {"command": "x", "env": {"T": "NEWSECRET"}}, "personal":`, 1)
	r := New("mcpServers")
	read, ok := r.change("/h/.claude.json", []byte(old), fsys.ContentOf([]byte(new)))
	if want := strings.Index(new, `{"added"`); !ok || read[0] != want || read[1]-read[0] > 120 {
		t.Errorf("read %v of the new version (%v), want the servers object at %d", read, ok, want)
	}
	for _, v := range []string{"OLDSECRET", "NEWSECRET"} {
		if r.exact[v] != policy.Redacted {
			t.Errorf("%s not learnt", v)
		}
	}
	// a change that reaches beyond the innermost value (a member added after it too):
	// the next value out, once
	grown := strings.Replace(new, `}}}}`, `}}}, "apiKey": "TOPSECRET"}`, 1)
	r = New("mcpServers")
	if read, ok := r.change("/h/.claude.json", []byte(old), fsys.ContentOf([]byte(grown))); !ok || read != [2]int{0, len(grown)} {
		t.Errorf("read %v of the new version (%v), want the root [0 %d]", read, ok, len(grown))
	}
	if r.exact["TOPSECRET"] != policy.Redacted || r.exact["NEWSECRET"] != policy.Redacted {
		t.Errorf("not learnt: %v", r.exact)
	}
}
