//go:build conformance && unix

package conformance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Secrets from a store, delivered by the real clients (issue 28, S2, S3, S6): two
// secrets live in a real password store (pass, with a throwaway GPG key) in the
// scenario's HOME, and nowhere else — not in the clients' environment, not in any file
// but the store's encrypted entries:
//
//	sec     stdio  envSecret CONF_SECRET=pass:conf/stdio   the client starts mcpwire exec
//	secweb  http   bearerSecret pass:conf/bearer           Claude Code: headersHelper runs
//	                                                       mcpwire headers; the others read
//	                                                       MCPWIRE_SECRET_SECWEB_BEARER, set
//	                                                       by mcpwire exec -- CLIENT
//
// Each client's own `mcp list` connects: the stdio server — a recorder in front of
// server-everything — must have its secret in its environment, and the HTTP server
// (behind the header-recording proxy) must receive "Bearer <secret>". Then nothing may
// hold either value but those two: the recorder scans every process's command line
// (/proc/*/cmdline) and every other process's environment while it runs, the test
// scans the command lines of every process while the client runs, every file under
// the scenario's folder afterwards (the client's own logs and caches included), and
// every output of mcpwire and of the client.
//
// spec: S2 S3 S6 Q3
func TestSecretsDelivered(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		provider, client, bin string
		setup                 func(s *scenario)
		// args is the client's command that starts the servers (default: mcp list)
		args []string
		// until, when set, is when that command has done its part: the suite then
		// stops it (codex exec waits for a model the closed network does not reach)
		until func(s *scenario) bool
	}{
		{"claude-code", "claude", cl.claude, func(s *scenario) {
			writeFile(s.t, filepath.Join(s.home, ".claude.json"), fmt.Sprintf(`{"projects":{%q:{"hasTrustDialogAccepted":true}}}`, s.proj))
		}, nil, nil},
		{"gemini-cli", "gemini", cl.gemini, func(s *scenario) {
			writeFile(s.t, filepath.Join(s.home, ".gemini", "trustedFolders.json"), fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, s.proj))
		}, nil, nil},
		{"opencode", "opencode", cl.opencode, nil, nil, nil},
		{"qwen-code", "qwen", cl.qwen, nil, nil, nil},
		// Codex's mcp list does not connect; a session does, at its start, before it
		// asks the model: codex exec with a model provider on a closed port
		{"codex", "codex", cl.codex, func(s *scenario) {
			writeFile(s.t, filepath.Join(s.home, ".codex", "config.toml"), `model = "conformance-model"
model_provider = "closed"

[model_providers.closed]
name = "closed"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`)
		}, []string{"exec", "--skip-git-repo-check", "say hello please"}, func(s *scenario) bool {
			_, err := os.Stat(s.recordFile("sec"))
			return err == nil && len(relay.headers(s.name, "secweb")) > 0
		}},
	} {
		t.Run(c.provider, func(t *testing.T) {
			s := newScenario(t, c.provider, c.client+"-secrets", "user")
			if c.setup != nil {
				c.setup(s)
			}
			passStore(s)
			rec := filepath.Join(s.root, "rec", "sec.cjs")
			secretRecorder(s, rec)
			var outputs []result
			outputs = append(outputs,
				s.mcpwire("server", "add", "sec", "--env-secret", "CONF_SECRET=pass:conf/stdio", "--", "node", rec, "stdio"),
				s.mcpwire("server", "add", "secweb", "--type", "http", "--url", s.url("secweb"), "--bearer-secret", "pass:conf/bearer"))
			r := s.mcpwire("inject", "--provider", c.provider, "--scope", "user", "--servers", "sec,secweb")
			outputs = append(outputs, r)
			args := []string{"mcp", "list"}
			if c.args != nil {
				args = c.args
			}
			bin := c.bin
			if c.provider != "claude-code" {
				// the launch inject names: the client through mcpwire exec, which sets
				// the variable standing for the bearer token from its reference, with
				// the client's own arguments that keep it from writing its environment
				// (Codex's shell snapshots)
				const launch = "mcpwire exec --env-secret MCPWIRE_SECRET_SECWEB_BEARER=pass:conf/bearer -- "
				_, line, ok := strings.Cut(r.stdout, launch)
				if !ok {
					t.Fatalf("inject does not say how to start %s with the secret's variable (%q):\n%s", c.provider, launch, redactSecrets(r.stdout))
				}
				line, _, _ = strings.Cut(line, "\n")
				line, _, _ = strings.Cut(line, " (or mcpwire session")
				words := strings.Fields(line) // the client's name (CLIENT where mcpwire knows none), its arguments
				args = append(append([]string{"exec", "--env-secret", "MCPWIRE_SECRET_SECWEB_BEARER=pass:conf/bearer", "--", bin}, words[1:]...), args...)
				bin = mcpwire
			}
			s.check(func(ch *checker) result {
				os.Remove(s.recordFile("sec"))
				relay.forget(s.name)
				stop := watchCmdlines()
				var r result
				if c.until != nil {
					r = clientUntil(s, func() bool { return c.until(s) }, bin, args...)
				} else {
					r = s.client(bin, args...)
				}
				seen := stop()
				outputs = append(outputs, r)
				if len(seen) > 0 {
					ch.errorf("a secret was in the command line of %s while the client ran", strings.Join(seen, "; "))
				}
				checkSecretRecord(s, ch)
				var got []string
				for _, h := range relay.headers(s.name, "secweb") {
					got = append(got, h.Get("Authorization"))
				}
				if len(got) == 0 {
					ch.serverf("secweb", "the client sent no request")
				} else if !slices.Contains(got, "Bearer "+storeSecrets["bearer"]) {
					ch.serverf("secweb", "no request had Authorization: Bearer and the secret (%d requests: %s)", len(got), redactSecrets(strings.Join(got, ", ")))
				}
				return r
			})
			for _, r := range outputs {
				for name, v := range storeSecrets {
					if strings.Contains(r.stdout+r.stderr, v) {
						t.Errorf("`%s` printed the %s secret", shortCmd(r.cmd), name)
					}
				}
			}
			for _, f := range filesHolding(t, s.root) {
				t.Errorf("%s holds a secret's value", f)
			}
		})
	}
}

// storeSecrets are the values in the password store. Unlike the sentinels, no process
// of the suite gets them in its environment: only the store holds them.
var storeSecrets = map[string]string{
	"stdio":  "store-secret-stdio-4a1c9e",
	"bearer": "store-secret-bearer-77d03b",
}

// redactSecrets hides the store's values in text that is printed.
func redactSecrets(text string) string {
	for k, v := range storeSecrets {
		text = strings.ReplaceAll(text, v, "<store secret "+k+">")
	}
	return text
}

// passStore makes the scenario's password store at pass's default place,
// ~/.password-store, encrypted to a throwaway GPG key without a passphrase in
// ~/.gnupg, and stores the secrets there: pass finds them with no variable set, as a
// person's would (a client that filters its servers' environment cannot lose them).
func passStore(s *scenario) {
	s.t.Helper()
	env := s.baseEnv()
	gnupg := filepath.Join(s.home, ".gnupg")
	if err := os.MkdirAll(gnupg, 0o700); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { runProcess(s.home, env, time.Minute, "gpgconf", "--kill", "gpg-agent") })
	run := func(stdin string, name string, args ...string) string {
		s.t.Helper()
		cmd := fmt.Sprintf("printf '%%s\\n' %s | %s", shellQuote(stdin), shellQuote(name))
		for _, a := range args {
			cmd += " " + shellQuote(a)
		}
		r := runProcess(s.home, env, time.Minute, "sh", "-c", cmd)
		if r.err != nil || r.exit != 0 {
			s.t.Fatalf("%s %s: %s\n%s", name, strings.Join(args, " "), r.status(), redactSecrets(r.stdout+r.stderr))
		}
		return r.stdout
	}
	run("", "gpg", "--batch", "--passphrase", "", "--quick-gen-key", "conformance <conformance@mcpwire.invalid>", "default", "default", "never")
	var fpr string
	for _, line := range strings.Split(run("", "gpg", "--batch", "--list-keys", "--with-colons"), "\n") {
		if f := strings.Split(line, ":"); len(f) > 9 && f[0] == "fpr" {
			fpr = f[9]
			break
		}
	}
	if fpr == "" {
		s.t.Fatal("gpg made no key")
	}
	run("", "pass", "init", fpr)
	run(storeSecrets["stdio"], "pass", "insert", "--multiline", "--force", "conf/stdio")
	run(storeSecrets["bearer"], "pass", "insert", "--multiline", "--force", "conf/bearer")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// secretRecorder writes at path the script server sec runs: it records the sha256 of
// CONF_SECRET (never the value: the record is a file under the scanned folder), how
// many processes' command lines hold the value, and how many processes other than
// itself have it in their environment, then runs server-everything.
func secretRecorder(s *scenario, path string) {
	out, _ := json.Marshal(s.recordFile("sec"))
	target, _ := json.Marshal(cl.everything)
	writeFile(s.t, path, fmt.Sprintf(`const fs = require("node:fs");
const crypto = require("node:crypto");
const v = process.env.CONF_SECRET ?? "";
let cmdline = 0, environ = 0, procs = 0;
for (const pid of fs.readdirSync("/proc")) {
  if (!/^\d+$/.test(pid)) continue;
  procs++;
  try { if (v && fs.readFileSync("/proc/" + pid + "/cmdline").includes(v)) cmdline++; } catch {}
  try { if (v && pid !== String(process.pid) && fs.readFileSync("/proc/" + pid + "/environ").includes(v)) environ++; } catch {}
}
fs.appendFileSync(%s, JSON.stringify({sha256: crypto.createHash("sha256").update(v).digest("hex"), set: "CONF_SECRET" in process.env, cmdline, environ, procs}) + "\n");
import(%s);
`, out, target))
}

// checkSecretRecord checks what the recorder of server sec recorded at its start.
func checkSecretRecord(s *scenario, c *checker) {
	b, err := os.ReadFile(s.recordFile("sec"))
	if err != nil {
		c.serverf("sec", "not started (no record of its start)")
		return
	}
	sum := sha256.Sum256([]byte(storeSecrets["stdio"]))
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec struct {
			Sha256                  string
			Set                     bool
			Cmdline, Environ, Procs int
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			c.serverf("sec", "unreadable record %q", line)
			continue
		}
		switch {
		case !rec.Set:
			c.serverf("sec", "started without CONF_SECRET in its environment")
		case rec.Sha256 != hex.EncodeToString(sum[:]):
			c.serverf("sec", "CONF_SECRET is not the value in the store")
		}
		if rec.Procs == 0 {
			c.serverf("sec", "the recorder read no process under /proc")
		}
		if rec.Cmdline > 0 {
			c.serverf("sec", "the secret is in the command line of %d processes", rec.Cmdline)
		}
		if rec.Environ > 0 {
			c.serverf("sec", "the secret is in the environment of %d other processes", rec.Environ)
		}
	}
}

// watchCmdlines scans the command line of every process every few milliseconds until
// stop, and returns each process (pid and the start of its command line) seen with a
// store secret in it.
func watchCmdlines() (stop func() []string) {
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var seen []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			ents, _ := os.ReadDir("/proc")
			for _, e := range ents {
				b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
				if err != nil {
					continue
				}
				for _, v := range storeSecrets {
					if strings.Contains(string(b), v) {
						line := redactSecrets(strings.ReplaceAll(string(b), "\x00", " "))
						mu.Lock()
						if w := e.Name() + ": " + line; !slices.Contains(seen, w) {
							seen = append(seen, w)
						}
						mu.Unlock()
					}
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return func() []string {
		cancel()
		<-done
		return seen
	}
}

// filesHolding lists the files under root that hold a store secret in the clear.
func filesHolding(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a socket's folder gone meanwhile, a file the client removed
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, v := range storeSecrets {
			if strings.Contains(string(b), v) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// clientUntil runs a client command like s.client until done reports true (checked
// every 50 ms) or the client's timeout, then stops its whole process group; stopping
// it is no failure, the timeout is.
func clientUntil(s *scenario, done func() bool, bin string, args ...string) result {
	r := result{cmd: strings.Join(append([]string{bin}, args...), " "), dir: s.proj}
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = s.proj, s.clientEnv()
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.err = err
		return r
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(clientTimeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case err := <-exited:
			r.exit = cmd.ProcessState.ExitCode()
			if err != nil && r.exit < 0 {
				r.err = err
			}
			break wait
		case <-deadline:
			r.err = fmt.Errorf("timed out after %s (process group killed)", clientTimeout)
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
			break wait
		case <-tick.C:
			if done() {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-exited
				break wait
			}
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stragglers
	r.took = time.Since(start)
	r.stdout, r.stderr = out.String(), errOut.String()
	return r
}
