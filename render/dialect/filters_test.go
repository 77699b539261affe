package dialect

import (
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/format"
)

// TestCarryReplacesDefaults: under KeepFilters, a rewritten entry keeps the filter
// members of the entry in the file; a member the new entry holds only as its default
// (an allowlist's "all tools") is replaced by the one in the file, so an allow-only
// client keeps its allowlist on inject --all; a member the new entry sets itself stays.
//
// spec: F3 F4
func TestCarryReplacesDefaults(t *testing.T) {
	spec := FilterSpec{Allow: true, Members: []string{"tools", "other"}, Defaults: map[string]any{"tools": []string{"*"}}}
	doc, err := format.Parse(providers.JSON, "/f", []byte(`{"s": {"command": "x", "tools": ["a", "b"], "other": [1]}}`), true)
	if err != nil {
		t.Fatal(err)
	}
	existing, _ := doc.Lookup("s")
	for _, tc := range []struct {
		entry format.Object
		want  string
	}{
		{format.Object{{Key: "command", Value: "y"}, {Key: "tools", Value: []string{"*"}}}, `{"command":"y","tools":["a","b"],"other":[1]}`},
		{format.Object{{Key: "command", Value: "y"}, {Key: "tools", Value: []string{"c"}}}, `{"command":"y","tools":["c"],"other":[1]}`},
	} {
		got, _ := format.Marshal(spec.Carry(tc.entry, existing))
		if string(got) != tc.want {
			t.Errorf("carry = %s, want %s", got, tc.want)
		}
	}
}
