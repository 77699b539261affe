// Package secretstore resolves references to secret stores (SPEC §14) by running the
// stores' own programs or reading their files: pass, the 1Password CLI (op), the OS
// credential store (secret-tool on Linux, security on macOS, Credential Manager on
// Windows) and owner-only files. It also stores a value (S5) and removes it again.
//
// A value read from a store is returned to the caller only: it is never written to a
// file, put in a program's arguments (values go to a program on its standard input),
// or held in an error. A store's program gets no standard input but what mcpwire
// gives it (never the MCP stream a server's client opened), and its output is
// captured, never passed on.
package secretstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/internal/termtext"
)

// Runner runs a store's program with args, the given standard input (nil: none) and
// environment (nil: this process's), and returns what it printed. It is the seam the
// unit tests replace.
type Runner func(ctx context.Context, name string, args []string, stdin []byte, environ []string) (stdout, stderr []byte, err error)

// Env is where the stores run.
type Env struct {
	// Environ is the environment of the stores' programs (PASSWORD_STORE_DIR,
	// GNUPGHOME, OP_SERVICE_ACCOUNT_TOKEN, DBUS_SESSION_BUS_ADDRESS…); nil is this
	// process's.
	Environ []string
	// Home is the home directory (pass's default store is ~/.password-store).
	Home string
	// Run runs the programs; nil runs them (os/exec).
	Run Runner
	// AfterWrite, when set, runs right after each change PutAll makes to a store
	// ("store" after a value is stored, "unstore" after one is removed again), with the
	// reference: the crash tests stop mcpwire there (cmd/mcpwire/testhook.go).
	AfterWrite func(stage, ref string)
}

// wrote reports a change to a store to AfterWrite.
func (e Env) wrote(stage, ref string) {
	if e.AfterWrite != nil {
		e.AfterWrite(stage, ref)
	}
}

// Store is one kind of secret store.
type Store interface {
	// Get returns the value a reference names.
	Get(ctx context.Context, r secretref.Ref) (string, error)
	// Check reports whether the reference resolves, without returning the value (S4).
	Check(ctx context.Context, r secretref.Ref) error
	// Put stores value under the reference, replacing what is there (S5).
	Put(ctx context.Context, r secretref.Ref, value string) error
	// Delete removes what the reference names (the undo of a Put).
	Delete(ctx context.Context, r secretref.Ref) error
}

// Error is a reference that did not resolve: the reference and what its store said,
// never a value.
type Error struct {
	Ref string
	// Msg is the store's own error (its program's last line on stderr, or what
	// mcpwire found).
	Msg string
	// Missing is set when the store answered that it holds no such secret (as opposed
	// to being locked, missing or failing).
	Missing bool
}

func (e *Error) Error() string { return e.Ref + ": " + e.Msg }

// For returns the store of a kind.
func (e Env) For(s secretref.Store) Store {
	switch s {
	case secretref.Pass:
		return passStore{e}
	case secretref.OnePassword:
		return opStore{e}
	case secretref.Keyring:
		return keyringStore{e}
	case secretref.File:
		return fileStore{}
	}
	return nil
}

// Resolve returns the value a reference names. Its error is an *Error naming the
// reference and the store's error (S3).
func (e Env) Resolve(ctx context.Context, ref string) (string, error) {
	r, err := secretref.Parse(ref)
	if err != nil {
		return "", &Error{Ref: "a reference", Msg: err.Error()}
	}
	v, err := e.For(r.Store).Get(ctx, r)
	if err != nil {
		return "", wrap(ref, err)
	}
	if strings.IndexByte(v, 0) >= 0 {
		return "", &Error{Ref: ref, Msg: "the value holds a NUL byte, which no environment variable or header can"}
	}
	return v, nil
}

// Check reports whether a reference resolves, without returning its value; its error
// is an *Error.
func (e Env) Check(ctx context.Context, ref string) error {
	r, err := secretref.Parse(ref)
	if err != nil {
		return &Error{Ref: "a reference", Msg: err.Error()}
	}
	if err := e.For(r.Store).Check(ctx, r); err != nil {
		return wrap(ref, err)
	}
	return nil
}

// wrap makes err an *Error of ref.
func wrap(ref string, err error) error {
	var se *Error
	if errors.As(err, &se) {
		if se.Ref == "" {
			se.Ref = ref
		}
		return se
	}
	return &Error{Ref: ref, Msg: err.Error()}
}

// getenv reads a variable of the stores' environment.
func (e Env) getenv(k string) string {
	if e.Environ == nil {
		return os.Getenv(k)
	}
	for i := len(e.Environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(e.Environ[i], k+"="); ok {
			return v
		}
	}
	return ""
}

// run runs a store's program.
func (e Env) run(ctx context.Context, name string, args []string, stdin []byte) (stdout []byte, err error) {
	run := e.Run
	if run == nil {
		run = execRun
	}
	out, errOut, err := run(ctx, name, args, stdin, e.Environ)
	if err == nil {
		return out, nil
	}
	if errors.Is(err, exec.ErrNotFound) {
		return nil, &Error{Msg: name + " is not installed (not found on PATH)"}
	}
	if msg := lastLine(errOut); msg != "" {
		return nil, &Error{Msg: name + ": " + msg}
	}
	return nil, &Error{Msg: name + ": " + err.Error()}
}

// execRun runs a program: stdin from the given bytes or the null device, stdout and
// stderr captured.
func execRun(ctx context.Context, name string, args []string, stdin []byte, environ []string) ([]byte, []byte, error) {
	path, err := lookPath(name, environ)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Env = environ
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// lookPath finds a program on the PATH of environ (this process's when nil).
func lookPath(name string, environ []string) (string, error) {
	if environ == nil {
		return exec.LookPath(name)
	}
	path := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// lastLine is the last non-empty line a program printed on stderr, its control
// characters escaped (K4) and at most 300 bytes: the store's own error.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	s := strings.TrimSpace(lines[len(lines)-1])
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return termtext.Line(s)
}

// firstLine is a value up to its first line feed (pass's convention: the first line
// is the password), without a carriage return before it.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, "\r")
}
