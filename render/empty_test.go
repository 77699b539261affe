package render_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestEmptyClientFile (decision, issue 11): a client file with no byte in it is what a
// program writing in place leaves between its truncate and its write. One that stays
// empty is refused naming it, and left as it is; one that fills up while mcpwire reads
// it again is edited as it is then — the other program's content is kept, never
// replaced by mcpwire's servers alone.
//
// spec: W2 W8
func TestEmptyClientFile(t *testing.T) {
	w := newWorld(t)
	p := w.provider("cursor")
	path := w.dest(p, providers.Project)
	w.place(path, nil)
	_, err := write.Inject(fsys.NewOS(), w.request("cursor", "", "", "notes"))
	var empty *render.EmptyFileError
	if !errors.As(err, &empty) || empty.Path != path {
		t.Fatalf("error %v, want the empty file %s refused", err, path)
	}
	if b := read(t, path); len(b) != 0 {
		t.Fatalf("the empty file was written:\n%s", b)
	}

	// the other program's write lands while mcpwire waits
	done := make(chan error, 1)
	go func() {
		time.Sleep(5 * time.Millisecond)
		done <- os.WriteFile(path, []byte(`{"mcpServers": {"theirs": {"command": "their-mcp"}}}`), 0o644)
	}()
	if _, err := write.Inject(fsys.NewOS(), w.request("cursor", "", "", "notes")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := string(read(t, path)); !strings.Contains(got, `"theirs"`) || !strings.Contains(got, `"notes"`) {
		t.Errorf("after the file filled up:\n%s", got)
	}
}
