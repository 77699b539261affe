package layers

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// applyBytes is the memory the edit of a registry file of have servers takes to add
// add more, each checked absent as it was read (Expect), as an import does.
func applyBytes(t *testing.T, have, add int) uint64 {
	var b strings.Builder
	b.WriteString("{\n  \"servers\": {")
	for i := range have {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    \"h%d\": {\"name\": \"h%d\", \"command\": \"x\", \"args\": [\"-y\", \"p\"]}", i, i)
	}
	b.WriteString("\n  }\n}\n")
	d := Delta{Kind: Servers, Set: map[string]json.RawMessage{}, Expect: map[string]json.RawMessage{}}
	for i := range add {
		n := fmt.Sprintf("n%d", i)
		d.Set[n] = json.RawMessage(`{"name":"` + n + `","command":"x","args":["-y","p"]}`)
		d.Expect[n] = nil
	}
	cur := fsys.Snapshot{Data: []byte(b.String()), Exists: true}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, err := d.apply("mcp-servers.json", cur)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(out), `"command"`); got != have+add {
		t.Fatalf("%d servers written, want %d", got, have+add)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// spec: K7
// TestSaveIsLinear: adding servers to a registry file that holds many costs the same
// per server added whatever the file holds: each new name is checked absent, and set,
// through the file's servers object built once, not by scanning its text per name
// (an import of 200,000 servers into a registry of 200,000).
func TestSaveIsLinear(t *testing.T) {
	const have = 20000
	few, many := applyBytes(t, have, 500), applyBytes(t, have, 4000)
	perServer := float64(many-few) / 3500
	t.Logf("a file of %d servers: %d bytes adding 500, %d adding 4,000: %.0f bytes per server added", have, few, many, perServer)
	if perServer > 4096 {
		t.Errorf("%.0f bytes per server added to a file of %d, at most 4,096: the edit looks at the whole file per server", perServer, have)
	}
}
