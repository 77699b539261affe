package policy

import (
	"encoding/json"
	"testing"
)

// spec: S1 P1 P7 K6 — a reference to a secret store is not a credential: not in env,
// headers or arguments, not under the references policy, not in a committed file, not
// in an entry that starts mcpwire exec or mcpwire headers; a literal beside it still is.
func TestSecretRefsAreNotCredentials(t *testing.T) {
	f := Fields{Server: "gh",
		Env:     map[string]string{"GITHUB_TOKEN": "op://Private/GitHub/token", "DB": "file:/run/secrets/db"},
		Headers: map[string]string{"X-Api-Key": "keyring:mcpwire/gh/X-Api-Key"},
		Args:    []string{"--token", "pass:mcpwire/gh/token", "API_KEY=op://v/i/f", "--key=pass:k"},
	}
	if v := Check(References, f); len(v) != 0 {
		t.Errorf("references policy refuses %v", v)
	}
	if v := CheckProject(f); len(v) != 0 {
		t.Errorf("project scope refuses %v", v)
	}
	if got := RedactArgs(f.Args); got[1] != f.Args[1] || got[2] != f.Args[2] {
		t.Errorf("references redacted: %q", got)
	}
	var entry any
	json.Unmarshal([]byte(`{"command": "/usr/bin/mcpwire", "args": ["exec", "--env-secret", "GITHUB_TOKEN=op://Private/GitHub/token", "--", "npx", "-y", "srv"],
		"headersHelper": "/usr/bin/mcpwire headers --header-secret 'Authorization=pass:a/b' --bearer-secret keyring:s/a"}`), &entry)
	if v := CheckEntry("gh", entry, nil, nil); len(v) != 0 {
		t.Errorf("an exec entry is refused: %v", v)
	}
	f.Env["OTHER_TOKEN"] = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	f.Args = append(f.Args, "--api-key", "sk-live-0123456789abcdef0123456789")
	if v := CheckProject(f); len(v) != 2 {
		t.Errorf("the literals beside references: %v", v)
	}
}
