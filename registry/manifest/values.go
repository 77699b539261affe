package manifest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// SecretMode says what a secret value of a manifest becomes (M1: isSecret, a bundle's
// sensitive user_config): a reference, never a literal.
type SecretMode string

// Secret modes. A secret-store reference (S1) will be one more.
const (
	// SecretVariable: a variable the client reads where it starts the server — an env
	// value from the variable named as its key (envFrom K=K), a header from a variable
	// (headerEnv, bearerEnv), ${VAR} inside a value.
	SecretVariable SecretMode = "variable"
	// SecretInput: an input the client asks the person for (T3): VS Code and Visual
	// Studio prompt; every other client reads a documented variable instead.
	SecretInput SecretMode = "input"
)

// Options are what the person gives beside the manifest.
type Options struct {
	// Name is the registry server's name; "" takes the manifest's (its last part).
	Name string
	// Package chooses among the manifest's packages and remotes: a registryType (npm,
	// pypi, oci, nuget, mcpb) or remote (streamable-http, sse for one transport).
	Package string
	// Values are --value KEY=VALUE: a value for an input the manifest declares, by
	// its key (an argument's valueHint or name, an environment variable, a header, a
	// {variable}, a bundle's user_config key). Several for a repeated argument.
	Values map[string][]string
	// From are --value-from KEY=VAR: the input's value comes from the client's
	// variable VAR.
	From map[string]string
	// Secrets is what a secret becomes when no --value-from names its variable.
	Secrets SecretMode
	// LookPath finds a program on PATH (exec.LookPath); nil finds none.
	LookPath func(string) (string, error)
	// CanFetch reports that an https address can be fetched (an mcpb package).
	CanFetch bool
}

// value is one resolved input: its text (which may hold ${VAR} or ${input:ID}), and
// when the whole of it is one secret reference, the variable or input.
type value struct {
	text   string
	whole  string // the variable the whole value comes from
	input  string // the input the whole value comes from
	secret bool   // the text holds a reference to a secret
}

// site is where an input's value goes, for flags and messages.
type site struct {
	// key is the name --value and --value-from use; alias another one (a named
	// argument without its dashes); fold compares them without case (headers).
	key, alias string
	fold       bool
	// envKey is the environment variable the value fills whole: a secret is read from
	// the variable of that name, the one the server reads.
	envKey string
	// required says that a value must be found (a {variable} inside a value given).
	required bool
}

// mapper resolves one manifest's inputs against the person's options.
type mapper struct {
	opt    Options
	server string
	used   map[string]bool
	// missing are the keys of required inputs with no value, left the optional
	// inputs left out, vars the variables the person sets for secrets.
	missing, left, vars []string
	inputs              []registry.Input
	// placeholders are keys whose published value is a placeholder (<YOUR_KEY>).
	placeholders []string
}

func newMapper(opt Options, server string) *mapper {
	if opt.Secrets == "" {
		opt.Secrets = SecretVariable
	}
	return &mapper{opt: opt, server: server, used: map[string]bool{}}
}

// flag finds the values given for a site by --value or --value-from.
func (m *mapper) flag(st site) (vals []string, from string, key string, ok bool) {
	match := func(k string) bool {
		for _, want := range []string{st.key, st.alias} {
			if want != "" && (k == want || st.fold && strings.EqualFold(k, want)) {
				return true
			}
		}
		return false
	}
	for _, k := range sortedKeys(m.opt.From) {
		if match(k) {
			m.used[k] = true
			return nil, m.opt.From[k], k, true
		}
	}
	for _, k := range sortedKeys(m.opt.Values) {
		if match(k) {
			m.used[k] = true
			return m.opt.Values[k], "", k, true
		}
	}
	return nil, "", "", false
}

var (
	// placeholderRE finds what a publisher left for the person to fill in: <YOUR_KEY>,
	// YOUR_TOKEN, /path/to/…, or a client's own reference syntax (${input:x}, ${VAR})
	// that no other client reads the same way.
	placeholderRE = lazyRE(`(?i)<[^<>]+>|\$\{[^}]*\}|\byour[_-]|path/to/|/absolute/path`)
	templateRE    = lazyRE(`\{([A-Za-z0-9_.-]+)\}`)
)

// published returns a value or default the manifest gives, unless it is a placeholder.
func (m *mapper) published(key string, v *string) (string, bool) {
	if v == nil {
		return "", false
	}
	if isPlaceholder(*v) {
		if !slices.Contains(m.placeholders, key) {
			m.placeholders = append(m.placeholders, key)
		}
		return "", false
	}
	return *v, true
}

// isPlaceholder reports a published value that is no value: a placeholder for the
// person's, or an example credential (a URL with a password, a token), which is
// never written for them.
func isPlaceholder(v string) bool {
	return placeholderRE().MatchString(v) || !templateRE().MatchString(v) && len(policy.CredentialArgs([]string{v})) > 0
}

// resolve finds the values of one input (M1): a --value-from or --value flag, the
// manifest's fixed value (its {variables} filled), a secret's reference, its default;
// a required input with none is missing, an optional one left out. ok false: no value.
func (m *mapper) resolve(st site, in Input, vars map[string]Input, repeat bool) ([]value, bool, error) {
	fixed, hasFixed := m.published(st.key, in.Value)
	vals, from, fkey, given := m.flag(st)
	if given && in.Value != nil && hasFixed {
		return nil, false, fmt.Errorf("--value %s: the manifest fixes this value", fkey)
	}
	switch {
	case given && from != "":
		if !policy.IsVarName(from) {
			return nil, false, fmt.Errorf("--value-from %s: not a valid variable name", fkey)
		}
		return []value{{text: "${" + from + "}", whole: from, secret: in.IsSecret}}, true, nil
	case given:
		if in.IsSecret {
			return nil, false, fmt.Errorf("--value %s: %s is a secret: give the variable that holds it, --value-from %s=VAR (never the value itself)", fkey, fkey, fkey)
		}
		if len(vals) > 1 && !repeat {
			return nil, false, fmt.Errorf("--value %s: given %d times, and it is not a repeated argument", fkey, len(vals))
		}
		out := make([]value, len(vals))
		for i, v := range vals {
			if err := checkChoice(fkey, in, v); err != nil {
				return nil, false, err
			}
			out[i] = value{text: v}
		}
		return out, true, nil
	case hasFixed:
		v, ok, err := m.fill(fixed, vars, st)
		return []value{v}, ok, err
	case in.IsSecret && (in.IsRequired || st.required):
		return []value{m.secretRef(st, in)}, true, nil
	case in.IsSecret:
		m.left = append(m.left, st.key)
		return nil, false, nil
	}
	if d, ok := m.published(st.key, in.Default); ok && (in.IsRequired || st.required) {
		v, ok, err := m.fill(d, vars, st)
		return []value{v}, ok, err
	}
	if in.IsRequired || st.required {
		if !slices.Contains(m.missing, st.key) {
			m.missing = append(m.missing, st.key)
		}
	} else {
		m.left = append(m.left, st.key)
	}
	return nil, false, nil
}

// checkChoice refuses a flag's value outside the input's choices or format.
func checkChoice(key string, in Input, v string) error {
	if len(in.Choices) > 0 && !slices.Contains(in.Choices, v) {
		return fmt.Errorf("--value %s: not one of %s", key, strings.Join(in.Choices, ", "))
	}
	switch in.Format {
	case "number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return fmt.Errorf("--value %s: not a number", key)
		}
	case "boolean":
		if v != "true" && v != "false" {
			return fmt.Errorf("--value %s: want true or false", key)
		}
	}
	return nil
}

// fill replaces each {name} of a published value with the value of its variable;
// a name the input does not declare stays as it is (the schema's rule).
func (m *mapper) fill(tmpl string, vars map[string]Input, st site) (value, bool, error) {
	out := value{text: tmpl}
	if len(vars) == 0 {
		return out, true, nil
	}
	ok := true
	var err error
	var refs int
	out.text = templateRE().ReplaceAllStringFunc(tmpl, func(t string) string {
		name := t[1 : len(t)-1]
		in, declared := vars[name]
		if !declared || !ok || err != nil {
			return t
		}
		vs, found, e := m.resolve(site{key: name, required: true}, in, nil, false)
		if e != nil || !found {
			ok, err = false, e
			return t
		}
		if vs[0].secret {
			out.secret = true
			refs++
		}
		return vs[0].text
	})
	if !ok || err != nil {
		return value{}, false, err
	}
	if name, one := policy.AnyVariable(out.text); one && refs == 1 {
		out.whole = name
	}
	return out, true, nil
}

// secretRef is the reference a required secret becomes (M1): a variable — the env
// key it fills, else one named after the server and the key — or an input.
func (m *mapper) secretRef(st site, in Input) value {
	if m.opt.Secrets == SecretInput {
		id := inputID(m.server + "-" + st.key)
		if !slices.ContainsFunc(m.inputs, func(x registry.Input) bool { return x.ID == id }) {
			desc := in.Description
			if desc == "" {
				desc = st.key
			}
			m.inputs = append(m.inputs, registry.Input{ID: id, Description: desc, Password: true})
		}
		return value{text: "${input:" + id + "}", input: id, secret: true}
	}
	name := st.envKey
	if !policy.IsVarName(name) {
		name = VariableName(m.server, st.key)
	}
	if !slices.Contains(m.vars, name) {
		m.vars = append(m.vars, name)
	}
	return value{text: "${" + name + "}", whole: name, secret: true}
}

// VariableName is the variable a secret is read from when it fills no env value
// whole: the server's name and the key in upper case, every other character '_'
// (server github, header Authorization: GITHUB_AUTHORIZATION).
func VariableName(server, key string) string {
	var b strings.Builder
	last := byte('_')
	for _, c := range []byte(strings.ToUpper(server + "_" + key)) {
		if c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
			last = c
		} else if last != '_' {
			b.WriteByte('_')
			last = '_'
		}
	}
	name := strings.TrimRight(b.String(), "_")
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "MCP_" + name
	}
	return name
}

// inputID is the id of the input a secret becomes: its key in lower case, every
// character other than a letter, a digit, '-' or '_' as '-'.
func inputID(key string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, strings.TrimLeft(key, "-"))
}

// unused names the --value and --value-from keys no input took.
func (m *mapper) unused() []string {
	var out []string
	for _, k := range append(sortedKeys(m.opt.Values), sortedKeys(m.opt.From)...) {
		if !m.used[k] && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
