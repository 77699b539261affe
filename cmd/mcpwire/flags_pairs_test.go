package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// spec: §0 R1 — K=V flags take comma lists of simple pairs, but never split a value
// that holds "=": --env DSN=host=db,user=me is one variable, and --header
// Accept=a=1,b=2 one header.
func TestPairCommaLists(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"A=1,B=2", []string{"A=1", "B=2"}},
		{"A=1, B=2", []string{"A=1", "B=2"}},
		{"LIST=a,b,C=d", []string{"LIST=a,b", "C=d"}},
		{"LIST=a,b", []string{"LIST=a,b"}},
		{"DSN=host=db,user=me", []string{"DSN=host=db,user=me"}},
		{"OTEL_RESOURCE_ATTRIBUTES=service.name=x,env=prod", []string{"OTEL_RESOURCE_ATTRIBUTES=service.name=x,env=prod"}},
		{"Accept=a=1,b=2", []string{"Accept=a=1,b=2"}},
		{"A=1,B=x=y", []string{"A=1,B=x=y"}},
		{"TOKEN=abc==", []string{"TOKEN=abc=="}},
	}
	for _, tt := range tests {
		if got := splitPairs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitPairs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}

	env, _, stderr := testEnv(t, nil)
	for _, args := range [][]string{
		{"server", "add", "db", "--command", "c", "--env", "DSN=host=db,user=me", "--env", "A=1,B=2"},
		{"server", "add", "web", "--url", "https://h.example/mcp", "--header", "Accept=a=1,b=2"},
	} {
		if code := Main(args, env); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		env.reg = nil
	}
	b, err := os.ReadFile(filepath.Join(env.Home, ".aiwg", "mcp-servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Servers map[string]struct {
			Env     map[string]string `json:"env"`
			Headers map[string]string `json:"headers"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if got, want := file.Servers["db"].Env, map[string]string{"DSN": "host=db,user=me", "A": "1", "B": "2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("env = %v, want %v", got, want)
	}
	if got, want := file.Servers["web"].Headers, map[string]string{"Accept": "a=1,b=2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("headers = %v, want %v", got, want)
	}
	// the rule is in the flag's help
	env, stdout, _ := testEnv(t, nil)
	Main([]string{"server", "add", "--help"}, env)
	if !strings.Contains(stdout.String(), `never split when a value holds "="`) {
		t.Errorf("server add --help does not say when a comma list is split:\n%s", stdout)
	}
}

// spec: R8 §0 — a malformed K=V item is a usage error that shows no part of what was
// typed: without a key, all of it may be a secret.
func TestPairErrorShowsNoValue(t *testing.T) {
	for _, item := range []string{"ghp_SECRETVALUE1", "short", "=SECRETVALUE2", "SECRET,A=1"} {
		for _, flag := range []string{"--env", "--header", "--env-from", "--header-env"} {
			env, stdout, stderr := testEnv(t, nil)
			code := Main([]string{"server", "add", "x", "--url", "https://h.example/", flag, item}, env)
			if code != 2 {
				t.Errorf("%s %s: exit %d, want 2", flag, item, code)
			}
			if want := "mcpwire: error: " + flag + ": a value is not KEY=VALUE"; !strings.Contains(stderr.String(), want) {
				t.Errorf("%s %s: stderr %q, want %q", flag, item, stderr, want)
			}
			for _, part := range []string{"SECRET", "short", "ghp"} {
				if strings.Contains(stdout.String()+stderr.String(), part) {
					t.Errorf("%s %s: the output shows %q:\n%s%s", flag, item, part, stdout, stderr)
				}
			}
		}
	}
}
