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
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
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
	droid      string // Factory's native binary (its platform package; the wrapper installs none)
	grok       string // Grok Build's native binary, unpacked by the install
	cn         string
	cline      string
	bun        string            // Bun, which runs oh-my-pi
	omp        string            // oh-my-pi's package folder (its loader is called under Bun)
	copilotPkg string            // COPILOT_PKG_CACHE_HOME shared by every scenario (Copilot unpacks 235 MB there once)
	everything string            // server-everything's entry script (dist/index.js)
	versions   map[string]string // package → the version installed: pinned, or the newest (latest)
	pinned     map[string]string // package → its version in npm/package.json
	missing    map[string]string // package → why its client is not installed (latest, other platforms)
	latest     bool              // MCPWIRE_CONFORMANCE_LATEST=1: the newest published clients
	cached     bool              // true when the cache was complete before this run
}

// clientBin is one client: its mcpwire provider (its row in the summary), the name its
// scenarios carry, the npm package whose version it reports, and its binary under
// node_modules. A script, when set, is what the binary runs (oh-my-pi under Bun).
type clientBin struct {
	provider, client, pkg, bin, script string
}

// nodePlatform is this machine as Node names it (process.platform-process.arch):
// linux-x64, darwin-arm64; bunPlatform as Bun's packages do (linux-x64, darwin-aarch64).
var (
	nodeArch     = map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	nodePlatform = runtime.GOOS + "-" + nodeArch
	bunPlatform  = runtime.GOOS + "-" + map[string]string{"amd64": "x64", "arm64": "aarch64"}[runtime.GOARCH]
	// Factory's wrapper @factory/cli pins platform packages the registry does not have
	// (0.225.1); its platform package, pinned as an optional dependency, is the client.
	factoryPkg = "@factory/cli-" + nodePlatform
	// Grok Build's platform package holds its binary brotli-compressed; the install
	// unpacks it once (else it unpacks 160 MB into every scenario's ~/.grok/bin).
	grokPkg = "@xai-official/grok-" + nodePlatform
	bunPkg  = "@oven/bun-" + bunPlatform
)

// clientBins are the clients, in the order of the summary; `<bin> [script] --version`
// must print the package's version.
var clientBins = []clientBin{
	{"claude-code", "claude", "@anthropic-ai/claude-code", ".bin/claude", ""},
	{"codex", "codex", "@openai/codex", ".bin/codex", ""},
	{"gemini-cli", "gemini", "@google/gemini-cli", ".bin/gemini", ""},
	{"opencode", "opencode", "opencode-ai", ".bin/opencode", ""},
	{"copilot-cli", "copilot", "@github/copilot", ".bin/copilot", ""},
	{"qwen-code", "qwen", "@qwen-code/qwen-code", ".bin/qwen", ""},
	{"auggie", "auggie", "@augmentcode/auggie", ".bin/auggie", ""},
	{"amp", "amp", "@sourcegraph/amp", ".bin/amp", ""},
	{"kilo", "kilo", "@kilocode/cli", ".bin/kilo", ""},
	{"qoder", "qoder", "@qoder-ai/qodercli", ".bin/qodercli", ""},
	{"factory", "droid", factoryPkg, factoryPkg + "/bin/droid", ""},
	{"grok-build", "grok", "@xai-official/grok", grokPkg + "/bin/grok", ""},
	{"continue-cli", "cn", "@continuedev/cli", ".bin/cn", ""},
	{"cline", "cline", "cline", ".bin/cline", ""},
	{"omp", "omp", "@oh-my-pi/pi-coding-agent", bunPkg + "/bin/bun", "@oh-my-pi/pi-coding-agent/dist/cli.js"},
}

// helpers are the packages that are no client: the MCP server and the runtime of
// oh-my-pi. They stay pinned when the clients are the newest (latest).
var helpers = []string{"@modelcontextprotocol/server-everything", "bun"}

// rebuilt are the packages whose install script must run after `npm install
// --ignore-scripts`: Claude Code's, opencode's and Amp's (@ampcode/cli) copy their
// platform's native binary over a placeholder. The others are not needed for these
// commands (node-pty's C++ build, keytar), are replaced by the suite's own step (Grok's
// unpacks its binary into ~/.grok; bun's links its platform binary, which the suite
// runs from its platform package) or must never run (Qoder's edits ~/.bashrc,
// ~/.profile and the global git ignore file; Kilo's only caches its binary).
var rebuilt = []string{"@anthropic-ai/claude-code", "opencode-ai", "@ampcode/cli"}

// recipe is the part of the install that is not in the pinned list; it is in the cache
// key, so that changing it installs afresh.
var recipe = "install --ignore-scripts; rebuild " + strings.Join(rebuilt, " ") + "; unpack grok; copilot-pkg"

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

// pinnedList reads npm/package.json and npm/package-lock.json: the pinned packages, the
// optional ones (platform packages the suite names itself) among them.
func pinnedList() (pkg, lock []byte, deps, optional map[string]string, err error) {
	if pkg, err = os.ReadFile(filepath.Join("npm", "package.json")); err != nil {
		return nil, nil, nil, nil, err
	}
	if lock, err = os.ReadFile(filepath.Join("npm", "package-lock.json")); err != nil {
		return nil, nil, nil, nil, err
	}
	var p struct {
		Dependencies         map[string]string `json:"dependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	if err = json.Unmarshal(pkg, &p); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("npm/package.json: %w", err)
	}
	for _, m := range []map[string]string{p.Dependencies, p.OptionalDependencies} {
		for name, v := range m {
			if strings.ContainsAny(v, "^~<>=* x") || v == "" {
				return nil, nil, nil, nil, fmt.Errorf("npm/package.json: %s@%s is not an exact version", name, v)
			}
		}
	}
	return pkg, lock, p.Dependencies, p.OptionalDependencies, nil
}

// installClients makes sure the clients are in the cache and returns them: the pinned
// list, or with MCPWIRE_CONFORMANCE_LATEST=1 the newest published version of every
// client (latest_test.go).
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

	pkg, lock, deps, optional, err := pinnedList()
	if err != nil {
		return nil, err
	}
	c := &clients{node: node, pinned: map[string]string{}, missing: map[string]string{}}
	maps.Copy(c.pinned, deps)
	maps.Copy(c.pinned, optional)
	c.versions = maps.Clone(c.pinned)
	c.latest = os.Getenv(latestVar) == "1"
	if c.latest {
		if pkg, deps, optional, err = newestList(npm, deps, optional); err != nil {
			return nil, err
		}
		lock = nil
		c.versions = map[string]string{}
		maps.Copy(c.versions, deps)
		maps.Copy(c.versions, optional)
	}
	h := sha256.New()
	for _, part := range [][]byte{pkg, lock, []byte(runtime.GOOS + "/" + runtime.GOARCH + "/node" + major), []byte(recipe)} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]
	if c.latest {
		key = "latest-" + key
	}

	root, err := cacheRoot()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	dir := filepath.Join(root, key)
	c.dir = dir

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
	if c.latest {
		err = installNewest(npm, tmp, pkg, deps, optional, c.missing)
	} else {
		err = install(npm, tmp, pkg, lock, len(deps)+len(optional))
	}
	if err != nil {
		return nil, err
	}
	if err := unpackGrok(node, tmp); err != nil {
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
	if err := writeMissing(tmp, c.missing); err != nil {
		return nil, err
	}

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

// npmEnv is the environment of npm: the caller's, with a throwaway HOME, XDG folders and
// npm cache inside scratch, so that no package, install script or npm itself touches the
// caller's dotfiles or npm cache.
func npmEnv(scratch string) []string {
	env := append(os.Environ(), scratchEnv(scratch)...)
	return append(env, "npm_config_cache="+filepath.Join(scratch, "npm-cache"), "npm_config_update_notifier=false")
}

// npmInstall and npmRebuild are the two npm steps of an install.
var (
	npmInstall = []string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=warn"}
	npmRebuild = []string{"rebuild", "--ignore-scripts=false", "--no-update-notifier", "--foreground-scripts"}
)

// install runs npm in dir (npmEnv):
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
func install(npm, dir string, pkg, lock []byte, count int) error {
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
	env := npmEnv(scratch)

	p := newProgress()
	defer p.close()
	start := time.Now()
	if err := npmStep(p, dir, env, npm, fmt.Sprintf("npm install (%d packages)", count), npmInstall); err != nil {
		return err
	}
	if err := npmStep(p, dir, env, npm, "npm rebuild "+strings.Join(rebuilt, " "), append(slices.Clone(npmRebuild), rebuilt...)); err != nil {
		return err
	}
	p.printf("conformance: installed %d packages in %s\n", count, time.Since(start).Round(time.Second))
	return nil
}

// npmStep runs one npm command in dir; a failure is an error with npm's output.
func npmStep(p *progress, dir string, env []string, npm, what string, args []string) error {
	stop := p.step(what)
	res := runProcess(dir, env, installTimeout, npm, args...)
	stop()
	if res.err != nil || res.exit != 0 {
		return fmt.Errorf("npm %s failed (%s) in %s:\n--- npm stdout ---\n%s\n--- npm stderr ---\n%s",
			strings.Join(args, " "), res.status(), dir, res.stdout, res.stderr)
	}
	return nil
}

// unpackGrok unpacks Grok Build's binary (bin/grok.br, brotli) next to itself, once:
// what the package's launcher does on a first run, into every HOME's ~/.grok/bin (160
// MB, 4 s). The suite runs the binary as the launcher does (GROK_MANAGED_BY_NPM=1).
func unpackGrok(node, dir string) error {
	bin := filepath.Join(dir, "node_modules", filepath.FromSlash(grokPkg), "bin", "grok")
	if _, err := os.Stat(bin + ".br"); err != nil {
		return nil // not installed (latest, another platform), or shipped unpacked
	}
	const script = `const fs = require("fs"), zlib = require("zlib");
const [src, dst] = process.argv.slice(1);
fs.writeFileSync(dst + ".tmp", zlib.brotliDecompressSync(fs.readFileSync(src)));
fs.chmodSync(dst + ".tmp", 0o755);
fs.renameSync(dst + ".tmp", dst);`
	r := runProcess(dir, os.Environ(), installTimeout, node, "-e", script, bin+".br", bin)
	if r.err != nil || r.exit != 0 {
		return fmt.Errorf("unpack %s.br (%s):\n%s%s", bin, r.status(), r.stdout, r.stderr)
	}
	return nil
}

// scratchEnv puts HOME and every XDG folder inside dir.
func scratchEnv(dir string) []string {
	return []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(dir, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(dir, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, ".cache")}
}

func complete(dir, key string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ".complete"))
	return err == nil && strings.TrimSpace(string(b)) == key
}

// missingFile holds, in a cache folder, the clients that did not install and why.
const missingFile = ".missing.json"

func writeMissing(dir string, missing map[string]string) error {
	b, err := json.MarshalIndent(missing, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, missingFile), b, 0o644)
}

// locate finds every binary and checks that each installed package has its version
// (pinned, or the newest resolved). A client whose package is not installed is missing,
// with the reason, when that is expected: an optional platform package of another
// platform, a client whose newest version did not install (latest); anything else
// breaks the cache. Once the clients ran (runs), Copilot's unpacked package must be
// there too. Moving the folder into place after Copilot unpacked into it is fine:
// Copilot finds its package by COPILOT_PKG_CACHE_HOME and its own version.
func (c *clients) locate(ran bool) error {
	if b, err := os.ReadFile(filepath.Join(c.dir, missingFile)); err == nil {
		if err := json.Unmarshal(b, &c.missing); err != nil {
			return fmt.Errorf("%s: %w", missingFile, err)
		}
	}
	var problems []string
	for name, want := range c.versions {
		if _, gone := c.missing[name]; gone {
			continue
		}
		b, err := os.ReadFile(filepath.Join(c.dir, "node_modules", filepath.FromSlash(name), "package.json"))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s is not installed: %v", name, err))
			continue
		}
		var p struct{ Version string }
		if err := json.Unmarshal(b, &p); err != nil || p.Version != want {
			problems = append(problems, fmt.Sprintf("%s: installed version %q, want %q", name, p.Version, want))
		}
	}
	if _, ok := c.versions[factoryPkg]; !ok {
		if _, gone := c.missing[factoryPkg]; !gone {
			c.missing[factoryPkg] = fmt.Sprintf("Factory droid is pinned as a platform package, and npm/package.json has none for %s (Factory publishes %s for linux-x64 only)",
				nodePlatform, c.pinned["@factory/cli-linux-x64"])
		}
	}
	modules := filepath.Join(c.dir, "node_modules")
	bins := map[string]string{}
	for _, b := range clientBins {
		p := filepath.Join(modules, filepath.FromSlash(b.bin))
		bins[b.client] = p
		if _, gone := c.missing[b.pkg]; gone {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			problems = append(problems, fmt.Sprintf("missing client binary %s", p))
		}
	}
	c.claude, c.codex, c.gemini, c.opencode, c.copilot = bins["claude"], bins["codex"], bins["gemini"], bins["opencode"], bins["copilot"]
	c.qwen, c.auggie, c.amp, c.kilo, c.qoder = bins["qwen"], bins["auggie"], bins["amp"], bins["kilo"], bins["qoder"]
	c.droid, c.grok, c.cn, c.cline, c.bun = bins["droid"], bins["grok"], bins["cn"], bins["cline"], bins["omp"]
	c.omp = filepath.Join(modules, "@oh-my-pi", "pi-coding-agent")
	c.copilotPkg = filepath.Join(c.dir, "copilot-pkg")
	c.everything = filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(c.everything); err != nil {
		problems = append(problems, fmt.Sprintf("missing server-everything entry script: %v", err))
	}
	if _, gone := c.missing["@github/copilot"]; ran && !gone {
		if _, err := os.Stat(filepath.Join(c.copilotPkg, "pkg")); err != nil {
			problems = append(problems, fmt.Sprintf("Copilot's package is not unpacked: %v", err))
		}
	}
	if len(problems) > 0 {
		return errors.New("the client cache " + c.dir + " is broken (delete it to reinstall):\n  " + strings.Join(problems, "\n  "))
	}
	return nil
}

// runs checks that every client starts and reports its version. Copilot unpacks its
// package into c.copilotPkg on this first run, once for every scenario. With the newest
// clients (latest), one that does not start is missing, and the others run.
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
	modules := filepath.Join(c.dir, "node_modules")
	for _, b := range clientBins {
		if _, gone := c.missing[b.pkg]; gone {
			continue
		}
		v := c.versions[b.pkg]
		args := []string{"--version"}
		if b.script != "" {
			args = []string{filepath.Join(modules, filepath.FromSlash(b.script)), "--version"}
		}
		stop := p.step(b.client + " --version")
		r := runProcess(home, env, 3*time.Minute, filepath.Join(modules, filepath.FromSlash(b.bin)), args...)
		stop()
		if r.err != nil || r.exit != 0 || !strings.Contains(r.stdout, v) {
			err := fmt.Errorf("%s --version (%s) does not report %s:\n--- stdout ---\n%s--- stderr ---\n%s", b.client, r.status(), v, r.stdout, r.stderr)
			if !c.latest {
				return err
			}
			c.missing[b.pkg] = err.Error()
		}
	}
	return nil
}

// need fails the test when the client of provider is not installed (latest, or a
// platform without it), saying why.
func (c *clients) need(t *testing.T, provider string) {
	t.Helper()
	for _, b := range clientBins {
		if why, gone := c.missing[b.pkg]; b.provider == provider && gone {
			t.Fatalf("%s %s is not installed: %s", b.pkg, c.versions[b.pkg], why)
		}
	}
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
