//go:build conformance && unix

package conformance

// The explain matrix (spec: E3): situations × every client the suite runs that lists
// what it loads. In each cell a scratch home and project hold the situation as that
// client spells it; `mcpwire explain --client P --json` predicts the servers the
// client starts there, and the client's own list (the one it starts from, or the one
// that connects) says what it starts. The prediction must equal the list in at least
// 98% of the cells; every cell where it does not is listed in knownMisses with why,
// and a miss not listed there, or a listed miss that now agrees, fails the test.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// cell is one situation for one client: its scratch directories, the files the
// situation writes (kept as data until flush), and what runs after they are written
// (a client's own approval command).
type cell struct {
	t     *testing.T
	base  string // the scratch root
	homeD string
	proj  string // the project directory
	start string // where the client and explain start
	bin   string // the directory holding confsrv, on PATH
	extra []string
	json  map[string]map[string]any
	toml  map[string]*tomlDoc
	later []func()
	etc   string // an upper directory laid over /etc for the run ("": none)
	runs  []result
}

// tomlDoc is a TOML file being written: top-level keys, server tables, other tables.
type tomlDoc struct {
	top     []string
	servers []string
	tables  []string
}

func newCell(t *testing.T) *cell {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := &cell{t: t, base: base, homeD: filepath.Join(base, "home"), proj: filepath.Join(base, "project"),
		bin: filepath.Join(base, "bin"), json: map[string]map[string]any{}, toml: map[string]*tomlDoc{}}
	c.start = c.proj
	for _, d := range []string{c.homeD, c.proj, c.bin, filepath.Join(base, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(c.bin, "confsrv.cjs"), confsrv)
	if err := os.WriteFile(filepath.Join(c.bin, "confsrv"), []byte("#!/bin/sh\nexec "+cl.node+" "+filepath.Join(c.bin, "confsrv.cjs")+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return c
}

// confsrv is the matrix's MCP server: it answers initialize, ping and the list
// requests at once, so that every client that connects sees it connected in a moment.
const confsrv = `const rl = require("node:readline").createInterface({input: process.stdin});
const send = (o) => process.stdout.write(JSON.stringify(o) + "\n");
rl.on("line", (l) => {
  let m; try { m = JSON.parse(l); } catch { return; }
  if (m.id === undefined) return;
  let result = {};
  if (m.method === "initialize") result = {protocolVersion: (m.params && m.params.protocolVersion) || "2025-06-18",
    capabilities: {tools: {}}, serverInfo: {name: "confsrv", version: "1.0.0"}};
  else if (m.method === "tools/list") result = {tools: [{name: "ping", description: "ping", inputSchema: {type: "object", properties: {}}}]};
  else if (m.method === "prompts/list") result = {prompts: []};
  else if (m.method === "resources/list") result = {resources: []};
  else if (m.method === "resources/templates/list") result = {resourceTemplates: []};
  send({jsonrpc: "2.0", id: m.id, result});
});
`

func (c *cell) home(rel string) string { return filepath.Join(c.homeD, rel) }

// git makes a directory the top of a git work tree (some clients ask git).
func (c *cell) git(dir string) {
	c.mkdir(dir)
	if out, err := exec.Command("git", "-C", dir, "init", "-q", ".").CombinedOutput(); err != nil {
		c.t.Fatalf("git init %s: %v\n%s", dir, err, out)
	}
}

// doc is the JSON document of a file being written.
func (c *cell) doc(file string) map[string]any {
	d, ok := c.json[file]
	if !ok {
		d = map[string]any{}
		c.json[file] = d
	}
	return d
}

// object returns the object at path in d, made on the way.
func object(d map[string]any, path []string) map[string]any {
	for _, k := range path {
		next, ok := d[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			d[k] = next
		}
		d = next
	}
	return d
}

// jsonSet sets a member of a JSON file.
func (c *cell) jsonSet(file string, path []string, v any) {
	object(c.doc(file), path[:len(path)-1])[path[len(path)-1]] = v
}

// jsonAppend appends names to an array member of a JSON file.
func (c *cell) jsonAppend(file string, path []string, names []string) {
	o := object(c.doc(file), path[:len(path)-1])
	k := path[len(path)-1]
	old, _ := o[k].([]string)
	o[k] = append(old, names...)
}

// tomlFile is the TOML file being written at path.
func (c *cell) tomlFile(file string) *tomlDoc {
	d, ok := c.toml[file]
	if !ok {
		d = &tomlDoc{}
		c.toml[file] = d
	}
	return d
}

// tomlTable adds a table to a TOML file, as written.
func (c *cell) tomlTable(file, text string) {
	c.tomlFile(file).tables = append(c.tomlFile(file).tables, text)
}

// tomlTop sets a top-level array of strings in a TOML file.
func (c *cell) tomlTop(file, key string, names []string) {
	b, _ := json.Marshal(names)
	c.tomlFile(file).top = append(c.tomlFile(file).top, key+" = "+string(b))
}

// put writes servers into a client's file at path.
func (c *cell) put(lc *liveClient, file string, ss ...srv) {
	if lc.toml {
		d := c.tomlFile(file)
		for _, s := range ss {
			d.servers = append(d.servers, tomlServer(s.name, lc.entry(s)))
		}
		return
	}
	d := c.doc(file)
	if lc.provider == "qwen-code" {
		d["$version"] = 4 // else Qwen rewrites the file when it starts
	}
	o := object(d, lc.servers)
	for _, s := range ss {
		o[s.name] = lc.entry(s)
	}
}

// tomlServer is one [mcp_servers.NAME] table.
func tomlServer(name string, e map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[mcp_servers.%q]\n", name)
	for _, k := range slices.Sorted(maps.Keys(e)) {
		if k == "env" {
			continue
		}
		v, _ := json.Marshal(e[k])
		fmt.Fprintf(&b, "%s = %s\n", k, v)
	}
	if env, ok := e["env"].(map[string]any); ok {
		fmt.Fprintf(&b, "[mcp_servers.%q.env]\n", name)
		for _, k := range slices.Sorted(maps.Keys(env)) {
			v, _ := json.Marshal(env[k])
			fmt.Fprintf(&b, "%s = %s\n", k, v)
		}
	}
	return b.String()
}

// user, project and local write servers into the client's file of that scope (the
// project's files in the project directory); false when the client has none.
func (c *cell) user(lc *liveClient, ss ...srv) bool {
	if lc.user == "" {
		return false
	}
	c.put(lc, c.home(lc.user), ss...)
	return true
}

func (c *cell) project(lc *liveClient, ss ...srv) bool { return c.projectIn(lc, c.proj, ss...) }

func (c *cell) projectIn(lc *liveClient, dir string, ss ...srv) bool {
	if lc.project == "" {
		return false
	}
	c.put(lc, filepath.Join(dir, lc.project), ss...)
	return true
}

func (c *cell) local(lc *liveClient, ss ...srv) bool {
	if lc.local == "" {
		return false
	}
	c.put(lc, filepath.Join(c.proj, lc.local), ss...)
	return true
}

// mcpJSON writes servers into a .mcp.json (Claude Code's spelling, which every
// client reading that file reads).
func (c *cell) mcpJSON(file string, ss ...srv) {
	o := object(c.doc(file), []string{"mcpServers"})
	for _, s := range ss {
		o[s.name] = stdEntry("")(s)
	}
}

// grant gives what the client's project servers wait for, in dir: its trust, and
// its approval of names.
func (c *cell) grant(lc *liveClient, dir string, names ...string) {
	if lc.trust != nil {
		lc.trust(c, dir)
	}
	if lc.approve != nil && len(names) > 0 {
		lc.approve(c, dir, names)
	}
}

// holds reports whether a file being written holds a server of that name.
func (c *cell) holds(file, name string) bool {
	for _, path := range [][]string{{"mcpServers"}, {"amp.mcpServers"}, {"mcp"}} {
		if o, ok := object(c.doc(file), path)[name]; ok && o != nil {
			return true
		}
	}
	return false
}

// flush writes every file, then runs what waits for them.
func (c *cell) flush() {
	for file, d := range c.json {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			c.t.Fatal(err)
		}
		writeFile(c.t, file, string(b)+"\n")
	}
	for file, d := range c.toml {
		text := strings.Join(d.top, "\n")
		if text != "" {
			text += "\n\n"
		}
		text += strings.Join(d.servers, "\n") + "\n" + strings.Join(d.tables, "\n")
		writeFile(c.t, file, text)
	}
	for _, f := range c.later {
		f()
	}
}

// path is the cell's PATH: confsrv, Node, the clients, the system's.
func (c *cell) path() string {
	return strings.Join([]string{c.bin, filepath.Dir(cl.node), filepath.Join(cl.dir, "node_modules", ".bin"), "/usr/bin", "/bin"},
		string(os.PathListSeparator))
}

// env is the environment of the clients and of mcpwire in the cell.
func (c *cell) env() []string {
	env := []string{
		"PATH=" + c.path(),
		"HOME=" + c.homeD,
		"USER=conformance",
		"LOGNAME=conformance",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=" + filepath.Join(c.base, "tmp"),
		"XDG_CONFIG_HOME=" + c.home(".config"),
		"XDG_DATA_HOME=" + c.home(".local/share"),
		"XDG_STATE_HOME=" + c.home(".local/state"),
		"XDG_CACHE_HOME=" + c.home(".cache"),
		"AMP_API_KEY=dummy", // amp mcp doctor and approve wait for a login without one
		"QWEN_CODE_SYSTEM_SETTINGS_PATH=" + filepath.Join(c.base, "etc", "qwen-code", "settings.json"),
		"QWEN_CODE_SYSTEM_DEFAULTS_PATH=" + filepath.Join(c.base, "etc", "qwen-code", "system-defaults.json"),
		"AIWG_CONFIG=" + c.home(".aiwg"),
	}
	env = append(env, cl.quietEnv()...)
	return append(env, c.extra...) // later entries win
}

// run runs a command where the client starts.
func (c *cell) run(bin string, args ...string) result { return c.runIn(c.start, bin, args...) }

// runIn runs a command in dir, with /etc overlaid when the cell has managed files.
func (c *cell) runIn(dir, bin string, args ...string) result {
	if c.etc != "" {
		work := filepath.Join(c.base, "etc-work")
		if err := os.MkdirAll(work, 0o755); err != nil {
			c.t.Fatal(err)
		}
		script := `mount -t overlay overlay -o lowerdir=/etc,upperdir="$1",workdir="$2" /etc && shift 2 && exec "$@"`
		args = append([]string{"-m", "--propagation", "private", "sh", "-c", script, "sh", c.etc, work, bin}, args...)
		bin = unshare
	}
	r := runProcess(dir, c.env(), clientTimeout, bin, args...)
	c.runs = append(c.runs, r)
	return r
}

// unshare is the command that runs a client in a mount namespace of its own, where the
// managed files laid over /etc are seen by it and by mcpwire alone.
var unshare = "/usr/bin/unshare"

// managed lays a file over /etc for the cell's runs (an administrator's file, without
// touching this machine's /etc).
func (c *cell) managed(rel, content string) {
	if os.Geteuid() != 0 {
		c.t.Fatalf("the managed-policy situations need a private mount namespace: run the suite as root (%s)", unshare)
	}
	if _, err := exec.LookPath(unshare); err != nil {
		c.t.Fatalf("the managed-policy situations need %s: %v", unshare, err)
	}
	c.etc = filepath.Join(c.base, "etc-upper")
	writeFile(c.t, filepath.Join(c.etc, rel), content)
}

// explained is mcpwire's prediction: the servers explain --client says the client
// starts.
func (c *cell) explained(lc *liveClient) (map[string]bool, result) {
	r := c.run(mcpwire, "explain", "--client", lc.provider, "--json", "--project", c.start)
	var doc struct {
		Servers []struct {
			Name   string `json:"name"`
			Live   bool   `json:"live"`
			Loaded bool   `json:"loaded"`
		} `json:"servers"`
	}
	set := map[string]bool{}
	if r.exit != 0 || json.Unmarshal([]byte(r.stdout), &doc) != nil {
		c.t.Fatalf("mcpwire explain --client %s: %s\n%s%s", lc.provider, r.status(), r.stdout, r.stderr)
	}
	for _, s := range doc.Servers {
		if s.Live || lc.loads && s.Loaded {
			set[s.Name] = true
		}
	}
	return set, r
}

// matrixCell is one cell's outcome.
type matrixCell struct {
	predicted, listed []string
	hit               bool
	detail            string
}

// matrix holds the outcomes, by situation and client.
type matrix struct {
	sync.Mutex
	cells map[string]map[string]*matrixCell
}

func (m *matrix) set(situation, client string, mc *matrixCell) {
	m.Lock()
	defer m.Unlock()
	if m.cells[situation] == nil {
		m.cells[situation] = map[string]*matrixCell{}
	}
	m.cells[situation][client] = mc
}

// clientSlots bounds the clients running at once: two cores, and Qoder's and Kilo's
// commands take seconds of processor time each.
var clientSlots = make(chan struct{}, 3)

// TestExplainMatrix: the matrix of spec E3.
//
// spec: E1 E2 E3
func TestExplainMatrix(t *testing.T) {
	// for a partial run while working: the situations and clients to run
	only := regexp.MustCompile(os.Getenv("MCPWIRE_EXPLAIN_ONLY"))
	clients := regexp.MustCompile(os.Getenv("MCPWIRE_EXPLAIN_CLIENTS"))
	m := &matrix{cells: map[string]map[string]*matrixCell{}}
	t.Run("cells", func(t *testing.T) {
		for _, lc := range liveClients {
			if !clients.MatchString(lc.provider) {
				continue
			}
			t.Run(lc.provider, func(t *testing.T) {
				t.Parallel()
				cl.need(t, lc.provider)
				for _, s := range situations {
					if !only.MatchString(s.name) {
						continue
					}
					t.Run(s.name, func(t *testing.T) {
						clientSlots <- struct{}{}
						defer func() { <-clientSlots }()
						mc := runCell(t, s, lc)
						m.set(s.name, lc.provider, mc)
						t.Logf("%s × %s: client %v, explain %v", s.name, lc.provider, mc.listed, mc.predicted)
					})
				}
			})
		}
	})
	m.report(t)
}

// runCell builds a situation for a client and compares explain's prediction with the
// client's list.
func runCell(t *testing.T, s situation, lc *liveClient) *matrixCell {
	c := newCell(t)
	if !s.gated && lc.provider == "gemini-cli" {
		lc.trust(c, c.start)
	}
	s.build(c, lc)
	c.flush()
	predicted, er := c.explained(lc)
	var listed map[string]bool
	var lr result
	for attempt := 1; attempt <= attempts; attempt++ {
		// a server that misses a client's connect timeout on a loaded machine reads as
		// not started: what the client read from its files does not change between tries
		listed, lr = lc.list(c)
		if maps.Equal(listed, predicted) {
			break
		}
	}
	mc := &matrixCell{predicted: slices.Sorted(maps.Keys(predicted)), listed: slices.Sorted(maps.Keys(listed))}
	mc.hit = maps.Equal(listed, predicted)
	if !mc.hit {
		mc.detail = fmt.Sprintf("explain predicts %v, %s lists %v\n=== mcpwire explain\n%s=== `%s` (%s)\n--- stdout\n%s--- stderr\n%s",
			mc.predicted, lc.provider, mc.listed, er.stdout, shortCmd(lr.cmd), lr.status(), redact(lr.stdout), redact(lr.stderr))
	}
	return mc
}

// setText is a set of names as the table shows it: "a,b", "∅" for none.
func setText(names []string) string {
	if len(names) == 0 {
		return "∅"
	}
	return strings.Join(names, ",")
}

// report prints the matrix and fails on a miss knownMisses does not explain, a known
// miss that agrees now, or a rate under 98%.
func (m *matrix) report(t *testing.T) {
	m.Lock()
	defer m.Unlock()
	var b strings.Builder
	b.WriteString("| situation |")
	for _, lc := range liveClients {
		b.WriteString(" " + lc.provider + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(liveClients)) + "\n")
	hits, cells := 0, 0
	var misses []string
	for _, s := range situations {
		row, ok := m.cells[s.name]
		if !ok {
			continue
		}
		b.WriteString("| " + s.name + " |")
		for _, lc := range liveClients {
			mc, ok := row[lc.provider]
			switch {
			case !ok:
				b.WriteString(" – |")
				continue
			case mc.hit:
				b.WriteString(" ✓ " + setText(mc.listed) + " |")
				hits++
			default:
				b.WriteString(" ✗ " + setText(mc.listed) + " ≠ " + setText(mc.predicted) + " |")
				misses = append(misses, fmt.Sprintf("%s × %s: explain %v, client %v: %s", s.name, lc.provider, mc.predicted, mc.listed, knownMisses[s.name+"/"+lc.provider]))
			}
			cells++
			why, known := knownMisses[s.name+"/"+lc.provider]
			switch {
			case !mc.hit && !known:
				t.Errorf("%s × %s: a miss nobody explained:\n%s", s.name, lc.provider, mc.detail)
			case mc.hit && known:
				t.Errorf("%s × %s: listed as a miss (%s), and explain agrees with the client now: drop it from knownMisses", s.name, lc.provider, why)
			}
		}
		b.WriteString("\n")
	}
	if cells == 0 {
		t.Fatal("no cell ran")
	}
	fmt.Fprintf(&b, "\n%d of %d cells agree (%.1f%%)", hits, cells, 100*float64(hits)/float64(cells))
	if len(misses) > 0 {
		b.WriteString("; the misses:\n\n")
		for _, ms := range misses {
			b.WriteString("- " + ms + "\n")
		}
	}
	t.Logf("explain matrix (spec: E3):\n%s", b.String())
	if out := os.Getenv("MCPWIRE_EXPLAIN_MATRIX"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	if float64(hits) < 0.98*float64(cells) {
		t.Errorf("explain agrees with the clients in %d of %d cells, under 98%%", hits, cells)
	}
}
