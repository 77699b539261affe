package tomledit

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// vibeSeed is a Mistral Vibe-like config: servers as an array of tables named by "name".
const vibeSeed = `# ~/.vibe/config.toml
active_model = "devstral"

# filesystem access
[[mcp_servers]]
name = "fs"
transport = "stdio"
command = "fs-mcp"

[mcp_servers.env]
ROOT = "/home/u"

[[mcp_servers]]
name = "web"
transport = "http"
url = "https://mcp.example.com"
# the team's proxy

[tools.bash]
permission = "ask"
`

func item(name, cmd string) []byte {
	return Item(key, []KV{{"name", name}, {"transport", "stdio"}, {"command", cmd}}, "\n")
}

// spec: V9 W1 (TOML arrays of tables keyed by a name member)
func TestItems(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  []Op
		want string
	}{
		{"replace in place, sub-table and all", []Op{{Key: key, Item: "name", Name: "fs", Block: item("fs", "fs2")}},
			strings.Replace(vibeSeed, "name = \"fs\"\ntransport = \"stdio\"\ncommand = \"fs-mcp\"\n\n[mcp_servers.env]\nROOT = \"/home/u\"\n", "name = \"fs\"\ntransport = \"stdio\"\ncommand = \"fs2\"\n", 1)},
		{"append a new entry at the end", []Op{{Key: key, Item: "name", Name: "new", Block: item("new", "n")}},
			vibeSeed + "\n[[mcp_servers]]\nname = \"new\"\ntransport = \"stdio\"\ncommand = \"n\"\n"},
		{"remove keeps the comment after the body", []Op{{Key: key, Item: "name", Name: "web"}},
			strings.Replace(vibeSeed, "[[mcp_servers]]\nname = \"web\"\ntransport = \"http\"\nurl = \"https://mcp.example.com\"\n", "", 1)},
		{"remove the first, replace the second", []Op{{Key: key, Item: "name", Name: "fs"}, {Key: key, Item: "name", Name: "web", Block: item("web", "w")}},
			"# ~/.vibe/config.toml\nactive_model = \"devstral\"\n\n# filesystem access\n\n[[mcp_servers]]\nname = \"web\"\ntransport = \"stdio\"\ncommand = \"w\"\n# the team's proxy\n\n[tools.bash]\npermission = \"ask\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseFramed([]byte(vibeSeed))
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Apply(tc.ops); err != nil {
				t.Fatal(err)
			}
			if got := string(d.Bytes()); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestItemReads(t *testing.T) {
	d, err := parseFramed([]byte(vibeSeed))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.CheckItems(key, "name"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.ItemNames(key, "name"), ","); got != "fs,web" {
		t.Errorf("names %s", got)
	}
	m, ok := d.GetItem(key, "name", "fs")
	if !ok || m["command"] != "fs-mcp" || m["env"].(map[string]any)["ROOT"] != "/home/u" {
		t.Errorf("GetItem fs = %v, %v", m, ok)
	}
	text, ok := d.ItemText(key, "name", "fs")
	if want := "[[mcp_servers]]\nname = \"fs\"\ntransport = \"stdio\"\ncommand = \"fs-mcp\"\n[mcp_servers.env]\nROOT = \"/home/u\"\n"; !ok || text != want {
		t.Errorf("ItemText fs = %q, want %q", text, want)
	}
	if ok, err := d.RemoveItem(key, "name", "absent"); ok || err != nil {
		t.Errorf("RemoveItem(absent) = %v, %v", ok, err)
	}
	if ok, err := d.RemoveItem(key, "name", "fs"); !ok || err != nil {
		t.Errorf("RemoveItem(fs) = %v, %v", ok, err)
	}
	if got := strings.Join(d.ItemNames(key, "name"), ","); got != "web" {
		t.Errorf("names after removal %s", got)
	}
}

func TestItemsRefused(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"mcp_servers = 3\n", "must be an array of tables"},
		{"[mcp_servers.a]\ncommand = \"x\"\n", "must be an array of tables"},
		{"mcp_servers = [{ name = \"a\" }]\n", "must be written as [[mcp_servers]] tables"},
		{"[[mcp_servers]]\ncommand = \"x\"\n", "has no string name"},
		{"[[mcp_servers]]\nname = \"a\"\n[[mcp_servers]]\nname = \"a\"\n", "two entries named \"a\""},
	} {
		d, err := parseFramed([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		err = d.ReplaceItem(key, "name", "b", item("b", "x"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
		if !bytes.Equal(d.Bytes(), []byte(tc.src)) {
			t.Errorf("%q: a refused edit changed the document", tc.src)
		}
	}
	d, _ := parseFramed([]byte(vibeSeed))
	for _, bad := range [][]byte{item("other", "x"), Table(key, "fs", []KV{{"command", "x"}}, "\n"), []byte("# note\n" + string(item("fs", "x")))} {
		if err := d.ReplaceItem(key, "name", "fs", bad); err == nil {
			t.Errorf("block %q accepted", bad)
		}
	}
}

// FuzzItems: replacing or removing an entry keeps every statement that is not the entry's own
// (comments around it included), and the data is the original with only that entry changed (which
// Apply checks itself before it commits).
func FuzzItems(f *testing.F) {
	f.Add(vibeSeed, "fs", "x", true)
	f.Add(vibeSeed, "web", "", false)
	f.Add(vibeSeed, "new", "y", true)
	f.Add(crlf(vibeSeed), "fs", "z", true)
	f.Fuzz(func(t *testing.T, src, name, cmd string, replace bool) {
		d, err := parseFramed([]byte(src))
		if err != nil || d.CheckItems(key, "name") != nil || !utf8.ValidString(name) {
			return // a name TOML cannot hold is refused, rightly
		}
		orig := d.Bytes()
		owned := map[int]bool{}
		if i, ok := d.itemsOf(key, "name").pos[name]; ok {
			owned = d.ownedMarks(d.itemsOf(key, "name").stmts[i], name)
		}
		if replace {
			err = d.ReplaceItem(key, "name", name, Item(key, []KV{{"name", name}, {"command", cmd}}, d.Newline()))
		} else {
			_, err = d.RemoveItem(key, "name", name)
		}
		if err != nil {
			t.Fatalf("%v\ndocument:\n%q", err, orig)
		}
		checkPreserved(t, orig, d.Bytes(), func(i int, st *stmt) bool {
			return st.kind != kindBlank && !owned[i]
		})
	})
}

// TestEntry: the entry of a decoded document by name, as a sub-table or as the element
// of an array of tables keyed by item (the last of a repeated name, as GetItem); nil,
// not a panic, when the key is missing or of another kind.
//
// spec: V9
func TestEntry(t *testing.T) {
	data, err := Decode([]byte("[mcp_servers.a]\ncommand = \"x\"\n\n[[items]]\nname = \"b\"\ncommand = \"1\"\n\n[[items]]\nname = \"b\"\ncommand = \"2\"\n\nflat = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key, item, name, want string
	}{
		{"mcp_servers", "", "a", "x"},
		{"mcp_servers", "", "b", ""},
		{"items", "name", "b", "2"},
		{"items", "name", "a", ""},
		{"missing", "", "a", ""},
		{"missing", "name", "a", ""},
		{"flat", "", "a", ""},
		{"flat", "name", "a", ""},
	} {
		got := Entry(data, c.key, c.item, c.name)
		if cmd, _ := got["command"].(string); cmd != c.want || (got == nil) != (c.want == "") {
			t.Errorf("Entry(%s, %q, %s) = %v, want command %q", c.key, c.item, c.name, got, c.want)
		}
	}
}
