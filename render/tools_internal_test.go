package render

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/format"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// TestToolWarningNamesHeldKeys: a tools key the file holds with another value, which
// mcpwire did not write, is left as it is, in its place, and named by toolWarning; one
// holding the value mcpwire wants is moved after the existing keys, unnamed and not
// claimed; one mcpwire wrote and nobody changed is rewritten.
//
// spec: F3 C6
func TestToolWarningNamesHeldKeys(t *testing.T) {
	p, _ := providers.Get("opencode")
	path := "/p/opencode.json"
	rec := &ownRecord{Entries: map[string]string{toolEntry + "c_*": format.Digest([]byte("false"))}}
	e := &fileEdit{p: p, path: path, record: rec, tools: format.Object{{Key: "a_*", Value: false}, {Key: "b_*", Value: false}, {Key: "c_*", Value: true}}}
	src := "{\n  \"tools\": {\"a_*\": true, \"b_*\": false, \"c_*\": false, \"x\": true}\n}\n"
	out, err := e.apply(fsys.Snapshot{Exists: true, Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "{\n  \"tools\": {\"a_*\": true, \"x\": true, \"b_*\": false, \"c_*\": true}\n}\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	w := e.toolWarning()
	if !strings.Contains(w, "a_*") || strings.Contains(w, "b_*") || strings.Contains(w, "c_*") || !strings.Contains(w, path) {
		t.Errorf("warning %q, want one naming a_* and %s only", w, path)
	}
	for _, k := range []string{"a_*", "b_*"} {
		if _, ok := e.wrote[toolEntry+k]; ok {
			t.Errorf("the person's key %s was claimed", k)
		}
	}
	if _, ok := e.wrote[toolEntry+"c_*"]; !ok {
		t.Errorf("mcpwire's own key was not rewritten")
	}
}
