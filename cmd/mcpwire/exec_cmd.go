package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/internal/secretstore"
	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// mcpwire exec and mcpwire headers deliver secrets (S2): a client starts them, and
// they must be quick (exec adds to every server's start) and quiet. Run takes them
// before anything else — no registry, no layer, no project, no signal handling — and
// the commands of the app (help, man page, completion, a global flag before them)
// come to the same functions.

// Run runs mcpwire with args (without the program name): exec and headers at once,
// everything else through Main.
func Run(args []string) (code int) {
	if code, ok := runDelivery(args, os.Stdout, os.Stderr); ok {
		return code
	}
	// A large file is mapped, not read (internal/bigbuf): a page of it another
	// program cut off while mcpwire reads it faults. A transaction's edits turn that
	// into the file changing (fsys, editFrom) and read it again; anywhere else (a dry
	// run's diff, a listing) the command stops with an error, never a crash.
	if err := bigbuf.Guard(func() { code = Main(args, NewOSEnv()) }); err != nil {
		return fail(os.Stderr, 1, fmt.Errorf("a file changed while mcpwire was reading it (%w)", err), "run the command again")
	}
	return code
}

// runDelivery runs exec or headers, and reports false for any other command (or a
// request for help). exec's server gets the process's own standard streams whatever
// stdout and stderr are: they are for mcpwire's own messages.
func runDelivery(args []string, stdout, stderr io.Writer) (int, bool) {
	if len(args) > 0 && !helpAsked(args[1:]) {
		switch args[0] {
		case secretref.ExecCommand:
			return runExec(args[1:], stderr), true
		case secretref.HeadersCommand:
			return runHeaders(args[1:], stdout, stderr), true
		}
	}
	return 0, false
}

// helpAsked reports whether args ask for help before any "--".
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", completionFlag:
			return true
		}
	}
	return false
}

// fail prints one error line (and hints) of exec or headers and returns code.
func fail(w io.Writer, code int, err error, hints ...string) int {
	fmt.Fprintf(w, "mcpwire: error: %s\n", termtext.Line(err.Error()))
	for _, h := range hints {
		fmt.Fprintf(w, "mcpwire: hint: %s\n", termtext.Line(h))
	}
	return code
}

// stores is where exec and headers resolve references: this process's environment.
func stores() secretstore.Env {
	home, _ := os.UserHomeDir()
	return secretstore.Env{Home: home}
}

// runExec resolves each --env-secret K=REF and replaces mcpwire with the command, its
// environment holding the values (S2, S3). A reference that does not resolve stops
// the start with one line naming the variable, the reference and the store's error,
// exit status 1; a command that is not found is 127, one that cannot run 126, as env(1)
// says them.
func runExec(args []string, stderr io.Writer) int {
	x, err := secretref.ParseExec(args)
	if err != nil {
		return fail(stderr, exitUsage, fmt.Errorf("exec: %w", err), "mcpwire exec --env-secret K=REF … -- COMMAND ARG…")
	}
	environ := os.Environ()
	st := stores()
	for _, k := range slices.Sorted(maps.Keys(x.Env)) {
		v, err := st.Resolve(context.Background(), x.Env[k])
		if err != nil {
			return fail(stderr, exitFailed, fmt.Errorf("exec: %s not started: %s from %w", x.Command[0], k, err))
		}
		environ = setEnv(environ, k, v)
	}
	path, err := exec.LookPath(x.Command[0])
	if err != nil {
		code := 127
		if !errors.Is(err, exec.ErrNotFound) {
			code = 126
		}
		return fail(stderr, code, fmt.Errorf("exec: %s: %w", x.Command[0], unwrapExec(err)))
	}
	return replaceWith(path, x.Command, environ, stderr)
}

// unwrapExec is os/exec's error without the name it repeats.
func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// setEnv sets k=v in environ, replacing every entry of k.
func setEnv(environ []string, k, v string) []string {
	out := slices.DeleteFunc(environ, func(kv string) bool { return strings.HasPrefix(kv, k+"=") })
	return append(out, k+"="+v)
}

// runHeaders prints the headers its references name as one JSON object of strings,
// for a client's headers helper (Claude Code's headersHelper, S2): --header-secret
// H=REF gives H, --bearer-secret REF gives Authorization: Bearer VALUE. It prints
// nothing to a terminal — the values are for the client that reads its output — and
// on a failure nothing on stdout, one line on stderr, exit status 1.
func runHeaders(args []string, stdout, stderr io.Writer) int {
	h, err := secretref.ParseHeaders(args)
	if err != nil {
		return fail(stderr, exitUsage, fmt.Errorf("headers: %w", err), "mcpwire headers --header-secret H=REF … --bearer-secret REF")
	}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return fail(stderr, exitFailed, errors.New("headers: the output is a terminal: it prints credentials for a client to read, never on a screen"),
			"mcpwire status --check tells whether the references resolve, without printing a value")
	}
	st := stores()
	out := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(h.Headers)) {
		v, err := st.Resolve(context.Background(), h.Headers[name])
		if err != nil {
			return fail(stderr, exitFailed, fmt.Errorf("headers: %s from %w", name, err))
		}
		out[name] = v
	}
	if h.Bearer != "" {
		v, err := st.Resolve(context.Background(), h.Bearer)
		if err != nil {
			return fail(stderr, exitFailed, fmt.Errorf("headers: Authorization from %w", err))
		}
		out["Authorization"] = "Bearer " + v
	}
	b, _ := json.Marshal(out)
	if _, err := stdout.Write(append(b, '\n')); err != nil {
		return fail(stderr, exitFailed, fmt.Errorf("headers: %w", err))
	}
	return exitOK
}

// execCommand and headersCommand are exec and headers in the app: their help, the
// man page, completion, and a run with a global flag before them (--config-dir, which
// they do not use).
func execCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      secretref.ExecCommand,
		Usage:     "resolve secret references into the environment and replace mcpwire with the command (what a client's entry starts)",
		ArgsUsage: "-- COMMAND ARG…",
		Flags:     []cli.Flag{argFlag("env-secret", "K=REF: set K to the secret REF names (op://VAULT/ITEM/FIELD, pass:PATH, keyring:SERVICE/ACCOUNT, file:PATH); repeat")},
		Action: func(c *cli.Context) error {
			if !env.dashdash {
				return usagef("exec needs the command after --: mcpwire exec --env-secret K=REF -- COMMAND ARG…")
			}
			var args []string
			for _, kv := range argList(c, "env-secret") {
				args = append(args, secretref.EnvFlag, kv)
			}
			return exitCode(runExec(append(append(args, "--"), env.passthrough...), env.Stderr))
		},
	}
}

func headersCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  secretref.HeadersCommand,
		Usage: "print the headers secret references name, as JSON, for a client's headers helper (never to a terminal)",
		Flags: []cli.Flag{
			argFlag("header-secret", "H=REF: header H from the secret REF names; repeat"),
			&cli.StringFlag{Name: "bearer-secret", Usage: "REF: Authorization: Bearer and the secret REF names"},
		},
		Action: func(c *cli.Context) error {
			var args []string
			for _, kv := range argList(c, "header-secret") {
				args = append(args, secretref.HeaderFlag, kv)
			}
			if c.IsSet("bearer-secret") {
				args = append(args, secretref.BearerFlag, c.String("bearer-secret"))
			}
			return exitCode(runHeaders(args, env.Stdout, env.Stderr))
		},
	}
}

// exitCode carries the status of exec or headers (which printed their own errors)
// through the app.
func exitCode(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitCodeError{code: code}
}

// resolveVars resolves each "VAR=REF" into a name, value pair for a client's
// environment (session, S2); an error names the variable, the reference and the
// store's error.
func resolveVars(env *Env, vars []string) ([]string, error) {
	var out []string
	for _, kv := range vars {
		k, ref, _ := strings.Cut(kv, "=")
		v, err := env.resolveSecret(ref)
		if err != nil {
			return nil, fmt.Errorf("%s from %w", k, err)
		}
		out = append(out, k, v)
	}
	return out, nil
}

// checkTimeout bounds one reference's check in status and audit: a store that waits
// for a person (an unlock prompt) is reported, not waited for.
const checkTimeout = 10 * time.Second

// checkSecret reports whether a reference resolves, without its value (S4).
func (e *Env) checkSecret(ref string) error {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	return secretstore.Env{Home: e.Home}.Check(ctx, ref)
}

// resolveSecret resolves a reference for a server probe starts (S2, S3).
func (e *Env) resolveSecret(ref string) (string, error) {
	return secretstore.Env{Home: e.Home}.Resolve(context.Background(), ref)
}
