package main

import (
	"errors"
	"strings"
	"testing"
)

// spec: §0 — urfave/cli's and the flag package's errors in mcpwire's format: lowercase,
// exit 2 for every misuse, flags named as typed, and a bad value quoted only for flags
// that cannot hold a secret.
func TestUsageErrorWording(t *testing.T) {
	tests := []struct {
		args []string
		want string // the whole first line of stderr
	}{
		{[]string{"help", "nope"}, `mcpwire: error: no help topic for "nope"`},
		{[]string{"server", "help", "nope"}, `mcpwire: error: no help topic for "nope"`},
		{[]string{"-v"}, "mcpwire: error: unknown flag -v"},
		{[]string{"--v"}, "mcpwire: error: unknown flag --v"},
		{[]string{"server", "list", "-x"}, "mcpwire: error: unknown flag -x"},
		{[]string{"server", "list", "--bogus=1"}, "mcpwire: error: unknown flag --bogus"},
		{[]string{"probe", "--timeout", "abc"}, `mcpwire: error: invalid value "abc" for --timeout: want a duration such as 30s or 2m`},
		{[]string{"probe", "-timeout=abc"}, `mcpwire: error: invalid value "abc" for -timeout: want a duration such as 30s or 2m`},
		{[]string{"server", "list", "--json=maybe"}, `mcpwire: error: invalid value "maybe" for --json: want true or false`},
		{[]string{"server", "add", "x", "--command", "c", "--env"}, "mcpwire: error: flag needs an argument: --env"},
		{[]string{"server", "list", "---json"}, "mcpwire: error: bad flag syntax: ---json"},
	}
	for _, tt := range tests {
		env, _, stderr := testEnv(t, nil)
		if code := Main(tt.args, env); code != 2 {
			t.Errorf("%q: exit %d, want 2", tt.args, code)
		}
		if first, _, _ := strings.Cut(stderr.String(), "\n"); first != tt.want {
			t.Errorf("%q: stderr %q, want %q", tt.args, first, tt.want)
		}
	}
}

// spec: R8 — a flag that can hold a credential is never quoted in a bad-value error,
// nor is the reason (a parser's reason may repeat the value).
func TestUsageErrorHidesSecretFlagValues(t *testing.T) {
	for _, name := range []string{"env", "header", "env-from", "header-env", "bearer-env", "arg"} {
		st := &runState{args: []string{"server", "add", "x", "--" + name + "=SECRETVALUE"}}
		err := st.usageError(nil, errors.New(`invalid value "SECRETVALUE" for flag -`+name+`: parsing "SECRETVALUE": bad`), true)
		if got, want := err.Error(), "invalid value for --"+name; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
		var u *usageError
		if !errors.As(err, &u) {
			t.Errorf("%s: not a usage error", name)
		}
	}
}
