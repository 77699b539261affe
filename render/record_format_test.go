package render_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestRecordOfEarlierFormatKept: a first injection writes the ownership record with
// the members of its staged record (render.EncodeStaged: the staged record renamed
// into place, issue 31); a record an earlier mcpwire wrote without them, holding the
// same, is left as it is by an injection that changes nothing — not rewritten into
// the new form.
//
// spec: W6
func TestRecordOfEarlierFormatKept(t *testing.T) {
	w := newWorld(t)
	p := w.provider("cursor")
	if _, err := write.Inject(fsys.NewOS(), w.request("cursor", "", "dev")); err != nil {
		t.Fatal(err)
	}
	path, _, err := render.RecordPath(w.layer, render.OwnershipDir, w.dest(p, ""))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"before": {}`) || !strings.Contains(string(data), `"entries": {`) {
		t.Fatalf("the first record is not its own staged record too:\n%s", data)
	}
	if _, err := os.Lstat(path + render.StagedSuffix); err == nil {
		t.Errorf("%s left", path+render.StagedSuffix)
	}
	var rec render.OwnRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	earlier := rec.Encode()
	if err := os.WriteFile(path, earlier, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := write.Inject(fsys.NewOS(), w.request("cursor", "", "dev"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) > 0 {
		t.Errorf("changed %v, want nothing", res.Changed)
	}
	if got, _ := os.ReadFile(path); string(got) != string(earlier) {
		t.Errorf("the record was rewritten:\n%s", got)
	}
}
