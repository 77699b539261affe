package policy

import "testing"

// spec: V4 P1 — the table of reference spellings drives spelling, IsReference,
// RefersTo and the references kept in free text.
func TestSpellings(t *testing.T) {
	tests := []struct {
		style, spelled string
		refs, notRefs  []string
		refersTo       []string // texts that refer to TOKEN
	}{
		{StyleDollar, "${TOKEN}", []string{"${TOKEN}", "${TOKEN:-}", "Bearer ${TOKEN}"}, []string{"${TOKEN:-x}", "$TOKEN", "${1X}"},
			[]string{"https://h/${TOKEN}", "${TOKEN:-x}"}},
		{StyleDollarEnv, "${env:TOKEN}", []string{"${env:TOKEN}", "token ${env:TOKEN}"}, []string{"${env:TOKEN:-}", "${env:}"},
			[]string{"a${env:TOKEN}b"}},
		{StyleBraceEnv, "{env:TOKEN}", []string{"{env:TOKEN}", "Basic {env:TOKEN}"}, []string{"{env:TOKEN", "{env:TOKEN:-}"},
			[]string{"{env:TOKEN}"}},
		{StyleNames, "", nil, []string{"TOKEN"}, nil},
		{StyleNone, "", nil, nil, nil},
	}
	for _, tt := range tests {
		sp, ok := SpellingOf(tt.style)
		if !ok {
			t.Fatalf("%s: no row", tt.style)
		}
		if got := sp.Spell("TOKEN"); got != tt.spelled {
			t.Errorf("%s: Spell = %q, want %q", tt.style, got, tt.spelled)
		}
		for _, v := range tt.refs {
			if !IsReference(v) {
				t.Errorf("IsReference(%q) = false", v)
			}
		}
		for _, v := range tt.notRefs {
			if IsReference(v) {
				t.Errorf("IsReference(%q) = true", v)
			}
		}
		for _, text := range tt.refersTo {
			if !sp.RefersTo(text, "TOKEN") || sp.RefersTo(text, "TOK") {
				t.Errorf("%s: RefersTo(%q) wrong", tt.style, text)
			}
		}
		if sp.RefersTo("${TOKEN_2} {env:TOKEN_2} ${env:TOKEN_2}", "TOKEN") {
			t.Errorf("%s: another variable refers to TOKEN", tt.style)
		}
	}
	if _, ok := SpellingOf("$VAR"); ok {
		t.Error("unknown style found")
	}
	if got := RedactText("password: ${env:DB} token={env:T} auth=${A:-}"); got != "password: ${env:DB} token={env:T} auth=${A:-}" {
		t.Errorf("references in text redacted: %q", got)
	}
}

// spec: V4 — Continue's ${{ secrets.X }} is one row of the table: it is spelled,
// refers, counts as a reference and is kept in free text.
func TestSpellingsContinueRow(t *testing.T) {
	row, ok := SpellingOf(StyleSecrets)
	if !ok {
		t.Fatal("no row for Continue's spelling")
	}
	if got := row.Spell("GH"); got != "${{ secrets.GH }}" {
		t.Errorf("Spell = %q", got)
	}
	if !row.RefersTo("Bearer ${{ secrets.GH }}", "GH") || row.RefersTo("${{ secrets.GH_2 }}", "GH") {
		t.Error("RefersTo")
	}
	for v, want := range map[string]bool{"${{ secrets.GH }}": true, "Bearer ${{ secrets.GH }}": true, "${{ secrets.GH }": false, "${GH}": true} {
		if got := IsReference(v); got != want {
			t.Errorf("IsReference(%q) = %v, want %v", v, got, want)
		}
	}
	if n, ok := referenceAt("${{ secrets.GH }} rest"); !ok || n != len("${{ secrets.GH }}") {
		t.Errorf("referenceAt = %d, %v", n, ok)
	}
	// without the row, "${" opens it and the first "}" closes it
	var without []Spelling
	for _, s := range spellings() {
		if s.Style != StyleSecrets {
			without = append(without, s)
		}
	}
	if n, ok := referenceIn(without, "${{ secrets.GH }} rest"); !ok || n != len("${{ secrets.GH }") {
		t.Errorf("without the row: %d, %v", n, ok)
	}
	// the blank inside the placeholder ends no word of it: after Bearer, in a URL query
	for _, text := range []string{"auth=${{ secrets.GH }}", `Authorization: "Bearer ${{ secrets.GH }}"`,
		"Authorization: Bearer ${{ secrets.GH }}", "GET https://h/mcp?token=${{ secrets.GH }}&x=1"} {
		if got := RedactText(text); got != text {
			t.Errorf("a reference in text redacted: %q", got)
		}
	}
	if got := RedactArgs([]string{"Bearer ${{ secrets.GH }}"}); got[0] != "Bearer ${{ secrets.GH }}" {
		t.Errorf("a reference in an argument redacted: %q", got)
	}
	// a literal after Bearer is still one, and a reference with a default is a literal
	for text, want := range map[string]string{"Bearer ${{ x": "Bearer REDACTED x", "Bearer ${T:-sk-live-1} y": "Bearer REDACTED y"} {
		if got := RedactText(text); got != want {
			t.Errorf("RedactText(%q) = %q, want %q", text, got, want)
		}
	}
}

// spec: B1 V4 — Variable is the inverse of Spell: a value that is exactly one reference
// in the row's spelling gives its variable; text around it, a default, another row's
// spelling or an invalid name gives none. AnyVariable tries every row. VS Code's
// ${input:ID} is a reference (P1, P7 let it through) but names no variable.
func TestVariable(t *testing.T) {
	tests := []struct {
		style, text, want string
	}{
		{StyleDollar, "${TOKEN}", "TOKEN"},
		{StyleDollar, "${TOKEN:-}", ""},
		{StyleDollar, "${TOKEN:-x}", ""},
		{StyleDollar, "x${TOKEN}", ""},
		{StyleDollar, "${env:TOKEN}", ""},
		{StyleDollar, "${1X}", ""},
		{StyleDollarEnv, "${env:TOKEN}", "TOKEN"},
		{StyleDollarEnv, "${TOKEN}", ""},
		{StyleBraceEnv, "{env:TOKEN}", "TOKEN"},
		{StyleBraceEnv, "{env:TOKEN} ", ""},
		{StyleNames, "TOKEN", ""},
		{StyleInput, "${input:tk}", ""},
	}
	for _, tt := range tests {
		sp, _ := SpellingOf(tt.style)
		if got, ok := sp.Variable(tt.text); got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s.Variable(%q) = %q, %v; want %q", tt.style, tt.text, got, ok, tt.want)
		}
		if got := sp.Spell("V"); got != "" {
			if back, ok := sp.Variable(got); !ok || back != "V" {
				t.Errorf("%s: Variable(Spell(V)) = %q, %v", tt.style, back, ok)
			}
		}
	}
	for text, want := range map[string]string{"${A}": "A", "${env:B}": "B", "{env:C}": "C", "${input:d}": "", "$E": ""} {
		if got, _ := AnyVariable(text); got != want {
			t.Errorf("AnyVariable(%q) = %q, want %q", text, got, want)
		}
	}
	for _, v := range []string{"${input:perplexity-key}", "Bearer ${input:tk}"} {
		if !IsReference(v) {
			t.Errorf("IsReference(%q) = false", v)
		}
	}
	if IsReference("${input:}") || IsReference("${input:a b}") {
		t.Error("an empty or spaced input id is a reference")
	}
	if vs := CheckProject(Fields{Server: "s", Env: map[string]string{"KEY": "${input:key}"}}); len(vs) != 0 {
		t.Errorf("P7 refuses VS Code's input reference: %v", vs)
	}
}
