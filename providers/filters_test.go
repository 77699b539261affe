package providers

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// TestCarryReplacesDefaults: under KeepFilters, a rewritten entry keeps the filter
// members of the entry in the file; a member the new entry holds only as its default
// (an allowlist's "all tools") is replaced by the one in the file, so an allow-only
// client keeps its allowlist on inject --all; a member the new entry sets itself stays.
//
// spec: F3 F4
func TestCarryReplacesDefaults(t *testing.T) {
	spec := FilterSpec{Allow: true, Members: []string{"tools", "other"}, Defaults: map[string]any{"tools": []string{"*"}}}
	doc, err := format.Parse(format.JSON, "/f", []byte(`{"s": {"command": "x", "tools": ["a", "b"], "other": [1]}}`), true)
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

// TestAllowOnlyDenyWarning: Copilot CLI and Goose filter tools by an allowlist: a
// toolDeny is not applied, and the warning says that (not that the client has no tool
// filter) and where the client keeps its denials; Goose switches a whole server off
// with enabled: false, so SERVER__* is applied there and left out of the warning. A
// client without any filter keeps its wording.
//
// spec: F3 F4
func TestAllowOnlyDenyWarning(t *testing.T) {
	fs := func() *FilterSet {
		return &FilterSet{Servers: map[string]*ServerFilters{"a": {DenyAll: true}, "b": {Deny: []string{"drop"}}}}
	}
	for name, want := range map[string]string{
		"copilot-cli": "GitHub Copilot CLI has a tool allowlist but no denylist in its config; toolDeny not applied: a__*, b__drop (it denies tools with --deny-tool or --excluded-tools on its command line, which mcpwire does not write)",
		"goose":       "Goose has a tool allowlist but no denylist in its config; toolDeny not applied: b__drop (it denies tools with never_allow in its permission.yaml, which mcpwire does not write)",
		"cursor":      "Cursor documents no per-tool filter; toolDeny not applied: a__*, b__drop",
	} {
		p, _ := Get(name)
		f := fs()
		p.Dialect().Filters().Warnings(p.Display, f, []string{"a", "b"})
		if len(f.Warnings) != 1 || f.Warnings[0] != want {
			t.Errorf("%s: %q\nwant %q", name, f.Warnings, want)
		}
	}
	p, _ := Get("goose")
	d := p.Dialect()
	s := &registry.Server{Name: "a", Type: registry.Stdio, Command: "a-mcp"}
	v, _ := Spell(Target{P: p, Scope: User}, d, s)
	if on, _ := d.Entry(s, &v, fs().Of("a")).Get("enabled"); on != false {
		t.Errorf("goose a__*: enabled %v, want false", on)
	}
	if on, _ := d.Entry(s, &v, fs().Of("b")).Get("enabled"); on != true {
		t.Errorf("goose b__drop: enabled %v, want true", on)
	}
}
