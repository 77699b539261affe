package policy

import (
	"slices"
	"strings"
	"testing"
)

// secretValues are distinctive values the tests put in; none may survive redaction
// or appear in a violation.
var secretValues = []string{
	"sk-live-REALSECRET", "hunter2pass", "DBPASS99", "XAPIKEY77", "YACCESS88", "ghp_PATSECRET1",
	"PATVALUE42", "KEYVALUE43", "TOKSECRET44", "PROBESECRET7", "CLIENTSECRET5", "NESTEDSECRET6",
}

func assertNoSecret(t *testing.T, what string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		for _, v := range secretValues {
			if strings.Contains(s, v) {
				t.Errorf("%s: %q shows %s", what, s, v)
			}
		}
	}
}

// spec: P1 P7 — ${VAR:-literal} carries a literal: only an empty default is a reference.
func TestReferenceDefault(t *testing.T) {
	for v, want := range map[string]bool{
		"${TOKEN}": true, "${TOKEN:-}": true, "Bearer ${TOKEN:-}": true, "${env:T}": true, "{env:T}": true,
		"${TOKEN:-sk-live-REALSECRET}": false, "Bearer ${T:-x}": false, "${TOKEN:-${OTHER}}": false,
	} {
		if got := IsReference(v); got != want {
			t.Errorf("IsReference(%q) = %v, want %v", v, got, want)
		}
	}
	f := Fields{Server: "d", Env: map[string]string{"TOKEN": "${TOKEN:-sk-live-REALSECRET}", "OK": "${OK:-}"},
		Headers: map[string]string{"Authorization": "Bearer ${T:-sk-live-REALSECRET}"},
		Args:    []string{"--token=${TOKEN:-sk-live-REALSECRET}"}}
	want := []string{"d (env.TOKEN)", "d (headers.Authorization)"}
	if got := violations(Check(References, f)); !slices.Equal(got, want) {
		t.Errorf("Check(references) = %q, want %q", got, want)
	}
	want = []string{"d (env.TOKEN)", "d (headers.Authorization)", "d (args --token)"}
	if got := violations(CheckProject(f)); !slices.Equal(got, want) {
		t.Errorf("CheckProject = %q, want %q", got, want)
	}
	if got := RedactArgs(f.Args); got[0] != "--token=REDACTED" {
		t.Errorf("RedactArgs = %q", got)
	}
}

// spec: P7 R8 — credentials in arguments: URL userinfo, credential query
// parameters, --key/--pat values, header-shaped arguments, NAME=VALUE with a
// credential name.
func TestCredentialArgsShapes(t *testing.T) {
	tests := []struct {
		args []string
		want []string
		red  []string
	}{
		{[]string{"mcp-remote", "https://user:hunter2pass@host.example/mcp"}, []string{"url userinfo"},
			[]string{"mcp-remote", "https://REDACTED@host.example/mcp"}},
		{[]string{"postgresql://admin:DBPASS99@db:5432/prod"}, []string{"url userinfo"},
			[]string{"postgresql://REDACTED@db:5432/prod"}},
		{[]string{"--url=https://r.example/mcp?api_key=XAPIKEY77&access_token=YACCESS88&page=2"},
			[]string{"url query api_key", "url query access_token"},
			[]string{"--url=https://r.example/mcp?api_key=REDACTED&access_token=REDACTED&page=2"}},
		{[]string{"--key", "KEYVALUE43", "--pat", "PATVALUE42"}, []string{"--key", "--pat"},
			[]string{"--key", "REDACTED", "--pat", "REDACTED"}},
		{[]string{"--header", "Authorization: token TOKSECRET44"}, []string{"Authorization"},
			[]string{"--header", "Authorization: token REDACTED"}},
		{[]string{"-H", "X-Api-Key: XAPIKEY77"}, []string{"X-Api-Key"}, []string{"-H", "X-Api-Key: REDACTED"}},
		{[]string{"-e", "GITHUB_PERSONAL_ACCESS_TOKEN=ghp_PATSECRET1"}, []string{"GITHUB_PERSONAL_ACCESS_TOKEN"},
			[]string{"-e", "GITHUB_PERSONAL_ACCESS_TOKEN=REDACTED"}},
		{[]string{"--env=DB_PASS=DBPASS99"}, []string{"DB_PASS"}, []string{"--env=DB_PASS=REDACTED"}},
		{[]string{"DATABASE_URL=postgres://u:DBPASS99@h/db"}, []string{"url userinfo"}, []string{"DATABASE_URL=postgres://REDACTED@h/db"}},
		// not credentials
		{[]string{"-e", "GITHUB_TOKEN", "--token-file", "/run/t", "--max-tokens", "4096", "LOG=debug", "Accept: text/plain"}, nil, nil},
		{[]string{"https://h.example/mcp?page=2", "--key", "${KEY}", "GITHUB_TOKEN=${GITHUB_TOKEN}", "Authorization: Bearer ${T}"}, nil, nil},
		{[]string{"https://h.example/mcp?token=${TOKEN}", "--pass-through", "--header", "X-Team: web"}, nil, nil},
		{[]string{"-same-env", "SERVER_TOKEN=CLIENT_TOKEN", "--token", "GH_TOKEN"}, nil, nil}, // variable names
	}
	for _, tt := range tests {
		if got := CredentialArgs(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("CredentialArgs(%q) = %q, want %q", tt.args, got, tt.want)
		}
		red := RedactArgs(tt.args)
		if tt.red == nil {
			tt.red = tt.args
		}
		if !slices.Equal(red, tt.red) {
			t.Errorf("RedactArgs(%q) = %q, want %q", tt.args, red, tt.red)
		}
		assertNoSecret(t, "RedactArgs", red...)
		assertNoSecret(t, "CredentialArgs", CredentialArgs(tt.args)...)
	}
	f := Fields{Server: "remote", Command: "npx", Args: []string{"mcp-remote", "https://user:hunter2pass@host/mcp", "--pat", "PATVALUE42"}}
	want := []string{"remote (args url userinfo)", "remote (args --pat)"}
	if got := violations(CheckProject(f)); !slices.Equal(got, want) {
		t.Errorf("CheckProject = %q, want %q", got, want)
	}
	want = []string{"remote (args url userinfo)"}
	if got := violations(Check(References, f)); !slices.Equal(got, want) {
		t.Errorf("Check(references) = %q, want %q", got, want)
	}
}

// spec: P1 P7 R8 — credential query parameters in a server URL are credentials:
// refused under references and in project scope, named "url query NAME".
func TestURLQueryCredentials(t *testing.T) {
	f := Fields{Server: "r", URL: "https://r.example/mcp?api_key=XAPIKEY77&access_token=YACCESS88&page=2"}
	want := []string{"r (url query api_key)", "r (url query access_token)"}
	if got := violations(Check(References, f)); !slices.Equal(got, want) {
		t.Errorf("Check(references) = %q, want %q", got, want)
	}
	if got := violations(CheckProject(f)); !slices.Equal(got, want) {
		t.Errorf("CheckProject = %q, want %q", got, want)
	}
	if got := Check(Literal, f); len(got) != 0 {
		t.Errorf("literal: %q", violations(got))
	}
	ok := Fields{Server: "ok", URL: "https://r.example/mcp?api_key=${KEY}&page=2"}
	if got := Check(References, ok); len(got) != 0 {
		t.Errorf("reference in the query: %q", violations(got))
	}
	if got := violations(Check(None, ok)); !slices.Equal(got, []string{"ok (url query api_key)"}) {
		t.Errorf("none: %q", got)
	}
	if got := RedactURL(f.URL); got != "https://r.example/mcp?api_key=REDACTED&access_token=REDACTED&page=2" {
		t.Errorf("RedactURL = %q", got)
	}
	if got := RedactURL("https://h/?key=KEYVALUE43&sig=TOKSECRET44"); got != "https://h/?key=REDACTED&sig=REDACTED" {
		t.Errorf("RedactURL = %q", got)
	}
}

// spec: P1 — auth/oauth secrets are found whatever the key's spelling, at any depth.
func TestAuthSecretsNormalised(t *testing.T) {
	f := Fields{Server: "o",
		OAuth: map[string]any{"type": "pkce", "client_id": "public-id", "client_secret": "CLIENTSECRET5",
			"client": map[string]any{"Client-Secret": "NESTEDSECRET6", "token_url": "https://u:hunter2pass@auth/t"}},
		Auth: map[string]any{"type": "bearer", "token": "TOKSECRET44", "scopes": []any{"read"}}}
	want := []string{"o (oauth.client.Client-Secret)", "o (oauth.client.token_url userinfo)", "o (oauth.client_secret)", "o (auth.token)"}
	got := violations(Check(References, f))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Check(references) = %q, want %q", got, want)
	}
	assertNoSecret(t, "violations", got...)
	ref := Fields{Server: "o", OAuth: map[string]any{"client_secret": "${CLIENT_SECRET}", "tokenUrl": "https://auth/t"}}
	if got := Check(References, ref); len(got) != 0 {
		t.Errorf("references pass: %q", violations(got))
	}
}

// spec: R8 — RedactText hides credentials anywhere in free text.
func TestRedactText(t *testing.T) {
	for in, want := range map[string]string{
		"connect postgres://u:PROBESECRET7@h/db failed":          "connect postgres://REDACTED@h/db failed",
		"GET https://h/mcp?api_key=XAPIKEY77&x=1: 401":           "GET https://h/mcp?api_key=REDACTED&x=1: 401",
		"Authorization: Bearer TOKSECRET44 rejected":             "Authorization: Bearer REDACTED rejected",
		"auth failed: password=hunter2pass user=bob":             "auth failed: password=REDACTED user=bob",
		`{"GITHUB_TOKEN": "ghp_PATSECRET1", "LOG": "x"}`:         `{"GITHUB_TOKEN": "REDACTED", "LOG": "x"}`,
		"run --api-key XAPIKEY77 --verbose":                      "run --api-key REDACTED --verbose",
		"--api-key\tXAPIKEY77":                                   "--api-key\tREDACTED",
		"token: ${TOKEN} and maxTokens: 4096, token_file=/run/t": "token: ${TOKEN} and maxTokens: 4096, token_file=/run/t",
		"nothing to see here":                                    "nothing to see here",
		// a credential name before an object or array is a key, not a value
		`"pw": {"command": "x"}`:   `"pw": {"command": "x"}`,
		`pw = { command = "x" }`:   `pw = { command = "x" }`,
		`"token": ["a", "b"],`:     `"token": ["a", "b"],`,
		`"pw": {`:                  `"pw": {`,
		`"pw": "DBPASS99", "x": 1`: `"pw": "REDACTED", "x": 1`,
	} {
		got := RedactText(in)
		if got != want {
			t.Errorf("RedactText(%q) = %q, want %q", in, got, want)
		}
		assertNoSecret(t, "RedactText", got)
	}
	if got := TextSecrets("x postgres://u:PROBESECRET7@h/db"); !slices.Equal(got, []string{"u:PROBESECRET7"}) {
		t.Errorf("TextSecrets = %q", got)
	}
}

func TestSecretName(t *testing.T) {
	for _, n := range []string{"token", "--api-key", "client_secret", "clientSecret", "PASSWORD", "key", "--pat", "GITHUB_PAT", "DB_PASS",
		"X-Api-Key", "Authorization", "access_token", "sig", "GITHUB_PERSONAL_ACCESS_TOKEN"} {
		if !SecretName(n) {
			t.Errorf("SecretName(%q) = false", n)
		}
	}
	for _, n := range []string{"tokenUrl", "token_file", "bearer_token_env_var", "max_tokens", "token_type", "path", "pattern",
		"passthrough", "keyboard", "port", "url", "LOG", "--verbose"} {
		if SecretName(n) {
			t.Errorf("SecretName(%q) = true", n)
		}
	}
}

// The quick test of SecretName (mayBeSecret) turns away no name its comparisons
// accept: every word they look for holds one of its pairs, and any name does that
// they accept (K7).
func TestMayBeSecretKeepsEveryCredentialName(t *testing.T) {
	var terms []string
	terms = append(terms, secretWords...)
	for _, m := range []map[string]bool{secretWhole, secretLast} {
		for w := range m {
			terms = append(terms, w)
		}
	}
	for _, w := range terms {
		if !mayBeSecret(w) {
			t.Errorf("%q: turned away", w)
		}
	}
	if mayBeSecret("/home/dev/src/project-000123") || mayBeSecret("lastduration") {
		t.Errorf("a name with no credential word is looked at")
	}
}

func FuzzMayBeSecret(f *testing.F) {
	for _, s := range []string{"token", "DB_PASS", "--api-key", "x-pw", "GITHUB_PAT", "Signing.Key", "tokenUrl", "/p/q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		raw := strings.TrimLeft(name, "-")
		if n := NormName(raw); n != "" && !mayBeSecret(n) && secretNorm(raw, n) {
			t.Fatalf("%q: a credential name turned away", name)
		}
	})
}

// normNameByByte is NormName as it was written first: a byte at a time.
func normNameByByte(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ' || c == '\t':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// FuzzNormName: NormName, which returns a normalised name as it is and builds the
// others in a buffer (K7), gives what a byte at a time gives, and SecretNamed with it
// what SecretName gives.
func FuzzNormName(f *testing.F) {
	for _, s := range []string{"", "token", "CLIENT-SECRET", "client_secret", "--api-key", "/home/dev/src/project-000123",
		strings.Repeat("Ab_", 40), "x\tY z.", "é-Ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n := NormName(name)
		if want := normNameByByte(name); n != want {
			t.Fatalf("NormName(%q) = %q, want %q", name, n, want)
		}
		raw := strings.TrimLeft(name, "-")
		want := NormName(raw) != "" && mayBeSecret(NormName(raw)) && secretNorm(raw, NormName(raw))
		if got := SecretNamed(name, n); got != want || SecretName(name) != want {
			t.Fatalf("%q: SecretNamed %v, SecretName %v, want %v", name, got, SecretName(name), want)
		}
	})
}

// spec: K7
// TestNormNameOfANormalName allocates nothing: the 46,000 distinct keys of a 50 MB
// ~/.claude.json are each normalised when a dry run hides its credentials.
func TestNormNameOfANormalName(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = NormName("mcpservers") }); n != 0 {
		t.Errorf("NormName of a normalised name: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = NormName("/home/dev/src/project-000123") }); n > 1 {
		t.Errorf("NormName of a name with a dash: %v allocations, at most 1", n)
	}
}
