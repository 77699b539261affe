package providers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/format"
)

// TestToolKeysHeldByThePerson: a tools key the file holds with another value, which
// mcpwire did not write, contradicts the profile: the edit is refused naming it (and
// only it), with a hint to add --force; with --force it is taken over and claimed. One
// holding the value mcpwire wants is moved after the existing keys and not claimed;
// one mcpwire wrote and nobody changed is rewritten.
//
// spec: F3 C6
func TestToolKeysHeldByThePerson(t *testing.T) {
	p, _ := Get("opencode")
	path := "/p/opencode.json"
	fs := &FilterSet{Servers: map[string]*ServerFilters{"a": {DenyAll: true}, "b": {DenyAll: true}, "c": {Deny: []string{"t"}}}}
	src := "{\n  \"tools\": {\"a_*\": true, \"b_*\": false, \"c_t\": true, \"x\": true}\n}\n"
	edit := func(force bool) (format.Document, *FileState, error) {
		doc, err := format.Parse(p.Format, path, []byte(src), true)
		if err != nil {
			t.Fatal(err)
		}
		es, err := doc.Entries(format.Container{Path: []string{p.ServersKey}})
		if err != nil {
			t.Fatal(err)
		}
		st := &FileState{Path: path, Filters: fs, Wrote: map[string]string{}, Force: force,
			Record: map[string]string{opencodeToolsRec + "c_t": format.Digest([]byte("true"))}}
		return doc, st, p.Dialect().EditFile(doc, es, st)
	}
	_, _, err := edit(false)
	var held *heldToolsError
	if !errors.As(err, &held) || !slices.Equal(held.keys, []string{"a_*"}) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v, want a refusal naming a_* and %s", err, path)
	}
	if h := held.Hints(); len(h) != 1 || !strings.Contains(h[0], "--force") {
		t.Errorf("hints %q", h)
	}
	doc, st, err := edit(true)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := doc.Bytes()
	if got, want := string(out), "{\n  \"tools\": { \"x\": true, \"a_*\": false, \"b_*\": false, \"c_t\": false}\n}\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if _, ok := st.Wrote[opencodeToolsRec+"a_*"]; !ok {
		t.Errorf("the key taken over with --force was not claimed")
	}
	if _, ok := st.Wrote[opencodeToolsRec+"b_*"]; ok {
		t.Errorf("the person's key b_*, already right, was claimed")
	}
	if _, ok := st.Wrote[opencodeToolsRec+"c_t"]; !ok {
		t.Errorf("mcpwire's own key was not rewritten")
	}
}

// TestToolKeysOfOddNames: opencode names an MCP tool <server>_<tool> with every
// character outside [A-Za-z0-9_-] made "_" (opencode 1.18.33, checked in its binary:
// Q.replace(/[^a-zA-Z0-9_-]/g,"_") on both parts), so the keys mcpwire writes for a
// server named with a dot (L14) are spelled that way, globs kept; two servers opencode
// would name alike are refused naming both.
//
// spec: F3 L14
func TestToolKeysOfOddNames(t *testing.T) {
	fs := &FilterSet{Servers: map[string]*ServerFilters{
		"my.server": {Deny: []string{"get.x", "del*"}},
		"web@2":     {Allow: []string{"fetch"}},
	}}
	var keys []string
	for _, m := range tools(fs) {
		keys = append(keys, m.Key)
	}
	want := []string{"web_2_*", "my_server_get_x", "my_server_del*", "web_2_fetch"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
	p, _ := Get("opencode")
	err := p.Dialect().CheckNames([]string{"my.server", "fetch", "my_server"}, nil)
	if err == nil || !strings.Contains(err.Error(), `"my.server" and "my_server" (both my_server_)`) {
		t.Errorf("error %v, want the clash named", err)
	}
	if err := p.Dialect().CheckNames([]string{"my.server", "fetch"}, nil); err != nil {
		t.Error(err)
	}
}

// spec: L14 B7 — a selected name is checked against the servers already in the
// file: a clash with one of them is refused naming it as already there; two names
// already in the file that only clash with each other are not this edit's doing.
func TestCheckNamesPresent(t *testing.T) {
	p, _ := Get("claude-code")
	nc := p.Dialect()
	err := nc.CheckNames([]string{"my_server"}, []string{"my.server", "web"})
	if err == nil || err.Error() != `Claude Code cannot tell these servers apart in permission rules: "my_server" and "my.server" (already in the file) (both mcp__my_server)` {
		t.Errorf("error %v", err)
	}
	if err := nc.CheckNames([]string{"web"}, []string{"my.server", "my_server", "web"}); err != nil {
		t.Errorf("clash of entries already in the file refused: %v", err)
	}
	if err := nc.CheckNames([]string{"my_server"}, []string{"my_server"}); err != nil {
		t.Errorf("a name against itself refused: %v", err)
	}
}
