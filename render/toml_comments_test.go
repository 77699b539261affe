package render_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestTOMLCommentsAroundOwnedTables: the person puts a banner directly above a table
// mcpwire wrote in ~/.codex/config.toml and a comment block after it (after a blank
// line). Rewriting that server (its filters change) and then uninjecting it keep both:
// a table owns only its header and its body down to its last key/value line.
//
// spec: W1 C6
func TestTOMLCommentsAroundOwnedTables(t *testing.T) {
	w := newWorld(t)
	p := w.provider("codex")
	path := w.dest(p, providers.User)
	w.place(path, fixtures.File("codex/user.dev.config.toml"))
	res, err := write.Inject(fsys.NewOS(), w.request("codex", "", "dev"))
	if err != nil {
		t.Fatal(err)
	}
	const banner = "# ---- model settings: DO NOT REMOVE ----\n"
	const trailing = "# trailing block after tickets\n# second line\n\n"
	got := string(read(t, path))
	table := "[mcp_servers.tickets]\n"
	last := "disabled_tools = [\"delete_ticket\"]\n\n"
	if !strings.Contains(got, table) || !strings.Contains(got, last) {
		t.Fatalf("unexpected layout:\n%s", got)
	}
	got = strings.Replace(got, table, banner+table, 1)
	got = strings.Replace(got, last, last+trailing, 1)
	if err := os.WriteFile(path, []byte(got), 0o600); err != nil {
		t.Fatal(err)
	}

	// the same servers without the profile's filters: tickets is rewritten
	if _, err := write.Inject(fsys.NewOS(), w.request("codex", "", "", res.Written...)); err != nil {
		t.Fatal(err)
	}
	after := string(read(t, path))
	if strings.Contains(after, "delete_ticket") {
		t.Fatalf("tickets was not rewritten:\n%s", after)
	}
	if !strings.Contains(after, banner+table) || !strings.Contains(after, trailing) {
		t.Errorf("rewriting tickets lost the person's comments:\n%s", after)
	}

	ures, err := write.Uninject(fsys.NewOS(), w.request("codex", "", "", res.Written...))
	if err != nil {
		t.Fatal(err)
	}
	if len(ures.Kept) > 0 {
		t.Errorf("uninject kept %v", ures.Kept)
	}
	after = string(read(t, path))
	if strings.Contains(after, table) {
		t.Fatalf("tickets was not removed:\n%s", after)
	}
	for _, c := range []string{banner, "# trailing block after tickets\n# second line\n"} {
		if !strings.Contains(after, c) {
			t.Errorf("uninject lost %q:\n%s", c, after)
		}
	}
}
