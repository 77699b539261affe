//go:build conformance && unix

package conformance

// The organisation policy's proof (spec: G4): an organisation layer holds a server
// policy (10 servers allowed, by name) and the registry that defines them; `mcpwire
// policy compile` renders it into each client's admin files; the files are laid over
// /etc in a mount namespace of the client's own (this machine's /etc is untouched);
// all 20 servers — the 10 allowed and 10 denied, among them a renamed copy of an
// allowed server, one wrapped in `cmd /c`, one at another version, one by another
// path, one whose name differs in case — are written into the client's user file;
// and the client's own list says which it loads. Every allowed server must load and
// no denied one; where a client cannot enforce a case, the disagreement is listed in
// knownPolicyMisses with why, and reported in the table the test logs.

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
)

// policyServer is one of the 20 servers: its entry, whether the policy allows it, and
// what it is.
type policyServer struct {
	srv
	allowed bool
	variant string
}

// policyServers are the 20 servers. Every command is confsrv (on PATH); an argument
// plays the package and its version. cmd is a shim that runs what follows /c, as
// Windows does, so that a wrapped server starts when a client lets it.
func policyServers(bin string) []policyServer {
	var out []policyServer
	for i := 1; i <= 10; i++ {
		n := fmt.Sprintf("a%02d", i)
		out = append(out, policyServer{srv{name: n, command: "confsrv", args: []string{n + "@1.0.0"}}, true, "allowed by name"})
	}
	denied := func(name, variant string, argv ...string) policyServer {
		return policyServer{srv{name: name, command: argv[0], args: argv[1:]}, false, variant}
	}
	return append(out,
		denied("evil", "denied by name", "confsrv", "evil@1.0.0"),
		denied("rogue", "not listed", "confsrv", "rogue@1.0.0"),
		denied("a01-renamed", "a01's command, renamed", "confsrv", "a01@1.0.0"),
		denied("a02-wrapped", "a02's command wrapped in cmd /c, renamed", "cmd", "/c", "confsrv", "a02@1.0.0"),
		denied("a03-bumped", "a03's package at another version, renamed", "confsrv", "a03@1.0.1"),
		denied("A04", "a04 with its name in capitals", "confsrv", "a04@1.0.0"),
		denied("a05-path", "a05's command by its path, renamed", filepath.Join(bin, "confsrv"), "a05@1.0.0"),
		denied("bad", "denied by command", "confsrv", "bad@1"),
		denied("bad-wrapped", "the denied command wrapped in cmd /c", "cmd", "/c", "confsrv", "bad@1"),
		denied("bad-bumped", "the denied command at another version", "confsrv", "bad@2"),
	)
}

// policyJSON is the organisation's policy: the ten allowed by name (the shape that
// pins the servers), a deny rule by name and one by command.
func policyJSON() string {
	var allow []string
	for i := 1; i <= 10; i++ {
		allow = append(allow, fmt.Sprintf(`{"name": "a%02d"}`, i))
	}
	return `{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", "allowUnlisted": false,
  "allow": [` + strings.Join(allow, ", ") + `],
  "deny": [{"name": "evil"}, {"command": ["confsrv", "bad@1"]}]}
`
}

// policyRegistry is the organisation's registry: the ten allowed servers.
func policyRegistry(ss []policyServer) string {
	servers := map[string]any{}
	for _, s := range ss {
		if s.allowed {
			servers[s.name] = map[string]any{"type": "stdio", "command": s.command, "args": s.args}
		}
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
// do what the policy says: "client/server" → why.
var knownPolicyMisses = map[string]string{
	"gemini-cli/A04": "Gemini CLI 0.61.0's `mcp list` compares a server's name with mcp.allowed without case " +
		"(canLoadServer: normalizeServerId lower-cases and trims), so A04 passes as a04 there; its session's check " +
		"(McpClientManager.isBlockedBySettings) compares exactly. compile warns of it (G3)",
}

// TestPolicyCompiledFiles: the compiled admin files make the real clients load every
// allowed server and no denied one.
//
// spec: G3 G4
func TestPolicyCompiledFiles(t *testing.T) {
	if _, err := exec.LookPath(unshare); err != nil || os.Geteuid() != 0 {
		t.Fatalf("G4 lays the compiled files over /etc in a mount namespace: it needs %s and root (euid %d)", unshare, os.Geteuid())
	}
	var mu sync.Mutex
	loaded := map[string]map[string]bool{}
	t.Run("clients", func(t *testing.T) {
		for _, provider := range policyClients {
			lc := liveClientNamed(t, provider)
			t.Run(provider, func(t *testing.T) {
				t.Parallel()
				cl.need(t, provider)
				clientSlots <- struct{}{}
				defer func() { <-clientSlots }()
				c := newCell(t)
				if err := os.WriteFile(filepath.Join(c.bin, "cmd"), []byte(cmdShim), 0o755); err != nil {
					t.Fatal(err)
				}
				ss := policyServers(c.bin)
				org := filepath.Join(c.base, "org")
				writeFile(t, filepath.Join(org, "mcp-policy.json"), policyJSON())
				writeFile(t, filepath.Join(org, "mcp-servers.json"), policyRegistry(ss))
				c.extra = append(c.extra, "AIWG_CONFIG_LAYERS="+org)
				if lc.trust != nil && provider == "gemini-cli" {
					lc.trust(c, c.start)
				}
				var all []srv
				for _, s := range ss {
					all = append(all, s.srv)
				}
				if !c.user(lc, all...) {
					t.Fatalf("%s has no user file", provider)
				}
				c.flush()
				list := lc.list
				if l, ok := policyListers[provider]; ok {
					list = l
				}
				// the control: without the compiled files every one of the 20 loads, so
				// that a server left out below is left out by the files
				if got, r := listUntil(c, list, func(got map[string]bool) bool { return len(got) == len(ss) }); len(got) != len(ss) {
					t.Errorf("without the compiled files %s loads %d of the %d servers (%v): the proof needs every one to start\n=== `%s` (%s)\n--- stdout\n%s--- stderr\n%s",
						provider, len(got), len(ss), slices.Sorted(maps.Keys(got)), shortCmd(r.cmd), r.status(), redact(r.stdout), redact(r.stderr))
				}
				out := filepath.Join(c.base, "compiled")
				if r := c.run(mcpwire, "policy", "compile", "--out", out); r.exit != 0 {
					t.Fatalf("mcpwire policy compile: %s\n%s%s", r.status(), r.stdout, r.stderr)
				}
				// the compiled tree's linux/etc is laid over /etc for every run of the client
				c.etc = filepath.Join(out, "linux", "etc")
				// an allowed server that misses a client's connect timeout on a loaded
				// machine reads as not loaded: what the client reads does not change
				got, r := listUntil(c, list, func(got map[string]bool) bool { return allLoaded(got, ss) })
				t.Logf("%s loads %v\n=== `%s` (%s)\n--- stdout\n%s--- stderr\n%s", provider, slices.Sorted(maps.Keys(got)), shortCmd(r.cmd), r.status(), redact(r.stdout), redact(r.stderr))
				mu.Lock()
				loaded[provider] = got
				mu.Unlock()
			})
		}
	})
	reportPolicy(t, policyServers("/bin"), loaded)
}

// policyListers replace a client's list where it does not apply the managed policy:
// Copilot CLI's `mcp list` lists every configured server, the managed settings
// notwithstanding (seen with 1.0.102), so a prompt in offline mode against the
// loopback model (BYOK) says which servers' tools the session offers.
var policyListers = map[string]func(c *cell) (map[string]bool, result){
	"copilot-cli": func(c *cell) (map[string]bool, result) {
		key := "policy-copilot"
		model.forget(key)
		c.extra = append(c.extra, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+model.base+"/"+key+"/v1",
			"COPILOT_PROVIDER_API_KEY=conformance", "COPILOT_MODEL="+modelName)
		r := c.run(cl.copilot, "-p", "say hello", "-s", "--allow-all-tools")
		set := map[string]bool{}
		for _, tools := range model.requests(key) {
			for _, tool := range tools {
				if server, ok := strings.CutSuffix(tool, "-ping"); ok {
					set[server] = true
				}
			}
		}
		r.stdout += fmt.Sprintf("\n(tools offered to the model: %v)\n", model.requests(key))
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

// allLoaded reports whether every allowed server is loaded.
func allLoaded(got map[string]bool, ss []policyServer) bool {
	for _, s := range ss {
		if s.allowed && !got[s.name] {
			return false
		}
	}
	return true
}

// reportPolicy logs the table of G4 and fails on a disagreement knownPolicyMisses does
// not explain, or a known one that agrees now.
func reportPolicy(t *testing.T, ss []policyServer, loaded map[string]map[string]bool) {
	var b strings.Builder
	b.WriteString("| server | what it is | policy |")
	for _, p := range policyClients {
		b.WriteString(" " + p + " |")
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(policyClients)) + "\n")
	allowedN := map[string]int{}
	deniedN := map[string]int{}
	var misses []string
	for _, s := range ss {
		want := "denied"
		if s.allowed {
			want = "allowed"
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
				if s.allowed {
					allowedN[p]++
				} else {
					deniedN[p]++
				}
			}
			why, known := knownPolicyMisses[p+"/"+s.name]
			switch agree := got[s.name] == s.allowed; {
			case !agree && !known:
				cell = "✗ " + cell
				t.Errorf("%s: server %s (%s, %s by the policy) is %s: a disagreement nobody explained", p, s.name, s.variant, want, cell)
			case !agree:
				cell = "✗ " + cell + " (known)"
				misses = append(misses, fmt.Sprintf("%s × %s: %s", p, s.name, why))
			case known:
				t.Errorf("%s × %s: listed as a disagreement (%s), and the client agrees with the policy now: drop it from knownPolicyMisses", p, s.name, why)
			default:
				cell = "✓ " + cell
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("| **allowed loaded** | | 10 |")
	for _, p := range policyClients {
		if _, ran := loaded[p]; !ran {
			b.WriteString(" – |")
			continue
		}
		fmt.Fprintf(&b, " %d/10 |", allowedN[p])
	}
	b.WriteString("\n| **denied loaded** | | 0 |")
	for _, p := range policyClients {
		if _, ran := loaded[p]; !ran {
			b.WriteString(" – |")
			continue
		}
		fmt.Fprintf(&b, " %d/10 |", deniedN[p])
	}
	b.WriteString("\n")
	if len(misses) > 0 {
		b.WriteString("\nDisagreements:\n\n")
		for _, m := range misses {
			b.WriteString("- " + m + "\n")
		}
	}
	if len(loaded) == 0 {
		t.Fatal("no client ran")
	}
	t.Logf("organisation policy, compiled (spec: G4):\n%s", b.String())
	if out := os.Getenv("MCPWIRE_POLICY_MATRIX"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}
