package policy

import (
	"reflect"
	"testing"
)

// TestScan: a value splits into text and the placeholders of the forms given; another
// client's spelling, an invalid name, a bare $VAR where the forms do not hold it stay
// text. Each placeholder spells again in every form that can say it.
//
// spec: T1
func TestScan(t *testing.T) {
	all := KnownForms()
	for _, c := range []struct {
		in    string
		forms []string
		want  []string // text parts as "t:…", placeholders as kind:name[:default]
	}{
		{"plain", all, []string{"t:plain"}},
		{"${TOKEN}", []string{StyleDollar}, []string{"v:TOKEN"}},
		{"Bearer ${env:TOKEN}", all, []string{"t:Bearer ", "v:TOKEN"}},
		{"Bearer ${env:TOKEN}", []string{StyleDollar}, []string{"t:Bearer ${env:TOKEN}"}},
		{"{env:A}-${{ secrets.B }}-$C/x", all, []string{"v:A", "t:-", "v:B", "t:-", "v:C", "t:/x"}},
		{"$C/x", []string{StyleDollar}, []string{"t:$C/x"}},
		{"${DIR:-./notes}", all, []string{"v:DIR:./notes"}},
		{"${input:perplexity-key}", all, []string{"i:perplexity-key"}},
		{"${userHome}/n ${workspaceFolder} ${project}", all, []string{"p:userHome", "t:/n ", "p:workspaceFolder", "t: ", "p:project"}},
		{"${workspaceFolderBasename}", []string{StyleWorkspace}, []string{"t:${workspaceFolderBasename}"}},
		{"${1BAD} ${} $ $$", all, []string{"t:${1BAD} ${} $ $$"}},
	} {
		var got []string
		for _, p := range Scan(c.in, c.forms) {
			switch {
			case p.Ref == nil:
				got = append(got, "t:"+p.Text)
			case p.Ref.Kind == KindVariable && p.Ref.HasDefault:
				got = append(got, "v:"+p.Ref.Name+":"+p.Ref.Default)
			case p.Ref.Kind == KindVariable:
				got = append(got, "v:"+p.Ref.Name)
			case p.Ref.Kind == KindInput:
				got = append(got, "i:"+p.Ref.Name)
			default:
				got = append(got, "p:"+p.Ref.Name)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Scan(%q) = %q, want %q", c.in, got, c.want)
		}
		if txt := Scan(c.in, c.forms).Text(); txt != c.in {
			t.Errorf("Scan(%q).Text() = %q", c.in, txt)
		}
	}
}

// TestPlaceholderSpell: a variable in every client spelling, a default only where the
// spelling has one (an empty one may be left out), an input only as an input, a path
// only as itself.
//
// spec: T1 T2
func TestPlaceholderSpell(t *testing.T) {
	v := &Placeholder{Kind: KindVariable, Name: "T"}
	d := &Placeholder{Kind: KindVariable, Name: "T", Default: "x", HasDefault: true}
	empty := &Placeholder{Kind: KindVariable, Name: "T", HasDefault: true}
	in := &Placeholder{Kind: KindInput, Name: "tk"}
	home := &Placeholder{Kind: KindPath, Name: PathHome}
	for _, c := range []struct {
		ph    *Placeholder
		style string
		want  string
		ok    bool
	}{
		{v, StyleDollar, "${T}", true},
		{v, StyleDollarEnv, "${env:T}", true},
		{v, StyleBraceEnv, "{env:T}", true},
		{v, StyleSecrets, "${{ secrets.T }}", true},
		{v, StyleNames, "", false},
		{v, StyleInput, "", false},
		{v, StyleBareDollar, "", false},
		{d, StyleDollar, "${T:-x}", true},
		{d, StyleDollarEnv, "", false},
		{empty, StyleDollarEnv, "${env:T}", true},
		{in, StyleInput, "${input:tk}", true},
		{in, StyleDollar, "", false},
		{home, StyleHome, "${userHome}", true},
		{home, StyleDollar, "", false},
	} {
		if got, ok := c.ph.Spell(c.style); got != c.want || ok != c.ok {
			t.Errorf("%+v in %s = %q, %v; want %q, %v", c.ph, c.style, got, ok, c.want, c.ok)
		}
	}
	if got := d.RegistryText(); got != "${T:-x}" {
		t.Errorf("registry text %q", got)
	}
	if got := in.RegistryText(); got != "${input:tk}" {
		t.Errorf("registry text %q", got)
	}
}
