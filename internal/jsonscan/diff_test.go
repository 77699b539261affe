package jsonscan

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/render/jsonc"
)

// FuzzAgainstDecode is the differential test of Scan against jsonc.Decode,
// which replaces it: the same inputs are valid (except line comments with
// U+2028 or U+2029, which Scan accepts and jsonc, like hujson, refuses),
// empty inputs are empty for both, and the standard JSON, the recorded
// members and what the value helpers read from them are identical.
func FuzzAgainstDecode(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"servers": {"a": {"command": "x", "args": ["-y", "p"], "env": {"K": "v\u00e9"}}, "b": {}, "c": null}, "kind": "k",}`))
	f.Fuzz(func(t *testing.T, data []byte) { differ(t, data) })
}

func TestAgainstDecode(t *testing.T) {
	for _, s := range seeds {
		differ(t, []byte(s))
	}
}

func differ(t *testing.T, data []byte) {
	t.Helper()
	old, oerr := Scan(bytes.Clone(data))
	d, nerr := jsonc.Decode(bytes.Clone(data))
	if oerr == nil && nerr != nil && strings.Contains(nerr.Error(), "in line comment") {
		return
	}
	if (oerr == nil) != (nerr == nil) {
		t.Fatalf("%q: jsonscan %v, jsonc %v", data, oerr, nerr)
	}
	if oerr != nil {
		if (oerr == ErrEmpty) != errors.Is(nerr, jsonc.ErrEmpty) {
			t.Fatalf("%q: jsonscan %v, jsonc %v", data, oerr, nerr)
		}
		return
	}
	if !bytes.Equal(old.Root, d.Root) {
		t.Fatalf("%q: root %q, jsonc %q", data, old.Root, d.Root)
	}
	sameValue(t, old.Root, d.Root)
	sameMembers(t, old.Members, d.Members)
}

func sameMembers(t *testing.T, old []Member, ms []jsonc.RawMember) {
	t.Helper()
	if (old == nil) != (ms == nil) || len(old) != len(ms) {
		t.Fatalf("members %d (nil %v), jsonc %d (nil %v)", len(old), old == nil, len(ms), ms == nil)
	}
	for k, m := range ms {
		if name, _ := String(old[k].Name); name != m.Name || !bytes.Equal(old[k].Value, m.Value) {
			t.Fatalf("member %d: %q = %q, jsonc %q = %q", k, name, old[k].Value, m.Name, m.Value)
		}
		sameValue(t, old[k].Value, m.Value)
		sameMembers(t, old[k].Members, m.Members)
	}
}

// sameValue compares what the helpers of both read from v, down the tree.
func sameValue(t *testing.T, v []byte, r jsonc.Raw) {
	t.Helper()
	if KindName(v) != r.Kind().Noun() || IsNull(v) != r.IsNull() {
		t.Fatalf("%q: kind %s, jsonc %s", v, KindName(v), r.Kind().Noun())
	}
	s, ok := String(v)
	if s2, ok2 := r.Text(); s != s2 || ok != ok2 {
		t.Fatalf("%q: string %q %v, jsonc %q %v", v, s, ok, s2, ok2)
	}
	type pair struct{ name, value string }
	var a, b []pair
	okA := Members(v, func(n, e []byte) bool { s, _ := String(n); a = append(a, pair{s, string(e)}); return true })
	okB := r.Members(func(n string, e jsonc.Raw) bool { b = append(b, pair{n, string(e)}); return true })
	okA2 := Elements(v, func(e []byte) bool { a = append(a, pair{"", string(e)}); return true })
	okB2 := r.Elements(func(e jsonc.Raw) bool { b = append(b, pair{"", string(e)}); return true })
	if okA != okB || okA2 != okB2 || len(a) != len(b) {
		t.Fatalf("%q: walk %v, jsonc %v", v, a, b)
	}
	for k := range a {
		if a[k] != b[k] {
			t.Fatalf("%q: walk %v, jsonc %v", v, a, b)
		}
		sameValue(t, []byte(a[k].value), jsonc.Raw(b[k].value))
	}
}
