package secretref

import (
	"reflect"
	"strings"
	"testing"
)

// spec: S1 — the four stores' references are read; a malformed one is refused with a
// reason that never quotes it.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in    string
		store Store
		path  string
	}{
		{"op://Private/GitHub/token", OnePassword, "Private/GitHub/token"},
		{"op://app-prod/db/Admin Section/password", OnePassword, "app-prod/db/Admin Section/password"},
		{"op://dev/Stripe/one-time password?attribute=otp", OnePassword, "dev/Stripe/one-time password?attribute=otp"},
		{"pass:mcpwire/github/GITHUB_TOKEN", Pass, "mcpwire/github/GITHUB_TOKEN"},
		{"pass:email.com", Pass, "email.com"},
		{"keyring:mcpwire/github/GITHUB_TOKEN", Keyring, "mcpwire/github/GITHUB_TOKEN"},
		{"file:/run/secrets/token", File, "/run/secrets/token"},
		{`file:C:\secrets\token`, File, `C:\secrets\token`},
		{"file:C:/secrets/token", File, "C:/secrets/token"},
		{`file:\\server\share\token`, File, `\\server\share\token`},
	} {
		r, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if r.Store != tc.store || r.Path != tc.path || r.String() != tc.in || !Is(tc.in) {
			t.Errorf("%s: got %+v (%s)", tc.in, r, r.String())
		}
	}
	if r, _ := Parse("keyring:svc/acc/ount"); r.Service() != "svc" || r.Account() != "acc/ount" {
		t.Errorf("keyring parts: %q %q", r.Service(), r.Account())
	}
	for _, in := range []string{
		"", "ghp_SECRETVALUE123456789012345678901234", "OP://v/i/f", "op:/v/i/f",
		"op://", "op://vault/item", "op://a/b/c/d/e", "op://v//f", "op://v/i/f?x", "op://v/i/f?a=", "op://v/i$x/f",
		"op://v/ i/f\n", "pass:", "pass:/abs/path", "pass:a//b", "pass:a/../b", "pass:-rf", "pass:a/", "pass:${HOME}/x",
		"keyring:", "keyring:svc", "keyring:/acc", "keyring:svc/", "keyring:-s/a",
		"file:", "file:relative/path", "file:~/secret", "file:/x%PATH%", `file:/x"y`, "file:/x`id`",
		"pass:" + strings.Repeat("a", MaxLen),
	} {
		_, err := Parse(in)
		if err == nil || Is(in) {
			t.Errorf("%q: accepted", in)
			continue
		}
		if len(in) > 6 && strings.Contains(err.Error(), in[5:]) {
			t.Errorf("%q: the error quotes the value: %v", in, err)
		}
	}
}

// spec: S2 — the exec line holds the references and the command, and reads back.
func TestExecArgs(t *testing.T) {
	env := map[string]string{"B_TOKEN": "pass:b", "A_KEY": "op://v/i/f"}
	args := ExecArgs(env, "npx", []string{"-y", "--", "pkg"})
	want := []string{"exec", "--env-secret", "A_KEY=op://v/i/f", "--env-secret", "B_TOKEN=pass:b", "--", "npx", "-y", "--", "pkg"}
	if !reflect.DeepEqual(args, want) {
		t.Fatalf("ExecArgs = %q", args)
	}
	x, err := ParseExec(args[1:])
	if err != nil || !reflect.DeepEqual(x.Env, env) || !reflect.DeepEqual(x.Command, []string{"npx", "-y", "--", "pkg"}) {
		t.Fatalf("ParseExec = %+v, %v", x, err)
	}
	if x, err := ParseExec([]string{"--env-secret=K=file:/s", "--", "srv"}); err != nil || x.Env["K"] != "file:/s" {
		t.Errorf("= form: %+v %v", x, err)
	}
	for _, bad := range [][]string{
		{"--", ""}, {"--"}, {"--env-secret", "K=pass:x"}, {"--env-secret", "K=ghp_SECRETVALUE1234567890", "--", "x"},
		{"--env-secret", "1K=pass:x", "--", "x"}, {"--env-secret", "K=pass:x", "--env-secret", "K=pass:y", "--", "x"},
		{"ghp_SECRETVALUE1234567890", "--", "x"}, {"--env-secret"},
	} {
		_, err := ParseExec(bad)
		if err == nil {
			t.Errorf("%q: accepted", bad)
		} else if strings.Contains(err.Error(), "SECRETVALUE") {
			t.Errorf("%q: error quotes a value: %v", bad, err)
		}
	}
}

// spec: S2 — the headers helper's line holds the references and reads back.
func TestHeadersArgs(t *testing.T) {
	args := HeadersArgs(map[string]string{"X-Api-Key": "keyring:svc/acc"}, "pass:notes/token")
	want := []string{"headers", "--header-secret", "X-Api-Key=keyring:svc/acc", "--bearer-secret", "pass:notes/token"}
	if !reflect.DeepEqual(args, want) {
		t.Fatalf("HeadersArgs = %q", args)
	}
	h, err := ParseHeaders(args[1:])
	if err != nil || h.Bearer != "pass:notes/token" || h.Headers["X-Api-Key"] != "keyring:svc/acc" {
		t.Fatalf("ParseHeaders = %+v, %v", h, err)
	}
	for _, bad := range [][]string{
		{}, {"--bearer-secret", "pass:a", "--bearer-secret", "pass:b"}, {"--header-secret", "Authorization=pass:a", "--bearer-secret", "pass:b"},
		{"--header-secret", "X=pass:a", "--header-secret", "x=pass:b"}, {"--bearer-secret", "Bearer xyz"}, {"--header-secret", "X Y=pass:a"},
	} {
		if _, err := ParseHeaders(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// spec: S2 — a headers helper's command line keeps every word whole in the shell of
// either system, and reads back.
func TestShellLine(t *testing.T) {
	words := []string{"/opt/my tools/mcpwire", "headers", "--header-secret", "X=op://v/it's/f", "--bearer-secret", "pass:a/b"}
	posix := ShellLine(words, false)
	if posix != `'/opt/my tools/mcpwire' headers --header-secret 'X=op://v/it'\''s/f' --bearer-secret pass:a/b` {
		t.Errorf("posix: %s", posix)
	}
	win := ShellLine([]string{`C:\Program Files\mcpwire\mcpwire.exe`, "headers", "--bearer-secret", "op://v/My Item/f"}, true)
	if win != `"C:\Program Files\mcpwire\mcpwire.exe" headers --bearer-secret "op://v/My Item/f"` {
		t.Errorf("windows: %s", win)
	}
	for _, line := range []string{posix, win} {
		got, ok := SplitShellLine(line)
		if !ok || len(got) < 3 || got[1] != "headers" {
			t.Errorf("split %s: %q %v", line, got, ok)
		}
	}
	if got, _ := SplitShellLine(posix); !reflect.DeepEqual(got, words) {
		t.Errorf("round trip: %q", got)
	}
	for _, other := range []string{"./get-token.sh", "echo $TOKEN", "a; b", "x `id`", "'open"} {
		if got, ok := SplitShellLine(other); ok && len(got) > 1 && got[1] == "headers" {
			t.Errorf("%q read as mcpwire's", other)
		}
	}
	if _, ok := SplitShellLine("echo $TOKEN"); ok {
		t.Error("a $ expansion read as a plain line")
	}
}
