package mcpb_test

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb/mcpbtest"
)

const nodeServer = `{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node","args":["${__dirname}/server/index.js"]}}`

func manifestEntry() mcpbtest.Entry {
	return mcpbtest.Entry{Name: "manifest.json", Data: mcpbtest.Manifest("hello", "1.0.0", nodeServer)}
}

// spec: M3
func TestOpenAcceptsABundle(t *testing.T) {
	data := mcpbtest.Build(
		manifestEntry(),
		mcpbtest.Entry{Name: "server/", Mode: fs.ModeDir | 0o755},
		mcpbtest.Entry{Name: "server/index.js", Data: "console.log(1)"},
		mcpbtest.Entry{Name: "bin/run", Data: "#!/bin/sh\n", Mode: 0o755},
		mcpbtest.Entry{Name: "node_modules/.bin/run", Data: "../../bin/run", Mode: fs.ModeSymlink | 0o777},
		mcpbtest.Entry{Name: "./docs/readme.md", Data: "hi"},
	)
	a, err := mcpb.Open(data, mcpb.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if a.Manifest.Name != "hello" || a.Manifest.Server.Config.Command != "node" {
		t.Fatalf("manifest: %+v", a.Manifest)
	}
	got := map[string]mcpb.Entry{}
	for _, e := range a.Entries {
		got[e.Name] = e
	}
	if e := got["bin/run"]; !e.Exec || e.Kind != mcpb.File {
		t.Errorf("bin/run: %+v, want an executable file", e)
	}
	if e := got["node_modules/.bin/run"]; e.Kind != mcpb.Link || e.Target != "../../bin/run" {
		t.Errorf("link: %+v", e)
	}
	if _, ok := got["docs/readme.md"]; !ok {
		t.Errorf("./docs/readme.md is not read as docs/readme.md: %v", got)
	}
	if a.Signed != nil {
		t.Errorf("an unsigned bundle has a signature block")
	}
}

// spec: M3
func TestOpenRefuses(t *testing.T) {
	small := mcpb.Limits{ArchiveBytes: 1 << 20, Entries: 5, TotalBytes: 4096, EntryBytes: 2048, Ratio: 10, RatioFloor: 512}
	zeros := strings.Repeat("\x00", 3000)
	cases := []struct {
		name    string
		entries []mcpbtest.Entry
		lim     mcpb.Limits
		want    string
	}{
		{"dot-dot", []mcpbtest.Entry{manifestEntry(), {Name: "../evil", Data: "x"}}, mcpb.DefaultLimits, "leaves the bundle"},
		{"dot-dot inside", []mcpbtest.Entry{manifestEntry(), {Name: "a/../../evil", Data: "x"}}, mcpb.DefaultLimits, "leaves the bundle"},
		{"absolute", []mcpbtest.Entry{manifestEntry(), {Name: "/etc/evil", Data: "x"}}, mcpb.DefaultLimits, "absolute path"},
		{"backslash", []mcpbtest.Entry{manifestEntry(), {Name: `..\evil`, Data: "x"}}, mcpb.DefaultLimits, "backslash"},
		{"drive", []mcpbtest.Entry{manifestEntry(), {Name: "C:/evil", Data: "x"}}, mcpb.DefaultLimits, "drive letter"},
		{"link out", []mcpbtest.Entry{manifestEntry(), {Name: "l", Data: "../../etc/passwd", Mode: fs.ModeSymlink | 0o777}}, mcpb.DefaultLimits, "points out of the bundle"},
		{"link absolute", []mcpbtest.Entry{manifestEntry(), {Name: "l", Data: "/etc/passwd", Mode: fs.ModeSymlink | 0o777}}, mcpb.DefaultLimits, "points out of the bundle"},
		{"link to nothing", []mcpbtest.Entry{manifestEntry(), {Name: "l", Data: "nothing", Mode: fs.ModeSymlink | 0o777}}, mcpb.DefaultLimits, "does not hold"},
		{"through a link", []mcpbtest.Entry{manifestEntry(), {Name: "d/", Mode: fs.ModeDir | 0o755}, {Name: "l", Data: "d", Mode: fs.ModeSymlink | 0o777}, {Name: "l/x", Data: "x"}}, mcpb.DefaultLimits, "write through the link"},
		{"twice", []mcpbtest.Entry{manifestEntry(), {Name: "a", Data: "1"}, {Name: "a", Data: "2"}}, mcpb.DefaultLimits, "twice"},
		{"case twins", []mcpbtest.Entry{manifestEntry(), {Name: "A", Data: "1"}, {Name: "a", Data: "2"}}, mcpb.DefaultLimits, "case-insensitive"},
		{"fifo", []mcpbtest.Entry{manifestEntry(), {Name: "p", Mode: fs.ModeNamedPipe | 0o644}}, mcpb.DefaultLimits, "not a regular file"},
		{"too many entries", []mcpbtest.Entry{manifestEntry(), {Name: "1"}, {Name: "2"}, {Name: "3"}, {Name: "4"}, {Name: "5"}}, small, "entries, over the limit"},
		{"entry too big", []mcpbtest.Entry{manifestEntry(), {Name: "big", Data: strings.Repeat("ab", 1100), Store: true}}, small, "over the limit of 2048 for one entry"},
		{"total too big", []mcpbtest.Entry{manifestEntry(), {Name: "a", Data: strings.Repeat("a", 2000), Store: true}, {Name: "b", Data: strings.Repeat("b", 2000), Store: true}}, small, "more than 4096 bytes"},
		{"ratio", []mcpbtest.Entry{manifestEntry(), {Name: "bomb", Data: zeros[:2000]}}, small, "zip bomb"},
		{"no manifest", []mcpbtest.Entry{{Name: "x", Data: "1"}}, mcpb.DefaultLimits, "no manifest.json"},
		{"manifest fails its schema", []mcpbtest.Entry{{Name: "manifest.json", Data: `{"manifest_version":"0.3","name":"x","version":"1","author":{"name":"a"},"server":{"type":"ruby","entry_point":"x","mcp_config":{"command":"x"}}}`}}, mcpb.DefaultLimits, "server.type"},
		{"manifest not json", []mcpbtest.Entry{{Name: "manifest.json", Data: `{`}}, mcpb.DefaultLimits, "not valid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mcpb.Open(mcpbtest.Build(tc.entries...), tc.lim)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// spec: M3
func TestOpenRefusesALargeArchive(t *testing.T) {
	data := mcpbtest.Build(manifestEntry())
	_, err := mcpb.Open(data, mcpb.Limits{ArchiveBytes: int64(len(data) - 1), Entries: 10, TotalBytes: 1 << 20, EntryBytes: 1 << 20, Ratio: 100})
	if err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("err = %v", err)
	}
	if _, err := mcpb.Open([]byte("PK\x03\x04 not a zip"), mcpb.DefaultLimits); err == nil || !strings.Contains(err.Error(), "not a ZIP") {
		t.Fatalf("garbage: err = %v", err)
	}
}

// spec: M3
func TestEntryContentBeyondItsDeclaredSize(t *testing.T) {
	data := mcpbtest.Build(manifestEntry(), mcpbtest.Entry{Name: "f", Data: "0123456789", Store: true})
	// lower the declared size of f in the central directory (and its local header):
	// reading it must fail rather than write more than the limits allowed for
	data = bytes.Replace(data, []byte{10, 0, 0, 0, 10, 0, 0, 0}, []byte{4, 0, 0, 0, 4, 0, 0, 0}, -1)
	a, err := mcpb.Open(data, mcpb.DefaultLimits)
	if err != nil {
		t.Skipf("the archive was refused as it is: %v", err)
	}
	e, _ := a.Entry("f")
	if b, err := e.ReadAll(); err == nil {
		t.Fatalf("read %q, want an error", b)
	}
}

func FuzzOpen(f *testing.F) {
	f.Add(mcpbtest.Build(manifestEntry(), mcpbtest.Entry{Name: "server/index.js", Data: "x"}))
	f.Add(mcpbtest.Build(manifestEntry(), mcpbtest.Entry{Name: "../x", Data: "x"}))
	f.Add(mcpbtest.Build(manifestEntry(), mcpbtest.Entry{Name: "l", Data: "../x", Mode: fs.ModeSymlink | 0o777}))
	f.Add([]byte("MCPB_SIG_V1\x04\x00\x00\x00abcdMCPB_SIG_END"))
	lim := mcpb.Limits{ArchiveBytes: 1 << 20, Entries: 100, TotalBytes: 1 << 20, EntryBytes: 1 << 20, Ratio: 100, RatioFloor: 1 << 10}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := mcpb.Open(data, lim)
		if err != nil {
			var e *mcpb.Error
			if !errors.As(err, &e) && !strings.Contains(err.Error(), "manifest.json") {
				t.Fatalf("an error that is no refusal: %v", err)
			}
			return
		}
		var total uint64
		for _, e := range a.Entries {
			if e.Name == "" || strings.HasPrefix(e.Name, "/") || strings.Contains(e.Name, "\\") {
				t.Fatalf("unchecked name %q", e.Name)
			}
			for _, part := range strings.Split(e.Name, "/") {
				if part == ".." || part == "." || part == "" {
					t.Fatalf("unclean name %q", e.Name)
				}
			}
			if e.Kind == mcpb.Link {
				resolved := path.Join(path.Dir(e.Name), e.Target)
				if path.IsAbs(e.Target) || resolved == ".." || strings.HasPrefix(resolved, "../") {
					t.Fatalf("a link out of the bundle: %+v", e)
				}
			}
			total += e.Size
		}
		if total > lim.TotalBytes || len(a.Entries) > lim.Entries {
			t.Fatalf("over the limits: %d bytes, %d entries", total, len(a.Entries))
		}
	})
}
