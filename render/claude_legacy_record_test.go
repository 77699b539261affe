package render_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
)

// TestClaudeDenyRecordWithoutDigest: a deny record with no denyDigest (written by an
// older mcpwire, say) cannot tell whether permissions.deny changed since, so the rules
// it tracks that the profile no longer wants are kept in the settings file, not
// removed: marked preserved in the record, and named, with the settings path, by one
// WARNING. The record gets a digest again.
//
// spec: C3 C4
func TestClaudeDenyRecordWithoutDigest(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("claude-code")
	settings := w.settingsDest(p, providers.Project)
	inject(t, w, "", "a", false)
	aRules := []string{"mcp__fetch", "mcp__notes__purge"}
	if got := denyOf(t, settings); !slices.Equal(got, aRules) {
		t.Fatalf("deny after a: %q, want %q", got, aRules)
	}

	// the record as an older mcpwire wrote it: no denyDigest
	recs := recordFiles(t, w.layer, permissionsDir)
	if len(recs) != 1 {
		t.Fatalf("%d deny records, want 1", len(recs))
	}
	var rec map[string]any
	if err := json.Unmarshal(read(t, recs[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec["denyDigest"]; !ok {
		t.Fatalf("record %s has no denyDigest to remove: %v", recs[0], rec)
	}
	delete(rec, "denyDigest")
	legacy, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(recs[0], legacy, 0o600); err != nil {
		t.Fatal(err)
	}

	w.warns = nil
	inject(t, w, "", "b", false) // wants neither of a's rules
	if got, want := denyOf(t, settings), append(slices.Clone(aRules), "mcp__github__delete_file"); !slices.Equal(got, want) {
		t.Errorf("deny after b: %q, want %q (a's rules kept)", got, want)
	}
	ws := denyWarnings(w.warns)
	if len(ws) != 1 {
		t.Fatalf("deny warnings %q, want one", ws)
	}
	for _, s := range append(slices.Clone(aRules), settings) {
		if !strings.Contains(ws[0], s) {
			t.Errorf("warning %q does not name %s", ws[0], s)
		}
	}
	if strings.Contains(ws[0], "mcp__github__delete_file") {
		t.Errorf("warning %q names b's own rule", ws[0])
	}
	added, preserved := permRecordOf(t, w)
	slices.Sort(preserved)
	if want := []string{"mcp__fetch", "mcp__notes__purge"}; !slices.Equal(preserved, want) {
		t.Errorf("denyPreserved = %q, want %q", preserved, want)
	}
	if want := []string{"mcp__github__delete_file"}; !slices.Equal(added, want) {
		t.Errorf("denyAdded = %q, want %q", added, want)
	}
	var after struct {
		DenyDigest string `json:"denyDigest"`
	}
	if err := json.Unmarshal(read(t, recs[0]), &after); err != nil || len(after.DenyDigest) != 64 {
		t.Errorf("record after b has denyDigest %q (%v), want a sha256", after.DenyDigest, err)
	}
}
