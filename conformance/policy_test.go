//go:build conformance && unix

package conformance

// The organisation policy's proof (spec: G4): an organisation layer holds a server
// policy and the registry that defines the ten servers it allows; `mcpwire policy
// compile` renders it into each client's admin files; the files are laid over /etc in
// a mount namespace of the client's own (this machine's /etc is untouched); 20 servers
// — ten allowed, and ten others among them a renamed copy of an allowed server, one
// wrapped in `cmd /c`, one at another version, one by another path to the program, one
// whose name differs in case — are written into the client's user file; and the
// client's own list says which it loads. A control run without the files first shows
// that every one of the 20 loads.
//
// Two shapes of policy: the recommended one, which allows the ten by name (it pins the
// servers: Claude Code gets a managed-mcp.json), where every client must load the ten
// allowed and none of the ten denied; and one that allows the ten by their commands,
// where mcpwire's canonical form admits the renamed, wrapped and recapitalised copies
// and the clients that match names differ. The policy's verdict for each server is
// mcpwire's own (policy.Decide). Where a client does not do what the policy says, the
// disagreement is listed in knownPolicyMisses with why, and reported in the table the
// test logs; a disagreement not listed, or a listed one that agrees now, fails.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/policy"
)

// policyServer is one of the 20 servers: its entry, and what it is.
type policyServer struct {
	srv
	variant string
}

// argv is the server's command line.
func (s policyServer) argv() []string { return append([]string{s.command}, s.args...) }

// policyServers are the 20 servers. Every command is confsrv (on PATH); an argument
// plays the package and its version. cmd is a shim that runs what follows /c, as
// Windows does, so that a wrapped server starts when a client lets it.
func policyServers(bin string) []policyServer {
	var out []policyServer
	for i := 1; i <= 10; i++ {
		n := fmt.Sprintf("a%02d", i)
		out = append(out, policyServer{srv{name: n, command: "confsrv", args: []string{n + "@1.0.0"}}, "in the registry"})
	}
	other := func(name, variant string, argv ...string) policyServer {
		return policyServer{srv{name: name, command: argv[0], args: argv[1:]}, variant}
	}
	return append(out,
		other("evil", "denied by name", "confsrv", "evil@1.0.0"),
		other("rogue", "unlisted", "confsrv", "rogue@1.0.0"),
		other("a01-renamed", "a01's command, renamed", "confsrv", "a01@1.0.0"),
		other("a02-wrapped", "a02's command in cmd /c, renamed", "cmd", "/c", "confsrv", "a02@1.0.0"),
		other("a03-bumped", "a03 at another version, renamed", "confsrv", "a03@1.0.1"),
		other("A04", "a04's command, its name in capitals", "confsrv", "a04@1.0.0"),
		other("a05-path", "a05 by its program's path, renamed", filepath.Join(bin, "confsrv"), "a05@1.0.0"),
		other("bad", "denied by command", "confsrv", "bad@1"),
		other("bad-wrapped", "the denied command in cmd /c", "cmd", "/c", "confsrv", "bad@1"),
		other("bad-bumped", "the denied command at another version", "confsrv", "bad@2"),
	)
}

// policyShape is one policy of the proof.
type policyShape struct {
	name string
	// rule is the allow rule of the registry's server n
	rule func(n string) string
}

var policyShapes = []policyShape{
	{"by name", func(n string) string { return fmt.Sprintf(`{"name": %q}`, n) }},
	{"by command", func(n string) string { return fmt.Sprintf(`{"command": ["confsrv", "%s@1.0.0"]}`, n) }},
}

// policyJSON is the organisation's policy of a shape: the ten registry servers
// allowed, a deny rule by name and one by command.
func (sh policyShape) policyJSON() string {
	var allow []string
	for i := 1; i <= 10; i++ {
		allow = append(allow, sh.rule(fmt.Sprintf("a%02d", i)))
	}
	return `{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", "allowUnlisted": false,
  "allow": [` + strings.Join(allow, ", ") + `],
  "deny": [{"name": "evil"}, {"command": ["confsrv", "bad@1"]}]}
`
}

// verdicts are mcpwire's decisions of the policy: server name → allowed.
func (sh policyShape) verdicts(t *testing.T, ss []policyServer) map[string]bool {
	p, problems := policy.ParseServerPolicy("mcp-policy.json", []byte(sh.policyJSON()))
	if len(problems) > 0 {
		t.Fatalf("the %s policy: %v", sh.name, problems)
	}
	out := map[string]bool{}
	for _, s := range ss {
		out[s.name] = p.Decide(policy.Candidate{Name: s.name, Command: s.argv()}) == nil
	}
	return out
}

// policyRegistry is the organisation's registry: the ten a servers.
func policyRegistry(ss []policyServer) string {
	servers := map[string]any{}
	for _, s := range ss[:10] {
		servers[s.name] = map[string]any{"type": "stdio", "command": s.command, "args": s.args}
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": servers})
	return string(b)
}

// cmdShim runs what follows /c.
const cmdShim = `#!/bin/sh
while [ $# -gt 0 ] && [ "$1" != /c ] && [ "$1" != /C ]; do shift; done
[ $# -gt 0 ] && shift
exec "$@"
`

// policyClients are the real loaders of G4.
var policyClients = []string{"claude-code", "codex", "gemini-cli", "copilot-cli"}

// knownPolicyMisses are the cells where a client, given the compiled files, does not
// do what the policy says: "shape/client/server" → why.
var knownPolicyMisses = map[string]string{
	"by name/gemini-cli/A04": geminiFoldsCase,
	"by command/codex/a01-renamed": "Codex admits a server by its name and identity together: the compiled requirements list the registry's names, " +
		"so a copy of an allowed command under another name is refused (stricter than the policy; compile warns)",
	"by command/codex/a02-wrapped": "Codex matches the program exactly, and the copy is under another name: refused (stricter; compile warns)",
	"by command/codex/A04":         "Codex compares names exactly: A04 is not the registry's a04 (stricter)",
	"by command/gemini-cli/a01-renamed": "Gemini CLI matches names only: a command rule is written as the registry's names it admits, " +
		"so a copy under another name is refused (stricter; compile warns)",
	"by command/gemini-cli/a02-wrapped": "Gemini CLI matches names only: refused under another name (stricter; compile warns)",
}

const geminiFoldsCase = "Gemini CLI 0.61.0's `mcp list` compares a server's name with mcp.allowed without case " +
	"(canLoadServer: normalizeServerId lower-cases and trims), so A04 passes as a04 there; its session's check " +
	"(McpClientManager.isBlockedBySettings) compares exactly. compile warns of it (G3)"

// TestPolicyCompiledFiles: the compiled admin files make the real clients load what the
// policy allows and nothing it denies.
//
// spec: G3 G4
func TestPolicyCompiledFiles(t *testing.T) {
	if _, err := exec.LookPath(unshare); err != nil || os.Geteuid() != 0 {
		t.Fatalf("G4 lays the compiled files over /etc in a mount namespace: it needs %s and root (euid %d)", unshare, os.Geteuid())
	}
	var mu sync.Mutex
	loaded := map[string]map[string]map[string]bool{} // shape → client → loaded
	for _, sh := range policyShapes {
		loaded[sh.name] = map[string]map[string]bool{}
	}
	t.Run("clients", func(t *testing.T) {
		for _, provider := range policyClients {
			lc := liveClientNamed(t, provider)
			t.Run(provider, func(t *testing.T) {
				t.Parallel()
				cl.need(t, provider)
				for _, sh := range policyShapes {
					t.Run(strings.ReplaceAll(sh.name, " ", "-"), func(t *testing.T) {
						clientSlots <- struct{}{}
						defer func() { <-clientSlots }()
						got := runPolicyCell(t, sh, lc)
						mu.Lock()
						loaded[sh.name][provider] = got
						mu.Unlock()
					})
				}
			})
		}
	})
	ss := policyServers("/bin")
	for _, sh := range policyShapes {
		reportPolicy(t, sh, ss, sh.verdicts(t, ss), loaded[sh.name])
	}
}

// runPolicyCell writes the 20 servers into the client's user file, checks that the
// client loads every one, compiles the shape's policy, and returns what the client
// loads with the compiled files laid over /etc.
func runPolicyCell(t *testing.T, sh policyShape, lc *liveClient) map[string]bool {
	c := newCell(t)
	if err := os.WriteFile(filepath.Join(c.bin, "cmd"), []byte(cmdShim), 0o755); err != nil {
		t.Fatal(err)
	}
	ss := policyServers(c.bin)
	verdicts := sh.verdicts(t, ss)
	org := filepath.Join(c.base, "org")
	writeFile(t, filepath.Join(org, "mcp-policy.json"), sh.policyJSON())
	writeFile(t, filepath.Join(org, "mcp-servers.json"), policyRegistry(ss))
	c.extra = append(c.extra, "AIWG_CONFIG_LAYERS="+org)
	if lc.provider == "gemini-cli" {
		lc.trust(c, c.start)
	}
	var all []srv
	for _, s := range ss {
		all = append(all, s.srv)
	}
	if !c.user(lc, all...) {
		t.Fatalf("%s has no user file", lc.provider)
	}
	c.flush()
	list := lc.list
	if l, ok := policyListers[lc.provider]; ok {
		list = l
	}
	// the control: without the compiled files every one of the 20 loads, so that a
	// server left out below is left out by the files
	if got, r := listUntil(c, list, func(got map[string]bool) bool { return len(got) == len(ss) }); len(got) != len(ss) {
		t.Errorf("without the compiled files %s loads %d of the %d servers (%v): the proof needs every one to start\n%s",
			lc.provider, len(got), len(ss), slices.Sorted(maps.Keys(got)), runText(r))
	}
	out := filepath.Join(c.base, "compiled")
	if r := c.run(mcpwire, "policy", "compile", "--out", out); r.exit != 0 {
		t.Fatalf("mcpwire policy compile: %s\n%s%s", r.status(), r.stdout, r.stderr)
	}
	// the compiled tree's linux/etc is laid over /etc for every run of the client;
	// an allowed server that misses a client's connect timeout on a loaded machine
	// reads as not loaded: what the client reads does not change between tries
	c.etc = filepath.Join(out, "linux", "etc")
	got, r := listUntil(c, list, func(got map[string]bool) bool {
		for _, s := range ss {
			if verdicts[s.name] && !got[s.name] {
				return false
			}
		}
		return true
	})
	t.Logf("%s, policy %s, loads %v\n%s", lc.provider, sh.name, slices.Sorted(maps.Keys(got)), runText(r))
	return got
}

// runText is a run as the test shows it.
func runText(r result) string {
	return fmt.Sprintf("=== `%s` (%s)\n--- stdout\n%s--- stderr\n%s", shortCmd(r.cmd), r.status(), redact(r.stdout), redact(r.stderr))
}

// policyListers replace a client's list where it does not apply the managed policy:
// Copilot CLI's `mcp list` lists every configured server, the managed settings
// notwithstanding (seen with 1.0.102), so a prompt in offline mode against the
// loopback model (BYOK) says which servers' tools the session offers.
var policyListers = map[string]func(c *cell) (map[string]bool, result){
	"copilot-cli": func(c *cell) (map[string]bool, result) {
		key := "policy-copilot-" + strings.ReplaceAll(strings.Trim(c.base, "/"), "/", "-")
		model.forget(key)
		c.extra = append(c.extra, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+model.base+"/"+key+"/v1",
			"COPILOT_PROVIDER_API_KEY=conformance", "COPILOT_MODEL="+modelName)
		r := c.run(cl.copilot, "-p", "say hello", "-s", "--allow-all-tools")
		set := map[string]bool{}
		requests := model.requests(key)
		for _, tools := range requests {
			for _, tool := range tools {
				if server, ok := strings.CutSuffix(tool, "-ping"); ok {
					set[server] = true
				}
			}
		}
		r.stdout += fmt.Sprintf("\n(tools offered to the model: %v)\n", requests)
		return set, r
	},
}

// listUntil runs a client's list until done holds of what it loads, at most attempts
// times.
func listUntil(c *cell, list func(c *cell) (map[string]bool, result), done func(map[string]bool) bool) (map[string]bool, result) {
	var got map[string]bool
	var r result
	for attempt := 1; attempt <= attempts; attempt++ {
		if got, r = list(c); done(got) {
			break
		}
	}
	return got, r
}

// liveClientNamed is the explain matrix's client of that name.
func liveClientNamed(t *testing.T, provider string) *liveClient {
	for _, lc := range liveClients {
		if lc.provider == provider {
			return lc
		}
	}
	t.Fatalf("no client %s in liveClients", provider)
	return nil
}

// reportPolicy logs a shape's table and fails on a disagreement knownPolicyMisses does
// not explain, or a known one that agrees now.
func reportPolicy(t *testing.T, sh policyShape, ss []policyServer, verdicts map[string]bool, loaded map[string]map[string]bool) {
	if len(loaded) == 0 {
		t.Fatalf("policy %s: no client ran", sh.name)
	}
	var b strings.Builder
	b.WriteString("| server | what it is | policy |")
	for _, p := range policyClients {
		b.WriteString(" " + p + " |")
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(policyClients)) + "\n")
	allowedN, deniedN := map[string]int{}, map[string]int{}
	nAllowed := 0
	var misses []string
	for _, s := range ss {
		want := "denied"
		if verdicts[s.name] {
			want = "allowed"
			nAllowed++
		}
		fmt.Fprintf(&b, "| %s | %s | %s |", s.name, s.variant, want)
		for _, p := range policyClients {
			got, ran := loaded[p]
			if !ran {
				b.WriteString(" – |")
				continue
			}
			cell := "not loaded"
			if got[s.name] {
				cell = "loaded"
				if verdicts[s.name] {
					allowedN[p]++
				} else {
					deniedN[p]++
				}
			}
			key := sh.name + "/" + p + "/" + s.name
			why, known := knownPolicyMisses[key]
			switch agree := got[s.name] == verdicts[s.name]; {
			case !agree && !known:
				t.Errorf("policy %s, %s: server %s (%s, %s by the policy) is %s: a disagreement nobody explained", sh.name, p, s.name, s.variant, want, cell)
				cell = "✗ " + cell
			case !agree:
				cell = "✗ " + cell + " (known)"
				misses = append(misses, fmt.Sprintf("%s × %s: %s", p, s.name, why))
			case known:
				t.Errorf("%s: listed as a disagreement (%s), and the client agrees with the policy now: drop it from knownPolicyMisses", key, why)
				cell = "✓ " + cell
			default:
				cell = "✓ " + cell
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	for _, row := range []struct {
		label string
		n     map[string]int
		of    int
	}{{"allowed loaded", allowedN, nAllowed}, {"denied loaded", deniedN, len(ss) - nAllowed}} {
		fmt.Fprintf(&b, "| **%s** | | |", row.label)
		for _, p := range policyClients {
			if _, ran := loaded[p]; !ran {
				b.WriteString(" – |")
				continue
			}
			fmt.Fprintf(&b, " %d of %d |", row.n[p], row.of)
		}
		b.WriteString("\n")
	}
	if len(misses) > 0 {
		b.WriteString("\nDisagreements (listed in knownPolicyMisses):\n\n")
		for _, m := range misses {
			b.WriteString("- " + m + "\n")
		}
	}
	t.Logf("organisation policy %s, compiled (spec: G4):\n%s", sh.name, b.String())
	if out := os.Getenv("MCPWIRE_POLICY_MATRIX"); out != "" {
		f, err := os.OpenFile(out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = fmt.Fprintf(f, "### Policy %s\n\n%s\n", sh.name, b.String())
			f.Close()
		}
		if err != nil {
			t.Error(err)
		}
	}
}
