package jsonc

import "testing"

// spec: E1 — where a member is, without building the document (explain's lines).
func TestLocate(t *testing.T) {
	doc := []byte(`// a comment
{
  "a": {"b": [1, 2], "b": {"c": true}},
  "s": "text",
  "e": {}
}`)
	for _, c := range []struct {
		path             []string
		key, start, text string
		ok               bool
	}{
		{nil, "{", "{", "", true},
		{[]string{"a"}, `"a"`, `{"b"`, "", true},
		{[]string{"a", "b"}, `"b": {"c"`, `{"c": true}`, `{"c": true}`, true}, // the last of a name twice
		{[]string{"a", "b", "c"}, `"c"`, "true", "true", true},
		{[]string{"s"}, `"s"`, `"text"`, `"text"`, true},
		{[]string{"s", "x"}, "", "", "", false}, // through a string
		{[]string{"e", "x"}, "", "", "", false},
		{[]string{"nope"}, "", "", "", false},
	} {
		key, start, end, ok := Locate(doc, c.path...)
		if ok != c.ok {
			t.Errorf("Locate(%v): ok %v, want %v", c.path, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if got := string(doc[key : key+len(c.key)]); got != c.key {
			t.Errorf("Locate(%v): key at %q, want %q", c.path, got, c.key)
		}
		if got := string(doc[start : start+len(c.start)]); got != c.start {
			t.Errorf("Locate(%v): value at %q, want %q", c.path, got, c.start)
		}
		if c.text != "" && string(doc[start:end]) != c.text {
			t.Errorf("Locate(%v): value %q, want %q", c.path, doc[start:end], c.text)
		}
	}
	if _, _, _, ok := Locate([]byte(`{"a": `), "a"); ok {
		t.Error("Locate of a truncated document: ok")
	}
}
