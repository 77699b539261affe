package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb/mcpbtest"
)

// testBundle is a small node bundle of a version.
func testBundle(version string, extra ...mcpbtest.Entry) []byte {
	server := `{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node","args":["${__dirname}/server/index.js"],"env":{"TOKEN":"${user_config.token}"}}}`
	man := strings.TrimSuffix(mcpbtest.Manifest("hello", version, server), "}") +
		`,"user_config":{"token":{"type":"string","title":"Token","description":"t","sensitive":true,"required":true}}}`
	return mcpbtest.Build(append([]mcpbtest.Entry{
		{Name: "manifest.json", Data: man},
		{Name: "server/index.js", Data: "console.log('" + version + "')"},
		{Name: "server/bin/tool", Data: "#!/bin/sh\n", Mode: 0o755},
		{Name: "node_modules/.bin/tool", Data: "../../server/bin/tool", Mode: 0o777 | os.ModeSymlink},
		{Name: "empty/", Mode: os.ModeDir | 0o755},
	}, extra...)...)
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

type testEnv struct {
	dir string
	fs  fsys.FS
	reg *registry.Registry
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "aiwg")
	return &testEnv{dir: dir, fs: fsys.NewOS()}
}

func (e *testEnv) installer(t *testing.T) *Installer {
	t.Helper()
	reg, err := registry.Open(e.fs, layers.Config{Dirs: []string{e.dir}})
	if err != nil {
		t.Fatal(err)
	}
	e.reg = reg
	return &Installer{Reg: reg, FS: e.fs, GOOS: runtime.GOOS, Limits: mcpb.DefaultLimits}
}

func bundleRequest(data []byte, name string) Request {
	return Request{Source: &Source{Data: data, Origin: "/tmp/hello.mcpb"}, Options: Options{Name: name}}
}

// spec: M3
func TestInstallBundle(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bundles hold symlinks, which Windows makes only with a privilege")
	}
	e := newTestEnv(t)
	v1 := testBundle("1.0.0")
	res, err := e.installer(t).Add(bundleRequest(v1, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(e.dir, StoreDir, "hello-1.0.0-"+sum(v1)[:12])
	s, _ := e.reg.Server("hello")
	rec, _ := RecordOf(s)
	if !res.Fresh || rec == nil || rec.Bundle.Dir != dir || rec.Bundle.SHA256 != sum(v1) || rec.Bundle.Signature != "unsigned" {
		t.Fatalf("record %+v", rec)
	}
	if s.Args[0] != filepath.Join(dir, "server", "index.js") || s.Cwd != dir || s.EnvFrom["TOKEN"] != "TOKEN" {
		t.Errorf("server %+v", s)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "server", "index.js")); err != nil || string(b) != "console.log('1.0.0')" {
		t.Errorf("index.js: %q %v", b, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "server", "bin", "tool")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("tool is not executable: %v %v", fi, err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "node_modules", ".bin", "tool")); err != nil || target != "../../server/bin/tool" {
		t.Errorf("link: %q %v", target, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "empty")); err != nil || !fi.IsDir() {
		t.Errorf("empty dir: %v", err)
	}
	// a second server of the same bundle shares its directory
	res, err = e.installer(t).Add(bundleRequest(v1, "hello2"))
	if err != nil || res.Fresh {
		t.Fatalf("second: fresh=%v %v", res != nil && res.Fresh, err)
	}
	// removing one keeps the directory for the other; the last removes it
	in := e.installer(t)
	if err := in.Reg.RemoveServer("hello"); err != nil {
		t.Fatal(err)
	}
	if removed, err := in.Prune(); err != nil || len(removed) != 0 {
		t.Fatalf("pruned %v %v while hello2 uses it", removed, err)
	}
	if err := in.Reg.RemoveServer("hello2"); err != nil {
		t.Fatal(err)
	}
	if removed, err := in.Prune(); err != nil || len(removed) != 1 || removed[0] != dir {
		t.Fatalf("pruned %v %v", removed, err)
	}
	left, _ := os.ReadDir(filepath.Join(e.dir, StoreDir))
	if len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// spec: M3
func TestUpdateToANewVersion(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bundles hold symlinks")
	}
	e := newTestEnv(t)
	v1, v2 := testBundle("1.0.0"), testBundle("2.0.0")
	if _, err := e.installer(t).Add(bundleRequest(v1, "hello")); err != nil {
		t.Fatal(err)
	}
	d1 := filepath.Join(e.dir, StoreDir, "hello-1.0.0-"+sum(v1)[:12])
	d2 := filepath.Join(e.dir, StoreDir, "hello-2.0.0-"+sum(v2)[:12])
	before, _ := os.ReadFile(filepath.Join(e.dir, "mcp-servers.json"))
	res, err := e.installer(t).Update("hello", bundleRequest(v2, ""))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := e.reg.Server("hello")
	if !strings.HasPrefix(s.Args[0], d2) || len(res.Removed) != 1 || res.Removed[0] != d1 {
		t.Errorf("args %v removed %v", s.Args, res.Removed)
	}
	if _, err := os.Stat(d1); !os.IsNotExist(err) {
		t.Errorf("the old version is still there: %v", err)
	}
	if string(before) == "" {
		t.Fatal("no registry file")
	}
	// a server injected into clients keeps its old directory, retired, until removed
	if err := e.reg.UpdateServer("hello", func(s *registry.Server) { s.InjectedProviders = []string{"claude-code"} }); err != nil {
		t.Fatal(err)
	}
	v3 := testBundle("3.0.0")
	if _, err := e.installer(t).Update("hello", bundleRequest(v3, "")); err != nil {
		t.Fatal(err)
	}
	s, _ = e.reg.Server("hello")
	rec, _ := RecordOf(s)
	if len(rec.Retired) != 1 || rec.Retired[0] != d2 || len(s.InjectedProviders) != 1 {
		t.Fatalf("retired %v injected %v", rec.Retired, s.InjectedProviders)
	}
	if _, err := os.Stat(d2); err != nil {
		t.Errorf("the retired version is gone: %v", err)
	}
	in := e.installer(t)
	if err := in.Reg.RemoveServer("hello"); err != nil {
		t.Fatal(err)
	}
	if removed, err := in.Prune(); err != nil || len(removed) != 2 {
		t.Errorf("removed %v %v", removed, err)
	}
}

// spec: M3
func TestBadBundlesChangeNothing(t *testing.T) {
	e := newTestEnv(t)
	if err := os.MkdirAll(e.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	v1 := testBundle("1.0.0")
	cases := map[string]Request{
		"digest mismatch": {Source: &Source{Data: v1, Origin: "x.mcpb"}, SHA256: strings.Repeat("0", 64), Options: Options{Name: "a"}},
		"dot-dot":         bundleRequest(testBundle("1.0.0", mcpbtest.Entry{Name: "../../evil", Data: "x"}), "b"),
		"link out":        bundleRequest(testBundle("1.0.0", mcpbtest.Entry{Name: "evil", Data: "../../../etc", Mode: os.ModeSymlink | 0o777}), "c"),
	}
	cases["missing value"] = Request{Source: &Source{Data: mcpbtest.Build(mcpbtest.Entry{Name: "manifest.json", Data: strings.TrimSuffix(mcpbtest.Manifest("x", "1", `{"type":"node","entry_point":"i","mcp_config":{"command":"node","args":["${user_config.dir}"]}}`), "}") + `,"user_config":{"dir":{"type":"directory","title":"d","description":"d","required":true}}}`}), Origin: "x"}}
	for name, req := range cases {
		before := fixtures.Tree(t, e.dir)
		_, err := e.installer(t).Add(req)
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
		fixtures.SameTree(t, before, fixtures.Tree(t, e.dir))
	}
	// too large for the limits
	in := e.installer(t)
	in.Limits = mcpb.Limits{ArchiveBytes: 100, Entries: 10, TotalBytes: 10, EntryBytes: 10, Ratio: 10}
	before := fixtures.Tree(t, e.dir)
	if _, err := in.Add(bundleRequest(v1, "big")); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("over the limit: %v", err)
	}
	fixtures.SameTree(t, before, fixtures.Tree(t, e.dir))
}

// spec: M3
func TestInterruptedUnpackLeavesNothingToTripOn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bundles hold symlinks")
	}
	v1 := testBundle("1.0.0")
	for n := 1; n <= 3; n++ {
		e := newTestEnv(t)
		in := e.installer(t)
		in.FS = &fsystest.Faulty{FailWrite: n}
		if _, err := in.Add(bundleRequest(v1, "hello")); err == nil {
			t.Fatalf("write %d: no failure", n)
		}
		if _, ok := in.Reg.Server("hello"); ok {
			t.Fatalf("write %d: the server was added", n)
		}
		// what a crash would leave: a directory without its record
		dir := filepath.Join(e.dir, StoreDir, "hello-1.0.0-"+sum(v1)[:12])
		if err := os.MkdirAll(filepath.Join(dir, "server"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "server", "index.js"), []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := e.installer(t).Add(bundleRequest(v1, "hello")); err != nil {
			t.Fatalf("after write %d failed: %v", n, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "server", "index.js")); string(b) != "console.log('1.0.0')" {
			t.Errorf("after write %d failed: index.js holds %q", n, b)
		}
		// an unfinished unpack of another bundle is removed by the next change
		other := filepath.Join(e.dir, StoreDir, "other-1-000000000000")
		if err := os.MkdirAll(other, 0o700); err != nil {
			t.Fatal(err)
		}
		in = e.installer(t)
		if err := in.Reg.RemoveServer("hello"); err != nil {
			t.Fatal(err)
		}
		if removed, err := in.Prune(); err != nil || len(removed) != 2 {
			t.Errorf("removed %v %v", removed, err)
		}
	}
}

// spec: M1 M3
func TestMCPBPackageDownloaded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bundles hold symlinks")
	}
	v1 := testBundle("1.0.0")
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/hello.mcpb" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(v1)
	}))
	defer srv.Close()
	serverJSON := func(sha string) []byte {
		return []byte(`{"$schema":"` + SchemaURL(Newest) + `","name":"io.github.acme/hello","description":"Hello","version":"1.0.0",
			"packages":[{"registryType":"mcpb","identifier":"` + srv.URL + `/hello.mcpb","fileSha256":"` + sha + `","transport":{"type":"stdio"}}]}`)
	}
	e := newTestEnv(t)
	in := e.installer(t)
	in.Fetch = HTTPFetcher(srv.Client())
	_, err := in.Add(Request{Source: &Source{Data: serverJSON(strings.Repeat("ab", 32)), Origin: "server.json"}})
	if err == nil || !strings.Contains(err.Error(), "not the bundle published") {
		t.Fatalf("a digest mismatch: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, StoreDir)); !os.IsNotExist(err) {
		t.Errorf("a refused bundle left %v", err)
	}
	res, err := in.Add(Request{Source: &Source{Data: serverJSON(sum(v1)), Origin: "server.json"}})
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := RecordOf(res.Server)
	if res.Server.Name != "hello" || rec.Name != "io.github.acme/hello" || rec.Package.RegistryType != MCPB || rec.Bundle == nil || rec.Bundle.SHA256 != sum(v1) {
		t.Errorf("record %+v", rec)
	}
	out, _, err := Export(res.Server, "local")
	if err != nil || out.Packages[0].Identifier != srv.URL+"/hello.mcpb" || out.Packages[0].FileSHA256 != sum(v1) {
		t.Errorf("export %+v %v", out, err)
	}
	// offline, a file: the same
	if _, err := ReadSource(srv.URL+"/hello.mcpb", nil, e.fs, "/", nil, 1<<20); err == nil || !strings.Contains(err.Error(), "needs the network") {
		t.Errorf("offline: %v", err)
	}
	src, err := ReadSource(srv.URL+"/hello.mcpb?token=abc", nil, e.fs, "/", HTTPFetcher(srv.Client()), 1<<20)
	if err != nil || src.Origin != srv.URL+"/hello.mcpb" || !src.URL {
		t.Errorf("fetched: %+v %v (the query is never recorded)", src, err)
	}
	if _, err := ReadSource("http://example.com/x.json", nil, e.fs, "/", HTTPFetcher(srv.Client()), 1<<20); err == nil {
		t.Errorf("http:// is fetched")
	}
	if _, err := HTTPFetcher(srv.Client())(srv.URL+"/hello.mcpb", 10); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := HTTPFetcher(srv.Client())(srv.URL+"/nope", 1<<20); err == nil || !errors.Is(err, err) || !strings.Contains(err.Error(), "404") {
		t.Errorf("404: %v", err)
	}
}
