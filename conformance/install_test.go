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
	copilot    string
	qwen       string
	auggie     string
	amp        string
	kilo       string
	qoder      string
	copilotPkg string // COPILOT_PKG_CACHE_HOME shared by every scenario (Copilot unpacks 235 MB there once)
	everything string // server-everything's entry script (dist/index.js)
	versions   map[string]string
	cached     bool // true when the cache was complete before this run
}

// clientBins maps each client's bin name in node_modules/.bin to its package, whose
// pinned version `<bin> --version` must print.
var clientBins = []struct{ bin, pkg string }{
	{"claude", "@anthropic-ai/claude-code"},
	{"codex", "@openai/codex"},
	{"gemini", "@google/gemini-cli"},
	{"opencode", "opencode-ai"},
	{"copilot", "@github/copilot"},
	{"qwen", "@qwen-code/qwen-code"},
	{"auggie", "@augmentcode/auggie"},
	{"amp", "@sourcegraph/amp"},
	{"kilo", "@kilocode/cli"},
	{"qodercli", "@qoder-ai/qodercli"},
}

// rebuilt are the packages whose install script must run after `npm install
// --ignore-scripts`: Claude Code's, opencode's and Amp's (@ampcode/cli) copy their
// platform's native binary over a placeholder. The others are not needed for these
// commands (node-pty's C++ build, keytar) or must never run (Qoder's edits ~/.bashrc,
// ~/.profile and the global git ignore file; Kilo's only caches its binary).
var rebuilt = []string{"@anthropic-ai/claude-code", "opencode-ai", "@ampcode/cli"}

// recipe is the part of the install that is not in the pinned list; it is in the cache
// key, so that changing it installs afresh.
var recipe = "install --ignore-scripts; rebuild " + strings.Join(rebuilt, " ") + "; copilot-pkg"

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
	for _, part := range [][]byte{pkg, lock, []byte(runtime.GOOS + "/" + runtime.GOARCH + "/node" + major), []byte(recipe)} {
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
		return c, c.locate(true)
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
		return c, c.locate(true)
	}

	tmp, err := os.MkdirTemp(root, key+".installing-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := install(npm, tmp, pkg, lock, deps); err != nil {
		return nil, err
	}
	c.dir = tmp
	if err := c.locate(false); err != nil {
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
	if err := c.locate(true); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, ".complete"), []byte(key+"\n"), 0o644); err != nil {
		return nil, err
	}
	return c, nil
}

// install runs npm in dir with a throwaway HOME, XDG folders and npm cache, so that no
// package, install script or npm itself touches the caller's dotfiles or npm cache:
//
//  1. `npm install` with the lock file, not `npm ci`: the lock holds the optional
//     per-platform packages of the registry it was made against, and npm ci refuses a
//     lock that lacks one the current registry or platform lists; npm install keeps
//     every locked version and only resolves what is missing. --ignore-scripts: no
//     install script runs (Qoder's edits ~/.bashrc, ~/.profile and the global git
//     ignore file).
//  2. `npm rebuild` of the packages in rebuilt, whose scripts copy a native binary
//     into place (the scripts run the clients: opencode's runs `opencode --version`).
//
// Progress goes to a terminal only (spec: U7).
func install(npm, dir string, pkg, lock []byte, deps map[string]string) error {
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "package-lock.json"), lock, 0o644); err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "conformance-npm-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	env := append(os.Environ(), scratchEnv(scratch)...)
	env = append(env, "npm_config_cache="+filepath.Join(scratch, "npm-cache"), "npm_config_update_notifier=false")

	p := newProgress()
	defer p.close()
	start := time.Now()
	steps := [][]string{
		{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=warn"},
		append([]string{"rebuild", "--ignore-scripts=false", "--no-update-notifier", "--foreground-scripts"}, rebuilt...),
	}
	for i, args := range steps {
		what := fmt.Sprintf("npm %s (%d packages)", args[0], len(deps))
		if i > 0 {
			what = "npm rebuild " + strings.Join(rebuilt, " ")
		}
		stop := p.step(what)
		res := runProcess(dir, env, installTimeout, npm, args...)
		stop()
		if res.err != nil || res.exit != 0 {
			return fmt.Errorf("npm %s failed (%s) in %s:\n--- npm stdout ---\n%s\n--- npm stderr ---\n%s",
				strings.Join(args, " "), res.status(), dir, res.stdout, res.stderr)
		}
	}
	p.printf("conformance: installed %s in %s\n", pinnedSummary(deps), time.Since(start).Round(time.Second))
	return nil
}

// scratchEnv puts HOME and every XDG folder inside dir.
func scratchEnv(dir string) []string {
	return []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(dir, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(dir, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, ".cache")}
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
// version. Once the clients ran (runs), Copilot's unpacked package must be there too.
// Moving the folder into place after Copilot unpacked into it is fine: Copilot finds
// its package by COPILOT_PKG_CACHE_HOME and its own version.
func (c *clients) locate(ran bool) error {
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
	for _, b := range clientBins {
		p := filepath.Join(bin, b.bin)
		if _, err := os.Stat(p); err != nil {
			problems = append(problems, fmt.Sprintf("missing client binary %s", p))
		}
	}
	c.claude = filepath.Join(bin, "claude")
	c.codex = filepath.Join(bin, "codex")
	c.gemini = filepath.Join(bin, "gemini")
	c.opencode = filepath.Join(bin, "opencode")
	c.copilot = filepath.Join(bin, "copilot")
	c.qwen = filepath.Join(bin, "qwen")
	c.auggie = filepath.Join(bin, "auggie")
	c.amp = filepath.Join(bin, "amp")
	c.kilo = filepath.Join(bin, "kilo")
	c.qoder = filepath.Join(bin, "qodercli")
	c.copilotPkg = filepath.Join(c.dir, "copilot-pkg")
	c.everything = filepath.Join(c.dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(c.everything); err != nil {
		problems = append(problems, fmt.Sprintf("missing server-everything entry script: %v", err))
	}
	if ran {
		if _, err := os.Stat(filepath.Join(c.copilotPkg, "pkg")); err != nil {
			problems = append(problems, fmt.Sprintf("Copilot's package is not unpacked: %v", err))
		}
	}
	if len(problems) > 0 {
		return errors.New("the client cache " + c.dir + " is broken (delete it to reinstall):\n  " + strings.Join(problems, "\n  "))
	}
	return nil
}

// runs checks that every client starts and reports its pinned version. Copilot unpacks
// its package into c.copilotPkg on this first run, once for every scenario.
func (c *clients) runs() error {
	home, err := os.MkdirTemp("", "conformance-version-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	env := append([]string{"PATH=" + filepath.Dir(c.node) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TMPDIR=" + home}, scratchEnv(home)...)
	env = append(env, c.quietEnv()...)
	p := newProgress()
	defer p.close()
	bin := filepath.Join(c.dir, "node_modules", ".bin")
	for _, b := range clientBins {
		v := c.versions[b.pkg]
		stop := p.step(b.bin + " --version")
		r := runProcess(home, env, 3*time.Minute, filepath.Join(bin, b.bin), "--version")
		stop()
		if r.err != nil || r.exit != 0 || !strings.Contains(r.stdout, v) {
			return fmt.Errorf("%s --version (%s) does not report %s:\n--- stdout ---\n%s--- stderr ---\n%s", b.bin, r.status(), v, r.stdout, r.stderr)
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
