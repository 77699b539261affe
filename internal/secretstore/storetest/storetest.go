// Package storetest sets up real secret stores for tests (S6): pass with a throwaway
// GPG key in a fresh GNUPGHOME and PASSWORD_STORE_DIR, and the Secret Service of a
// gnome-keyring in a private D-Bus session. When a store's programs are missing the
// test is skipped — unless MCPWIRE_REQUIRE_STORES is set (CI installs them: .ci/run),
// where it fails instead.
package storetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RequireVar makes a missing store a failure instead of a skip.
const RequireVar = "MCPWIRE_REQUIRE_STORES"

// need skips (or fails) the test unless every program is on PATH.
func need(t testing.TB, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv(RequireVar) != "" {
				t.Fatalf("%s is not installed, and %s is set", p, RequireVar)
			}
			t.Skipf("%s is not installed (set %s to make this a failure)", p, RequireVar)
		}
	}
}

// Missing returns the first of programs that is not on PATH, "" when all are.
func Missing(programs ...string) string {
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			return p
		}
	}
	return ""
}

// PassPrograms are the programs a password store needs.
var PassPrograms = []string{"pass", "gpg", "gpgconf"}

// Pass makes a password store (NewPass) for a test, stopped and removed when it ends.
func Pass(t testing.TB, dir string) []string {
	t.Helper()
	need(t, PassPrograms...)
	vars, cleanup, err := NewPass(dir)
	t.Cleanup(cleanup)
	if err != nil {
		t.Fatal(err)
	}
	return vars
}

// NewPass makes a password store: a throwaway GPG key without a passphrase in a new
// GNUPGHOME (short, under /tmp: gpg-agent's socket lives there), and a store in
// dir/password-store initialised for it. It returns the variables that select both,
// and what stops the agent and removes GNUPGHOME.
func NewPass(dir string) (vars []string, cleanup func(), err error) {
	gnupg, err := os.MkdirTemp("/tmp", "mcpgpg")
	if err != nil {
		return nil, func() {}, err
	}
	vars = []string{"GNUPGHOME=" + gnupg, "PASSWORD_STORE_DIR=" + filepath.Join(dir, "password-store")}
	env := append(os.Environ(), vars...)
	cleanup = func() {
		kill := exec.Command("gpgconf", "--kill", "gpg-agent")
		kill.Env = env
		kill.Run()
		os.RemoveAll(gnupg)
	}
	if _, err := run(env, nil, "gpg", "--batch", "--passphrase", "", "--quick-gen-key", "mcpwire test <test@mcpwire.invalid>", "default", "default", "never"); err != nil {
		return nil, cleanup, err
	}
	out, err := run(env, nil, "gpg", "--batch", "--list-keys", "--with-colons")
	if err != nil {
		return nil, cleanup, err
	}
	var fpr string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, ":"); len(f) > 9 && f[0] == "fpr" {
			fpr = f[9]
			break
		}
	}
	if fpr == "" {
		return nil, cleanup, fmt.Errorf("no key fingerprint in:\n%s", out)
	}
	if _, err := run(env, nil, "pass", "init", fpr); err != nil {
		return nil, cleanup, err
	}
	return vars, cleanup, nil
}

// PassInsert stores value at path in the store vars select (the value on stdin).
func PassInsert(t testing.TB, vars []string, path, value string) {
	t.Helper()
	if _, err := run(append(os.Environ(), vars...), []byte(value+"\n"), "pass", "insert", "--multiline", "--force", path); err != nil {
		t.Fatal(err)
	}
}

// run runs a program and returns its stdout; its error holds the program's stderr.
func run(env []string, stdin []byte, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = strings.NewReader(string(stdin))
	}
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), nil
}

// childVar marks the test process running inside its private D-Bus session.
const childVar = "MCPWIRE_SECRET_SERVICE_TEST"

// InSecretService runs the calling test (run by name, -test.run) again inside a
// private D-Bus session (dbus-run-session) with a gnome-keyring Secret Service
// unlocked with a throwaway password, its data under a new home, and reports whether
// this process is that child: the child then tests, the parent only waits and
// relays the child's result.
func InSecretService(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childVar) == t.Name() {
		return true
	}
	need(t, "dbus-run-session", "gnome-keyring-daemon", "secret-tool")
	home := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := `printf throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"`
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c", script, "sh", self, "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), childVar+"="+t.Name(), "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_RUNTIME_DIR="+filepath.Join(home, "run"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
	if err := os.MkdirAll(filepath.Join(home, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("in the Secret Service session: %v\n%s", err, out)
	}
	return false
}
