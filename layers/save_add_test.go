package layers

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// spec: W8 K7
// TestSaveAdd: the entries of a Delta.Add are written among those of Set in the order
// of their names, each only where it is still absent under the lock; entries out of
// order or named twice are refused, and nothing is written.
func TestSaveAdd(t *testing.T) {
	entry := func(name string) Entry {
		return Entry{Name: name, Value: json.RawMessage(`{"name":"` + name + `","command":"x"}`)}
	}
	set := map[string]json.RawMessage{"c": json.RawMessage(`{"name":"c","command":"x"}`)}
	tests := []struct {
		name string
		add  []Entry
		want string // the servers in the file, in order; or the error
	}{
		{"added among those set", []Entry{entry("a"), entry("b"), entry("d")}, "old a b c d"},
		{"out of order", []Entry{entry("b"), entry("a")}, `server "a": added out of order or twice`},
		{"twice", []Entry{entry("a"), entry("a")}, `server "a": added out of order or twice`},
		{"one there already", []Entry{entry("a"), entry("old")}, `server "old" was added to `}, // by another process, as far as this one knows
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			const src = `{"servers": {"old": {"command": "o"}}}`
			fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": src})
			s, err := Load(fsys.NewOS(), cfgOf(root, "me"))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Save(Delta{Kind: Servers, Set: set, Add: tt.add})
			b, _ := os.ReadFile(filepath.Join(root, "me/mcp-servers.json"))
			if strings.Contains(tt.want, `"`) {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want %q", err, tt.want)
				}
				if tt.name == "one there already" && !errors.Is(err, ErrConflict) {
					t.Errorf("%v is not a conflict", err)
				}
				if string(b) != src {
					t.Errorf("file written:\n%s", b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			at := -1
			for _, name := range strings.Fields(tt.want) {
				i := strings.Index(string(b), `"`+name+`": {`)
				if i <= at {
					t.Errorf("server %q not after the one before it in\n%s", name, b)
				}
				at = i
			}
			if len(s.Write().Servers.Entries) != 5 {
				t.Errorf("entries in memory: %v", s.Write().Servers.Entries)
			}
		})
	}
}
