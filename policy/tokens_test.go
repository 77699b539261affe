package policy

import (
	"slices"
	"strings"
	"testing"
)

// Token-shaped values: a known prefix and a body that looks random; words and
// names that merely start like one are not tokens.
//
// spec: K6 P11
func TestKnownToken(t *testing.T) {
	for _, c := range []struct {
		v      string
		prefix string
	}{
		{"ghp_0123456789abcdefghijklmnopqrstuvwxyz", "ghp_"},
		{"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_"},
		{"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "sk-"},
		{"sk-proj-aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI", "sk-"},
		{"glpat-xxxxxxxxxx1234567890", "glpat-"},
		{"xoxb-1234567890-1234567890-abcdefghijklmnop", "xoxb-"},
		{"AKIAIOSFODNN7EXAMPLE", "AKIA"},
		{"AIzaSyA1234567890abcdefghijklmnopqrstu", "AIza"},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlMTIzNDU2", "eyJ"},
		{"SG.abcdefghijklmnop1234.qrstuvwxyzABCDEF5678", "SG."},
		{"hf_AbCdEfGhIjKlMnOpQrStUvWxYz", "hf_"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----", "-----BEGIN"},
		{"sk-learn-extension-for-stuff", ""},    // a word: no digit, one case
		{"ASIA/Tokyo", ""},                      // a time zone
		{"ASIAN_FOOD_DELIVERY1", ""},            // not 16 upper-case letters and digits
		{"npm_config_cache_directory", ""},      // a variable name
		{"ghp_short1", ""},                      // too short to be one
		{"eyJhbGciOiJIUzI1NiJ9xxxxxxxxxxx", ""}, // no JWT without its three parts
		{"sk-abc def 1234567890123456", ""},     // a blank is no token character
		{"${GITHUB_TOKEN}", ""},
		{"", ""},
	} {
		p, ok := KnownToken(c.v)
		if ok != (c.prefix != "") || p != c.prefix && ok {
			t.Errorf("KnownToken(%q) = %q, %v; want %q", c.v, p, ok, c.prefix)
		}
	}
}

// Arguments that are tokens are credentials wherever they stand: named by their
// prefix only, hidden when shown, refused in a project file (P7).
//
// spec: K6 P7 R8
func TestTokenArgs(t *testing.T) {
	const gh, ant = "ghp_0123456789abcdefghijklmnopqrstuvwxyz", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
	args := []string{"-y", "server", "-k", gh, ant, "--opt=" + gh, "X=" + ant, "--name", "sk-learn-extension-for-stuff"}
	names := CredentialArgs(args)
	want := []string{"ghp_… token", "sk-… token", "ghp_… token", "sk-… token"}
	if !slices.Equal(names, want) {
		t.Errorf("CredentialArgs = %q, want %q", names, want)
	}
	red := RedactArgs(args)
	wantRed := []string{"-y", "server", "-k", Redacted, Redacted, "--opt=" + Redacted, "X=" + Redacted, "--name", "sk-learn-extension-for-stuff"}
	if !slices.Equal(red, wantRed) {
		t.Errorf("RedactArgs = %q, want %q", red, wantRed)
	}
	if got := ArgSecrets(args); !slices.Equal(got, []string{gh, ant, gh, ant}) {
		t.Errorf("ArgSecrets = %d values", len(got))
	}
	vs := CheckProject(Fields{Server: "gh", Command: "npx", Args: args})
	if len(vs) != 2 || vs[0].Field != "args ghp_… token" || vs[1].Field != "args sk-… token" {
		t.Errorf("CheckProject = %v", vs)
	}
	for _, v := range vs {
		if strings.Contains(v.String(), "0123") {
			t.Errorf("a violation holds the value: %s", v)
		}
	}
	if got := RedactText("starting with key " + gh + ", then " + ant + "."); got != "starting with key "+Redacted+", then "+Redacted+"." {
		t.Errorf("RedactText = %q", got)
	}
	if vs := CheckProject(Fields{Server: "ok", Command: "npx", Args: []string{"sk-learn-extension-for-stuff", "ASIA/Tokyo"}}); len(vs) != 0 {
		t.Errorf("words refused as tokens: %v", vs)
	}
}

// spec: K6 K7
// TestKnownTokenShortest: the shortest token of each prefix is accepted, and none is
// shorter than what KnownToken turns away before looking at prefixes.
func TestKnownTokenShortest(t *testing.T) {
	for _, p := range tokenPrefixes {
		body := "Ab1cD2eF3gH4iJ5k" // minTokenBody characters, both cases and digits
		switch p {
		case "-----BEGIN":
			body = ""
		case "AKIA", "ASIA":
			body = "AB12CD34EF56GH78"
		case "eyJ":
			body = "Ab1c.D2eF3g.H4iJ"
		}
		v := p + body
		if got, ok := KnownToken(v); !ok || got != p {
			t.Errorf("%q: KnownToken = %q, %v", v, got, ok)
		}
		if len(v) < len("-----BEGIN") {
			t.Errorf("%q is shorter than KnownToken's least length", v)
		}
		if _, ok := KnownToken(v[:len(v)-1]); ok && p != "-----BEGIN" {
			t.Errorf("%q: accepted one character short", v[:len(v)-1])
		}
	}
}
