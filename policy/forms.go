package policy

import (
	"slices"
	"strings"
)

// Forms (T1): a value in a client's file, or in the registry, is text with
// placeholders in it, each saying where part of the value comes from: an environment
// variable (${VAR}, ${env:VAR}, {env:VAR}, $VAR, ${{ secrets.VAR }}), a value the
// client asks the person for (VS Code's ${input:ID}), or a directory the client knows
// (${workspaceFolder}, ${userHome}, and mcpwire's own ${project}, R10). A form is one
// way of writing one of them; each client resolves some forms and takes every other
// as text. Scan reads a value in the forms a client resolves; a Placeholder is then
// written again in the forms of another client (Spell), or refused where it has none.

// RefKind is what a placeholder names.
type RefKind uint8

// Kinds of placeholders.
const (
	// KindVariable names an environment variable.
	KindVariable RefKind = iota + 1
	// KindInput names a value the client asks the person for (T3).
	KindInput
	// KindPath names a directory the client knows.
	KindPath
)

// The directories a path placeholder names.
const (
	// PathProject is mcpwire's ${project} (R10): the project directory.
	PathProject = "project"
	// PathWorkspace is the workspace folder the client has open (${workspaceFolder}):
	// in a project's file, the project; in a user file, whichever project is open.
	PathWorkspace = "workspaceFolder"
	// PathHome is the person's home directory (${userHome}).
	PathHome = "userHome"
)

// The forms beyond the spellings: a bare $VAR (Gemini CLI, Qwen Code, Crush
// expand it), and the path placeholders.
const (
	StyleBareDollar = "$VAR"
	StyleProject    = "${" + PathProject + "}"
	StyleWorkspace  = "${" + PathWorkspace + "}"
	StyleHome       = "${" + PathHome + "}"
)

// pathForms are the path placeholders by their form.
var pathForms = map[string]string{StyleProject: PathProject, StyleWorkspace: PathWorkspace, StyleHome: PathHome}

// Placeholder is one reference inside a value.
type Placeholder struct {
	Kind RefKind
	// Name is the variable's name, the input's id or the path's name (PathProject,
	// PathWorkspace, PathHome).
	Name string
	// Default is the value used when the variable is unset (${VAR:-default}), set
	// when HasDefault.
	Default    string
	HasDefault bool
	// Style is the form it was written in.
	Style string
}

// Part is a piece of a value: text, or a placeholder (Ref set).
type Part struct {
	Text string
	Ref  *Placeholder
}

// Template is a value split into text and placeholders.
type Template []Part

// Refs returns the template's placeholders.
func (t Template) Refs() []*Placeholder {
	var out []*Placeholder
	for _, p := range t {
		if p.Ref != nil {
			out = append(out, p.Ref)
		}
	}
	return out
}

// Whole returns the placeholder that is the whole value, if the value is exactly one.
func (t Template) Whole() (*Placeholder, bool) {
	if len(t) == 1 && t[0].Ref != nil {
		return t[0].Ref, true
	}
	return nil, false
}

// Text is the template's text, each placeholder as it was written.
func (t Template) Text() string {
	var b strings.Builder
	for _, p := range t {
		b.WriteString(p.Text) // Scan keeps the source text of a placeholder too
	}
	return b.String()
}

// RegistryForms are the forms the registry reads in a server's values: every
// placeholder of every spelling (a value written by hand in any client's spelling
// means that reference), inputs, and the path placeholders. A bare $VAR is text in
// the registry, as it is for most clients.
func RegistryForms() []string {
	var out []string
	for _, s := range spellings() {
		if s.Open != "" {
			out = append(out, s.Style)
		}
	}
	return append(out, StyleProject, StyleWorkspace, StyleHome)
}

// KnownForms are every form mcpwire knows: the registry's and the bare $VAR.
func KnownForms() []string { return append(RegistryForms(), StyleBareDollar) }

// matcher reads one form at the start of a string.
type matcher struct {
	style, open, close, dflt string
	prompt, bare             bool
	path                     string
}

func matchersOf(styles []string) []matcher {
	var ms []matcher
	for _, st := range styles {
		switch {
		case st == StyleBareDollar:
			ms = append(ms, matcher{style: st, open: "$", bare: true})
		case pathForms[st] != "":
			ms = append(ms, matcher{style: st, open: st, path: pathForms[st]})
		default:
			if sp, ok := SpellingOf(st); ok && sp.Open != "" {
				ms = append(ms, matcher{style: st, open: sp.Open, close: sp.Close, dflt: sp.Default, prompt: sp.Prompt})
			}
		}
	}
	// the longest opening first: ${{ secrets. before ${, ${userHome} before ${
	slices.SortStableFunc(ms, func(a, b matcher) int { return len(b.open) - len(a.open) })
	return ms
}

// match reads the form at the start of s: the placeholder and its length.
func (m matcher) match(s string) (*Placeholder, int, bool) {
	if !strings.HasPrefix(s, m.open) {
		return nil, 0, false
	}
	switch {
	case m.path != "":
		return &Placeholder{Kind: KindPath, Name: m.path, Style: m.style}, len(m.open), true
	case m.bare:
		n := len(m.open)
		for n < len(s) && isNameByte(s[n], n > len(m.open)) {
			n++
		}
		if n == len(m.open) {
			return nil, 0, false
		}
		return &Placeholder{Kind: KindVariable, Name: s[len(m.open):n], Style: m.style}, n, true
	}
	rest := s[len(m.open):]
	i := strings.Index(rest, m.close)
	if i <= 0 {
		return nil, 0, false
	}
	name := rest[:i]
	n := len(m.open) + i + len(m.close)
	if m.prompt {
		if strings.ContainsAny(name, " \t\r\n{}") {
			return nil, 0, false
		}
		return &Placeholder{Kind: KindInput, Name: name, Style: m.style}, n, true
	}
	ph := &Placeholder{Kind: KindVariable, Style: m.style}
	if m.dflt != "" {
		if v, d, ok := strings.Cut(name, m.dflt); ok {
			name, ph.Default, ph.HasDefault = v, d, true
		}
	}
	if !IsVarName(name) {
		return nil, 0, false
	}
	ph.Name = name
	return ph, n, true
}

// isNameByte reports whether c may stand in a variable's name (not first: a digit too).
func isNameByte(c byte, notFirst bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || notFirst && c >= '0' && c <= '9'
}

// Scan splits text into text and the placeholders of the given forms; text that is
// no placeholder of them (another client's spelling, an invalid name) stays text. A
// placeholder's Part keeps the text it was written as.
func Scan(text string, styles []string) Template {
	if !strings.ContainsAny(text, "${") {
		if text == "" {
			return nil
		}
		return Template{{Text: text}}
	}
	ms := matchersOf(styles)
	var out Template
	last := 0
	for i := 0; i < len(text); {
		if text[i] != '$' && text[i] != '{' {
			i++
			continue
		}
		matched := false
		for _, m := range ms {
			if ph, n, ok := m.match(text[i:]); ok {
				if i > last {
					out = append(out, Part{Text: text[last:i]})
				}
				out = append(out, Part{Text: text[i : i+n], Ref: ph})
				i += n
				last = i
				matched = true
				break
			}
		}
		if !matched {
			i++
		}
	}
	if last < len(text) {
		out = append(out, Part{Text: text[last:]})
	}
	return out
}

// Spell writes the placeholder in a form; false when the form cannot say it: another
// kind, a default the form has no syntax for. mcpwire never writes a bare $VAR (it
// would run into the text after it); the clients that read one read ${VAR} too.
func (p *Placeholder) Spell(style string) (string, bool) {
	switch p.Kind {
	case KindPath:
		if pathForms[style] == p.Name {
			return style, true
		}
		return "", false
	case KindInput:
		if sp, ok := SpellingOf(style); ok && sp.Prompt {
			return sp.Open + p.Name + sp.Close, true
		}
		return "", false
	}
	sp, ok := SpellingOf(style)
	if !ok || sp.Open == "" || sp.Prompt {
		return "", false
	}
	switch {
	case p.HasDefault && sp.Default != "":
		return sp.Open + p.Name + sp.Default + p.Default + sp.Close, true
	case p.HasDefault && p.Default != "":
		return "", false // the client has no default; an empty one is what it reads for an unset variable
	}
	return sp.Open + p.Name + sp.Close, true
}

// RegistryText is how the registry writes a placeholder (import): ${VAR} (with its
// default), ${input:ID}, ${project}, ${workspaceFolder}, ${userHome}.
func (p *Placeholder) RegistryText() string {
	switch p.Kind {
	case KindInput:
		s, _ := p.Spell(StyleInput)
		return s
	case KindPath:
		for form, name := range pathForms {
			if name == p.Name {
				return form
			}
		}
	}
	s, _ := p.Spell(StyleDollar)
	return s
}
