package jsonc

import "testing"

// TestSetText: a member's value taken with Text and put back with SetText comes back
// byte for byte, comments inside it included; a missing member or a text that is not
// one JSONC value is refused and changes nothing.
//
// spec: H1 W1
func TestSetText(t *testing.T) {
	src := "{\n  \"a\": {\n    // x\n    \"b\": { \"c\": 1, /* keep */ \"d\": [2] },\n    \"e\": 3\n  }\n}\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := d.Lookup("a", "b")
	text := v.Text()
	if string(text) != `{ "c": 1, /* keep */ "d": [2] }` {
		t.Fatalf("Text = %q", text)
	}
	if err := d.Set([]string{"a", "b"}, []byte(`{"c":9}`)); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		path []string
		text string
	}{{[]string{"a", "zz"}, `1`}, {[]string{"a", "b"}, `{"c": }`}, {[]string{"a", "b"}, `1 2`}, {[]string{"a", "e", "f"}, `1`}} {
		if err := d.SetText(bad.path, []byte(bad.text)); err == nil {
			t.Errorf("SetText(%q, %q): no error", bad.path, bad.text)
		}
	}
	if err := d.SetText([]string{"a", "b"}, text); err != nil {
		t.Fatal(err)
	}
	if got := string(d.Bytes()); got != src {
		t.Errorf("after SetText:\n%s\nwant:\n%s", got, src)
	}
}
