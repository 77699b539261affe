//go:build conformance && unix

package conformance

// Installing the pinned clients (spec: Q3): npm install of npm/package.json and
// npm/package-lock.json into
// <cache root>/<key>, where the key hashes the pinned list, the platform and Node's
// major version. A folder that holds a ".complete" stamp with its key is reused as is;
// anything else is installed afresh into a temporary sibling and renamed into place,
// under an flock so that two runs on one machine do not install twice. An install that
// fails is a test failure, never a skip.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
)

// installTimeout bounds `npm install` (a cold install took about a minute here).
const installTimeout = 20 * time.Minute

// clients are the installed binaries.
type clients struct {
	dir        string // the cache folder holding node_modules
	node       string // the node binary used for server-everything
	claude     string
	codex      string
	gemini     string
	opencode   string
	everything string // server-everything's entry script (dist/index.js)
	versions   map[string]string
	cached     bool // true when the cache was complete before this run
}

// binaries maps each client to its bin name in node_modules/.bin.
var binaries = []string{"claude", "codex", "gemini", "opencode"}

// cacheRoot is $MCPWIRE_CONFORMANCE_CACHE, else <user cache dir>/mcpwire-conformance
// (${XDG_CACHE_HOME:-~/.cache} on Linux, ~/Library/Caches on macOS).
func cacheRoot() (string, error) {
	if v := os.Getenv("MCPWIRE_CONFORMANCE_CACHE"); v != "" {
		return filepath.Abs(v)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder (set MCPWIRE_CONFORMANCE_CACHE): %w", err)
	}
	return filepath.Join(base, "mcpwire-conformance"), nil
}

// pinnedList reads npm/package.json and npm/package-lock.json.
func pinnedList() (pkg, lock []byte, deps map[string]string, err error) {
	if pkg, err = os.ReadFile(filepath.Join("npm", "package.json")); err != nil {
		return nil, nil, nil, err
	}
	if lock, err = os.ReadFile(filepath.Join("npm", "package-lock.json")); err != nil {
		return nil, nil, nil, err
	}
	var p struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err = json.Unmarshal(pkg, &p); err != nil {
		return nil, nil, nil, fmt.Errorf("npm/package.json: %w", err)
	}
	for name, v := range p.Dependencies {
		if strings.ContainsAny(v, "^~<>=* x") || v == "" {
			return nil, nil, nil, fmt.Errorf("npm/package.json: %s@%s is not an exact version", name, v)
		}
	}
	return pkg, lock, p.Dependencies, nil
}

// installClients makes sure the pinned clients are in the cache and returns them.
func installClients() (*clients, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH: %w", err)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, fmt.Errorf("npm is not on PATH: %w", err)
	}
	nodeVersion, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("node --version: %w", err)
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(nodeVersion)), "v"), ".")

	pkg, lock, deps, err := pinnedList()
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, part := range [][]byte{pkg, lock, []byte(runtime.GOOS + "/" + runtime.GOARCH + "/node" + major)} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]

	root, err := cacheRoot()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	dir := filepath.Join(root, key)
	c := &clients{dir: dir, node: node, versions: deps}

	if complete(dir, key) {
		c.cached = true
		return c, c.locate()
	}

	lockFile, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	defer lockFile.Close()
	if err := syscall.Flock(int(lockFile.Fd()), syscall.LOCK_EX); err != nil {
		return nil, fmt.Errorf("lock %s: %w", lockFile.Name(), err)
	}
	defer syscall.Flock(int(lockFile.Fd()), syscall.LOCK_UN)
	if complete(dir, key) { // another run installed it while we waited
		c.cached = true
		return c, c.locate()
	}

	tmp, err := os.MkdirTemp(root, key+".installing-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), pkg, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "package-lock.json"), lock, 0o644); err != nil {
		return nil, err
	}
	// `npm install` with the lock file, not `npm ci`: the lock holds the optional
	// per-platform packages of the registry it was made against, and npm ci refuses a
	// lock that lacks one the current registry or platform lists; npm install keeps
	// every locked version and only resolves what is missing.
	// --ignore-scripts, then `npm rebuild` of the two packages whose install script
	// matters: Claude Code's and opencode's copy their platform's native binary over a
	// placeholder. The others (node-pty's native build for Gemini's shell tool, keytar)
	// are not needed for these commands and would compile C++.
	args := []string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=warn"}
	fmt.Fprintf(os.Stderr, "conformance: installing %s into %s (npm %s)\n", pinnedSummary(deps), dir, strings.Join(args, " "))
	start := time.Now()
	res := runProcess(tmp, os.Environ(), installTimeout, npm, args...)
	if res.err != nil || res.exit != 0 {
		return nil, fmt.Errorf("npm %s failed (%s) in %s:\n--- npm stdout ---\n%s\n--- npm stderr ---\n%s",
			strings.Join(args, " "), res.status(), tmp, res.stdout, res.stderr)
	}
	// The scripts run the clients (opencode's runs `opencode --version`), which create
	// state folders in HOME: give them a throwaway one.
	scratch, err := os.MkdirTemp("", "conformance-npm-home-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	env := append(os.Environ(), "HOME="+scratch, "XDG_CONFIG_HOME="+scratch+"/.config", "XDG_DATA_HOME="+scratch+"/.local/share",
		"XDG_STATE_HOME="+scratch+"/.local/state", "XDG_CACHE_HOME="+scratch+"/.cache")
	rebuild := []string{"rebuild", "--ignore-scripts=false", "--no-update-notifier", "--foreground-scripts", "@anthropic-ai/claude-code", "opencode-ai"}
	res = runProcess(tmp, env, installTimeout, npm, rebuild...)
	if res.err != nil || res.exit != 0 {
		return nil, fmt.Errorf("npm %s failed (%s) in %s:\n--- npm stdout ---\n%s\n--- npm stderr ---\n%s",
			strings.Join(rebuild, " "), res.status(), tmp, res.stdout, res.stderr)
	}
	fmt.Fprintf(os.Stderr, "conformance: npm install took %s\n", time.Since(start).Round(time.Second))
	c.dir = tmp
	if err := c.locate(); err != nil {
		return nil, err
	}
	if err := c.runs(); err != nil {
		return nil, err
	}
	c.dir = dir

	// Replace whatever incomplete folder was there, then stamp it.
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	if err := c.locate(); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, ".complete"), []byte(key+"\n"), 0o644); err != nil {
		return nil, err
	}
	return c, nil
}

func pinnedSummary(deps map[string]string) string {
	var names []string
	for n, v := range deps {
		names = append(names, n+"@"+v)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

func complete(dir, key string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ".complete"))
	return err == nil && strings.TrimSpace(string(b)) == key
}

// locate finds every binary and checks that each installed package has its pinned
// version.
func (c *clients) locate() error {
	var problems []string
	for name, want := range c.versions {
		b, err := os.ReadFile(filepath.Join(c.dir, "node_modules", filepath.FromSlash(name), "package.json"))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s is not installed: %v", name, err))
			continue
		}
		var p struct{ Version string }
		if err := json.Unmarshal(b, &p); err != nil || p.Version != want {
			problems = append(problems, fmt.Sprintf("%s: installed version %q, pinned %q", name, p.Version, want))
		}
	}
	bin := filepath.Join(c.dir, "node_modules", ".bin")
	for _, b := range binaries {
		p := filepath.Join(bin, b)
		if _, err := os.Stat(p); err != nil {
			problems = append(problems, fmt.Sprintf("missing client binary %s", p))
		}
	}
	c.claude = filepath.Join(bin, "claude")
	c.codex = filepath.Join(bin, "codex")
	c.gemini = filepath.Join(bin, "gemini")
	c.opencode = filepath.Join(bin, "opencode")
	c.everything = filepath.Join(c.dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(c.everything); err != nil {
		problems = append(problems, fmt.Sprintf("missing server-everything entry script: %v", err))
	}
	if len(problems) > 0 {
		return errors.New("the client cache " + c.dir + " is broken (delete it to reinstall):\n  " + strings.Join(problems, "\n  "))
	}
	return nil
}

// runs checks that every client starts and reports its pinned version.
func (c *clients) runs() error {
	want := map[string]string{
		c.claude:   c.versions["@anthropic-ai/claude-code"],
		c.codex:    c.versions["@openai/codex"],
		c.gemini:   c.versions["@google/gemini-cli"],
		c.opencode: c.versions["opencode-ai"],
	}
	home, err := os.MkdirTemp("", "conformance-version-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	env := []string{"HOME=" + home, "PATH=" + filepath.Dir(c.node) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"CI=1", "NO_COLOR=1", "DISABLE_AUTOUPDATER=1", "GEMINI_CLI_NO_RELAUNCH=true", "OPENCODE_DISABLE_AUTOUPDATE=1"}
	for bin, v := range want {
		r := runProcess(home, env, 3*time.Minute, bin, "--version")
		if r.err != nil || r.exit != 0 || !strings.Contains(r.stdout, v) {
			return fmt.Errorf("%s --version (%s) does not report %s:\n--- stdout ---\n%s--- stderr ---\n%s", bin, r.status(), v, r.stdout, r.stderr)
		}
	}
	return nil
}

// buildMcpwire builds ./cmd/mcpwire into dir.
func buildMcpwire(dir string) (string, error) {
	bin := filepath.Join(dir, "mcpwire")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/mcpwire/mcpwire/cmd/mcpwire")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/mcpwire: %v\n%s", err, out.String())
	}
	return bin, nil
}
