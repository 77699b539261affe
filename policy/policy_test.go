package policy

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// spec: P1 P5
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Level
		ok   bool
	}{
		{"literal", Literal, true}, {"references", References, true}, {"none", None, true},
		{"", 0, false}, {"LITERAL", 0, false}, {"Literal", 0, false}, {" none", 0, false}, {"reference", 0, false}, {"0", 0, false},
	} {
		got, err := Parse(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("Parse(%q) = %v, %v", tt.in, got, err)
		}
		if !tt.ok && !strings.Contains(fmt.Sprint(err), "want literal, references or none") {
			t.Errorf("Parse(%q) error %q does not list the values", tt.in, err)
		}
	}
	if !(Literal < References && References < None) {
		t.Error("levels must be ordered literal < references < none")
	}
	if Max(None, Literal) != None || Max(Literal, References) != References {
		t.Error("Max")
	}
	for l, name := range map[Level]string{Literal: "literal", References: "references", None: "none"} {
		b, _ := json.Marshal(l)
		if l.String() != name || string(b) != `"`+name+`"` {
			t.Errorf("%d: %s %s", l, l, b)
		}
	}
}

// spec: P5
func TestParseJSON(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		want Level
		err  string
	}{
		{`"literal"`, Literal, ""},
		{`"references"`, References, ""},
		{` "none" `, None, ""},
		{`null`, 0, `invalid credentialPolicy null`},
		{`""`, 0, `invalid credentialPolicy ""`},
		{`false`, 0, `invalid credentialPolicy false`},
		{`true`, 0, `invalid credentialPolicy true`},
		{`0`, 0, `invalid credentialPolicy 0`},
		{`1`, 0, `invalid credentialPolicy 1`},
		{`"LITERAL"`, 0, `invalid credentialPolicy "LITERAL"`},
		{`"strict"`, 0, `invalid credentialPolicy "strict"`},
		{`["none"]`, 0, `invalid credentialPolicy ["none"]`},
		{`{"level":"none"}`, 0, `invalid credentialPolicy {"level":"none"}`},
	} {
		got, err := ParseJSON(json.RawMessage(tt.raw))
		if tt.err == "" {
			if err != nil || got != tt.want {
				t.Errorf("ParseJSON(%s) = %v, %v", tt.raw, got, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.err+" ") || !strings.Contains(err.Error(), `want "literal", "references" or "none"`) {
			t.Errorf("ParseJSON(%s) error = %v, want %q", tt.raw, err, tt.err)
		}
	}
}

// spec: P2
func TestFloorFold(t *testing.T) {
	var f Floor
	if f.Set {
		t.Fatal("zero floor is set")
	}
	f = f.Fold(References, "/org")
	f = f.Fold(Literal, "/team")     // weaker: ignored
	f = f.Fold(References, "/team2") // equal: the first file stays
	if !f.Set || f.Level != References || f.File != "/org" {
		t.Fatalf("%+v", f)
	}
	f = f.Fold(None, "/team3")
	if f.Level != None || f.File != "/team3" {
		t.Fatalf("%+v", f)
	}
}

// spec: P3
func TestEffective(t *testing.T) {
	lvl := func(l Level) *Level { return &l }
	org := Floor{Set: true, Level: References, File: "/org/mcp-servers.json"}
	tests := []struct {
		name string
		in   Inputs
		want Level
		warn []string // attempted values that must warn, in order
		err  string
	}{
		{name: "nothing set: literal", want: Literal},
		{name: "personal default", in: Inputs{Personal: lvl(None)}, want: None},
		{name: "floor without personal", in: Inputs{Floor: org}, want: References},
		{name: "env beats personal, even relaxing it", in: Inputs{Personal: lvl(None), Env: "literal"}, want: Literal},
		{name: "flag beats env", in: Inputs{Env: "none", Flag: lvl(References)}, want: References},
		{name: "empty env is unset", in: Inputs{Personal: lvl(References), Env: ""}, want: References},
		{name: "invalid env", in: Inputs{Env: "LITERAL"}, err: `AIWG_MCP_CREDENTIAL_POLICY: invalid credential policy "LITERAL"`},
		{name: "personal below floor: floor, warning", in: Inputs{Personal: lvl(Literal), Floor: org}, want: References, warn: []string{"literal"}},
		{name: "env below floor: floor, warning", in: Inputs{Env: "literal", Floor: org}, want: References, warn: []string{"literal"}},
		{name: "flag at floor", in: Inputs{Flag: lvl(References), Floor: org}, want: References},
		{name: "env above floor", in: Inputs{Env: "none", Floor: org}, want: None},
		{name: "personal above floor, env relaxes to the floor", in: Inputs{Personal: lvl(None), Env: "references", Floor: org}, want: References},
		{name: "none floor refuses references", in: Inputs{Env: "references", Floor: Floor{Set: true, Level: None, File: "/f"}}, want: None, warn: []string{"references"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resetWarnings()
			var warnings []string
			got, err := Effective(tt.in, func(s string) { warnings = append(warnings, s) })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Effective = %v, %v, want %v", got, err, tt.want)
			}
			if len(warnings) != len(tt.warn) {
				t.Fatalf("warnings %q, want one for each of %q", warnings, tt.warn)
			}
			for i, w := range warnings {
				for _, part := range []string{`"` + tt.warn[i] + `"`, "below the organisation floor", tt.in.Floor.File} {
					if !strings.Contains(w, part) {
						t.Errorf("warning %q lacks %q", w, part)
					}
				}
			}
		})
	}
}

// spec: P3
func TestEffectiveWarnsOncePerValue(t *testing.T) {
	resetWarnings()
	floor := Floor{Set: true, Level: None, File: "/org/mcp-servers.json"}
	var warnings []string
	warn := func(s string) { warnings = append(warnings, s) }
	for range 3 {
		if l, _ := Effective(Inputs{Env: "literal", Floor: floor}, warn); l != None {
			t.Fatalf("got %v", l)
		}
	}
	if len(warnings) != 1 {
		t.Fatalf("three attempts with one value: %d warnings", len(warnings))
	}
	lit := Literal
	Effective(Inputs{Personal: &lit, Floor: floor}, warn) // same value, another source
	if len(warnings) != 1 {
		t.Fatalf("the same value from another source warned again: %q", warnings)
	}
	Effective(Inputs{Env: "references", Floor: floor}, warn)
	if len(warnings) != 2 || !strings.Contains(warnings[1], `"references"`) {
		t.Fatalf("another value must warn once: %q", warnings)
	}
	Effective(Inputs{Env: "references", Floor: floor}, warn)
	if len(warnings) != 2 {
		t.Fatalf("%q", warnings)
	}
}

func violations(vs []Violation) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, v.String())
	}
	return out
}

// spec: P1
func TestCheck(t *testing.T) {
	full := Fields{
		Server:    "s",
		URL:       "https://user:pw@h.example/mcp",
		Env:       map[string]string{"LIT": "secret", "REF": "${TOKEN}", "EMPTY": ""},
		Headers:   map[string]string{"X-Lit": "abc", "Authorization": "Bearer ${TOKEN}", "X-Env": "${env:TOKEN}", "X-Oc": "{env:TOKEN}", "X-Empty": ""},
		HeaderEnv: map[string]string{"X-Ref": "TOKEN"},
		EnvFrom:   map[string]string{"A": "B"},
		BearerEnv: "TOKEN",
		Auth:      map[string]any{"type": "oauth", "tokenUrl": "https://u:p@auth.example/token", "clientSecret": "cs"},
		OAuth:     map[string]any{"clientId": "id", "redirectUri": "http://u@localhost/cb", "clientSecret": ""},
	}
	tests := []struct {
		name  string
		level Level
		f     Fields
		want  []string
	}{
		{"literal renders everything", Literal, full, []string{}},
		{"references refuses literal values, userinfo, client secrets", References, full, []string{
			"s (env.LIT)", "s (headers.X-Lit)", "s (url userinfo)",
			"s (auth.clientSecret)", "s (auth.tokenUrl userinfo)", "s (oauth.redirectUri userinfo)"}},
		{"none refuses references too", None, full, []string{
			"s (env.LIT)", "s (env.REF)",
			"s (headers.Authorization)", "s (headers.X-Env)", "s (headers.X-Lit)", "s (headers.X-Oc)", "s (url userinfo)",
			"s (auth.clientSecret)", "s (auth.tokenUrl userinfo)", "s (oauth.redirectUri userinfo)",
			"s (headerEnv)", "s (bearerEnv)", "s (envFrom)", "s (auth)", "s (oauth)"}},
		{"references passes reference forms", References, Fields{Server: "r",
			Env:     map[string]string{"A": "${A}", "B": "${B:-}", "C": "${env:C}", "D": "{env:D}"},
			Headers: map[string]string{"Authorization": "Bearer ${T}", "X": "token ${T}"}}, []string{}},
		{"empty strings are not credentials", None, Fields{Server: "e", Env: map[string]string{"A": ""}, Headers: map[string]string{"H": ""},
			HeaderEnv: map[string]string{}, Auth: map[string]any{"type": "", "x": nil, "l": []any{}}, OAuth: map[string]any{}}, []string{}},
		{"a URL without userinfo is fine", References, Fields{Server: "u", URL: "https://h.example/mcp?x=@y"}, []string{}},
		{"userinfo in a malformed URL is found", References, Fields{Server: "m", URL: "http://u:pw@%zz/"}, []string{"m (url userinfo)"}},
		{"AIWG_ROOT exempt on its entry only", None, Fields{Server: "aiwg", Env: map[string]string{"AIWG_ROOT": "/opt/aiwg", "X": "y"},
			ExemptEnv: map[string]bool{"AIWG_ROOT": true}}, []string{"aiwg (env.X)"}},
		{"none: auth with only a type is not populated", None, Fields{Server: "a", Auth: map[string]any{"type": ""}}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := violations(Check(tt.level, tt.f))
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Check(%v) =\n%q\nwant\n%q", tt.level, got, tt.want)
			}
			for _, v := range got {
				for _, secret := range []string{"secret", "abc", "pw", "cs"} {
					if strings.Contains(v, "("+secret) {
						t.Errorf("violation %q holds a value", v)
					}
				}
			}
		})
	}
	e := &Error{Rule: "credential policy references", Violations: Check(References, full), Hint: "use --header-env"}
	if !strings.HasPrefix(e.Error(), "credential policy references refuses s (env.LIT), s (headers.X-Lit)") || e.Hints()[0] != "use --header-env" {
		t.Errorf("%q %q", e.Error(), e.Hints())
	}
	if (&Error{}).Hints() != nil {
		t.Error("no hint: nil")
	}
}

// spec: P7
func TestCheckProject(t *testing.T) {
	tests := []struct {
		name string
		f    Fields
		want []string
	}{
		{"literal env and headers, userinfo, args, auth", Fields{
			Server:  "p",
			URL:     "https://u:p@h/",
			Args:    []string{"--token=abc", "--api-key", "k", "--verbose", "Bearer xyz"},
			Env:     map[string]string{"A": "lit", "B": "${B}", "C": ""},
			Headers: map[string]string{"H": "lit", "R": "${env:R}"},
			Auth:    map[string]any{"type": "oauth", "clientId": "id", "empty": ""},
			OAuth:   map[string]any{"scope": []any{"a"}},
		}, []string{"p (env.A)", "p (headers.H)", "p (auth.clientId)", "p (oauth.scope)",
			"p (args --token)", "p (args --api-key)", "p (args Bearer)", "p (url userinfo)"}},
		{"reference forms and empty strings pass", Fields{Server: "ok",
			Args: []string{"--token=${TOKEN}", "--api-key", "{env:K}", "--password=", "Bearer ${env:T}"},
			Env:  map[string]string{"A": "${A}", "B": ""}, Auth: map[string]any{"type": "oauth"}}, []string{}},
		{"AIWG_ROOT exempt", Fields{Server: "aiwg", Env: map[string]string{"AIWG_ROOT": "/x"}, ExemptEnv: map[string]bool{"AIWG_ROOT": true}}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := violations(CheckProject(tt.f)); !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// spec: P7 R8
func TestCredentialArgs(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--token=abc"}, []string{"--token"}},
		{[]string{"--api-key", "abc"}, []string{"--api-key"}},
		{[]string{"--API_KEY=abc", "-secret", "s"}, []string{"--API_KEY", "-secret"}},
		{[]string{"--password", "p", "--passwd=q", "--access-key", "a", "--private_key=b", "--credentials=c", "--bearer=d"},
			[]string{"--password", "--passwd", "--access-key", "--private_key", "--credentials", "--bearer"}},
		{[]string{"Authorization: Bearer abc"}, []string{"Bearer"}},
		{[]string{"bearer abc"}, []string{"Bearer"}},
		{[]string{"--token"}, nil},                     // no value
		{[]string{"--token", "--verbose"}, nil},        // the next one is a flag
		{[]string{"--token="}, nil},                    // empty is not a credential
		{[]string{"--token=${TOKEN}"}, nil},            // reference
		{[]string{"--api-key", "${env:KEY}"}, nil},     // reference
		{[]string{"Bearer ${TOKEN}"}, nil},             // reference
		{[]string{"--verbose", "token-file.txt"}, nil}, // a value that merely mentions token
		{[]string{"-y", "@scope/server", "--port=80"}, nil},
	}
	for _, tt := range tests {
		if got := CredentialArgs(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("CredentialArgs(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// spec: R8
func TestRedact(t *testing.T) {
	urls := map[string]string{
		"https://user:pw@h.example/mcp":                   "https://REDACTED@h.example/mcp",
		"https://tok@h.example":                           "https://REDACTED@h.example",
		"https://h.example/mcp":                           "https://h.example/mcp",
		"https://h.example/a@b":                           "https://h.example/a@b",
		"https://h.example/mcp?token=abc&x=1":             "https://h.example/mcp?token=REDACTED&x=1",
		"https://h.example/mcp?x=1&api_key=abc#frag":      "https://h.example/mcp?x=1&api_key=REDACTED#frag",
		"https://h.example/mcp?token=${TOKEN}":            "https://h.example/mcp?token=${TOKEN}",
		"https://h.example/mcp?token=":                    "https://h.example/mcp?token=",
		"https://u:p@h.example/mcp?ACCESS_TOKEN=z&page=2": "https://REDACTED@h.example/mcp?ACCESS_TOKEN=REDACTED&page=2",
	}
	for in, want := range urls {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tt := range []struct{ in, want []string }{
		{[]string{"--token=abc", "--api-key", "k", "-y", "pkg"}, []string{"--token=REDACTED", "--api-key", "REDACTED", "-y", "pkg"}},
		{[]string{"--header", "Authorization: Bearer abc"}, []string{"--header", "Authorization: Bearer REDACTED"}},
		{[]string{"--token=${T}", "Bearer ${T}", "--secret", "--x"}, []string{"--token=${T}", "Bearer ${T}", "--secret", "--x"}},
		{nil, []string{}},
	} {
		in := slices.Clone(tt.in)
		got := RedactArgs(tt.in)
		if !reflect.DeepEqual(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("RedactArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("RedactArgs changed its argument")
		}
	}
	if !HasUserinfo(" https://a:b@h/ ") || HasUserinfo("https://h/@x") {
		t.Error("HasUserinfo")
	}
}
