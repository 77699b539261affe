package dialect

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/format"
)

// TestToolWarningNamesHeldKeys: a tools key the file holds with another value, which
// mcpwire did not write, is left as it is, in its place, and named by a warning; one
// holding the value mcpwire wants is moved after the existing keys, unnamed and not
// claimed; one mcpwire wrote and nobody changed is rewritten.
//
// spec: F3 C6
func TestToolWarningNamesHeldKeys(t *testing.T) {
	p, _ := providers.Get("opencode")
	path := "/p/opencode.json"
	fs := &FilterSet{Servers: map[string]*ServerFilters{"a": {DenyAll: true}, "b": {DenyAll: true}, "c": {Deny: []string{"t"}}}}
	src := "{\n  \"tools\": {\"a_*\": true, \"b_*\": false, \"c_t\": true, \"x\": true}\n}\n"
	doc, err := format.Parse(p.Format, path, []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	es, err := doc.Entries(format.Container{Path: []string{p.ServersKey}})
	if err != nil {
		t.Fatal(err)
	}
	st := &FileState{Path: path, Filters: fs, Wrote: map[string]string{},
		Record: map[string]string{opencodeToolsRec + "c_t": format.Digest([]byte("true"))}}
	if err := For(p).(FileEditor).EditFile(doc, es, st); err != nil {
		t.Fatal(err)
	}
	out, _ := doc.Bytes()
	if got, want := string(out), "{\n  \"tools\": {\"a_*\": true, \"x\": true, \"b_*\": false, \"c_t\": false}\n}\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if len(st.Warnings) != 1 {
		t.Fatalf("warnings %q, want one", st.Warnings)
	}
	if w := st.Warnings[0]; !strings.Contains(w, "a_*") || strings.Contains(w, "b_*") || strings.Contains(w, "c_t") || !strings.Contains(w, path) {
		t.Errorf("warning %q, want one naming a_* and %s only", w, path)
	}
	for _, k := range []string{"a_*", "b_*"} {
		if _, ok := st.Wrote[opencodeToolsRec+k]; ok {
			t.Errorf("the person's key %s was claimed", k)
		}
	}
	if _, ok := st.Wrote[opencodeToolsRec+"c_t"]; !ok {
		t.Errorf("mcpwire's own key was not rewritten")
	}
}
