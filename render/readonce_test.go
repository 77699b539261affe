package render_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// readCountFS counts the reads of one file.
type readCountFS struct {
	fsys.FS
	path  string
	reads int
}

func (f *readCountFS) ReadFile(name string) ([]byte, error) {
	if filepath.Clean(name) == f.path {
		f.reads++
	}
	return f.FS.ReadFile(name)
}

// spec: Q4 W7
// TestInjectReadsClientFileOnce: the staged record's edit reads the client file to
// know what the file's own edit will write; the file's own target then edits from
// that read instead of reading the file again (a 50 MB ~/.claude.json costs one read,
// not two), in every scope of Claude Code's ~/.claude.json.
func TestInjectReadsClientFileOnce(t *testing.T) {
	for _, scope := range []providers.Scope{providers.User, providers.Local} {
		t.Run(string(scope), func(t *testing.T) {
			w := newWorld(t)
			path := filepath.Join(w.home, ".claude.json")
			w.place(path, []byte("{\"numStartups\": 3, \"projects\": {\"/elsewhere\": {\"mcpServers\": {}}}}\n"))
			f := &readCountFS{FS: fsys.NewOS(), path: path}
			res, err := write.Inject(f, w.request("claude-code", scope, "", "fetch"))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Changed) == 0 {
				t.Fatalf("nothing written: %+v", res)
			}
			if f.reads != 1 {
				t.Errorf("%s read %d times, want once", path, f.reads)
			}
		})
	}
}

// TestInjectReadsRecordOnceWhenPlanning: planning a write reads the file's ownership
// record once, for Prepare. The staged record's edit, the file's own edit and the
// record's own target use that read while the record's description stays the one
// read (one lstat each: fsys.Unchanged, fsys.Target.Handoff), and the transaction
// looks at it again under its lock, as at every target (issue 31: an injection into
// every client read each of 35 records three times, 105 reads, before any lock).
//
// spec: W7 W8
func TestInjectReadsRecordOnceWhenPlanning(t *testing.T) {
	w := newWorld(t)
	if _, err := write.Inject(fsys.NewOS(), w.request("cursor", providers.Project, "", "fetch")); err != nil {
		t.Fatal(err)
	}
	rec, _ := recordPathOf(t, w, render.OwnershipDir, w.dest(w.provider("cursor"), providers.Project))
	f := &readCountFS{FS: fsys.NewOS(), path: rec}
	res, err := write.Inject(f, w.request("cursor", providers.Project, "", "fetch", "github"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) == 0 {
		t.Fatalf("nothing written: %+v", res)
	}
	// 3 before issue 31's second round: Prepare, the staged record's edit, the
	// record's own target
	if f.reads != 1 {
		t.Errorf("the record was read %d times, want 1", f.reads)
	}
}

// TestRecordChangedBetweenEditsIsSeen: when another mcpwire process changes the
// ownership record right after the staged record's edit looked at it — the file's own
// edit and the record's own target, next, plan from that read — the transaction sees
// the change when it looks at the record again under its lock, every target is
// edited again, and both writers' entries end in the record.
//
// spec: W8 C6
func TestRecordChangedBetweenEditsIsSeen(t *testing.T) {
	w := newWorld(t)
	if _, err := write.Inject(fsys.NewOS(), w.request("cursor", providers.Project, "", "fetch")); err != nil {
		t.Fatal(err)
	}
	rec, _ := recordPathOf(t, w, render.OwnershipDir, w.dest(w.provider("cursor"), providers.Project))
	// Prepare's read looks at the record twice (before and after reading it); the
	// staged record's edit's look is the third: the other writer changes the record
	// after it
	f := &recordLookHookFS{recordHookFS: recordHookFS{FS: fsys.NewOS(), path: rec}, after: 3, hook: func() {
		var r map[string]any
		data, err := os.ReadFile(rec)
		if err == nil {
			err = json.Unmarshal(data, &r)
		}
		if err != nil {
			t.Fatal(err)
		}
		r["entries"].(map[string]any)["other"] = strings.Repeat("0", 64)
		data, _ = json.MarshalIndent(r, "", "  ")
		if err := os.WriteFile(rec, append(data, '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
	}}
	if _, err := write.Inject(f, w.request("cursor", providers.Project, "", "fetch", "github")); err != nil {
		t.Fatal(err)
	}
	if f.looks < 3 {
		t.Fatalf("the record was looked at %d times: the other writer never wrote", f.looks)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Entries map[string]string }
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"other", "fetch", "github"} {
		if _, ok := got.Entries[n]; !ok {
			t.Errorf("the record lost %s: %s", n, data)
		}
	}
	if f.reads < 2 {
		t.Errorf("the record was read %d times: the change went unseen", f.reads)
	}
}

// recordLookHookFS is recordHookFS that also runs hook once right after the record's
// after-th Lstat.
type recordLookHookFS struct {
	recordHookFS
	after, looks int
	hook         func()
}

func (f *recordLookHookFS) Lstat(name string) (fs.FileInfo, error) {
	fi, err := f.FS.Lstat(name)
	if filepath.Clean(name) == f.path {
		f.looks++
		if f.looks == f.after {
			f.hook()
		}
	}
	return fi, err
}
