package manifest

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
)

// BundleEnv is the machine a bundle is installed on.
type BundleEnv struct {
	// GOOS chooses the platform_overrides (runtime.GOOS).
	GOOS string
}

// bundleVarRE finds MANIFEST.md's variables: ${__dirname}, ${HOME}, ${user_config.KEY}…
var bundleVarRE = lazyRE(`\$\{([^}]*)\}`)

// MapBundle maps a checked bundle, to be unpacked in dir, to a registry server (M3):
// mcp_config with this platform's override, ${__dirname} as dir, ${HOME} and the
// folders below it as the client's home placeholder, ${/} and ${pathSeparator} as
// this system's separator, and each ${user_config.KEY}: a sensitive one a reference
// (a variable or an input, never a value), others the --value given or the default;
// a required one with neither is refused naming it, an optional one leaves out the
// argument or env value that uses it. A relative command is the bundle's program.
// The server starts in dir.
func MapBundle(a *mcpb.Archive, dir string, opt Options, env BundleEnv) (*Plan, error) {
	man := a.Manifest
	name := opt.Name
	if name == "" {
		name = ServerName(man.Name)
	}
	cfg, ok := man.Resolved(mcpb.Platform(env.GOOS))
	if !ok {
		return nil, refusal(ReasonNothing, "bundle %s: its manifest has no server.mcp_config: it leaves starting the server (type %s) to the application, and mcpwire does not guess a command", man.Name, man.Server.Type)
	}
	m := newMapper(opt, name)
	sep := "/"
	if env.GOOS == "windows" {
		sep = `\`
	}
	b := &bundleMapper{m: m, man: man, dir: dir, sep: sep}
	s := &registry.Server{Name: name, Type: registry.Stdio, Description: man.Description, Cwd: dir}
	cmd, err := b.one("server.mcp_config.command", cfg.Command, "")
	if err != nil {
		return nil, err
	}
	if cmd == "" {
		return nil, refusal(ReasonMissing, "bundle %s: server.mcp_config.command is empty once its values are filled", man.Name)
	}
	if !filepath.IsAbs(cmd) && strings.ContainsAny(cmd, `/\`) && !strings.HasPrefix(cmd, "${") {
		cmd = filepath.Join(dir, filepath.FromSlash(cmd))
		if env.GOOS == "windows" && man.Server.Type == "binary" && filepath.Ext(cmd) == "" {
			cmd += ".exe" // MANIFEST.md: apps append .exe to a binary on Windows
		}
	}
	s.Command = cmd
	for i, arg := range cfg.Args {
		vals, err := b.expand(fmt.Sprintf("server.mcp_config.args[%d]", i), arg)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 && i > 0 && len(s.Args) > 0 && isFlag(cfg.Args[i-1]) && s.Args[len(s.Args)-1] == cfg.Args[i-1] {
			s.Args = s.Args[:len(s.Args)-1] // "--timeout ${user_config.timeout}" left out whole
		}
		s.Args = append(s.Args, vals...)
	}
	for _, k := range sortedKeys(cfg.Env) {
		if err := b.env(s, k, cfg.Env[k]); err != nil {
			return nil, err
		}
	}
	if err := m.done(); err != nil {
		return nil, err
	}
	s.Inputs = m.inputs
	if err := s.Validate(); err != nil {
		return nil, refusal(ReasonInvalid, "bundle %s: %v", man.Name, err)
	}
	plan := &Plan{Server: s, Choice: fmt.Sprintf("bundle %s %s (%s)", man.Name, man.Version, man.Server.Type), Notes: m.notes()}
	return plan, nil
}

// isFlag reports an argument that names a flag whose value follows: -x, --name.
func isFlag(a string) bool {
	return strings.HasPrefix(a, "-") && len(a) > 1 && !strings.Contains(a, "=") && !strings.Contains(a, "${")
}

// bundleMapper fills one bundle's variables.
type bundleMapper struct {
	m   *mapper
	man *mcpb.Manifest
	dir string
	sep string
}

// system fills the variables that are not user_config; ok false for an unknown one.
func (b *bundleMapper) system(name string) (string, bool) {
	switch name {
	case "__dirname":
		return b.dir, true
	case "HOME":
		return "${userHome}", true
	case "DESKTOP":
		return "${userHome}" + b.sep + "Desktop", true
	case "DOCUMENTS":
		return "${userHome}" + b.sep + "Documents", true
	case "DOWNLOADS":
		return "${userHome}" + b.sep + "Downloads", true
	case "pathSeparator", "/":
		return b.sep, true
	}
	return "", false
}

// expand fills one argument: one that is a whole ${user_config.KEY} becomes each of
// its values (none when it has none); any other its text with every variable filled
// (none left out: an optional value missing drops the argument).
func (b *bundleMapper) expand(field, arg string) ([]string, error) {
	if m := bundleVarRE().FindStringSubmatch(arg); m != nil && m[0] == arg {
		if key, ok := strings.CutPrefix(m[1], "user_config."); ok {
			vals, err := b.option(field, key, "")
			if err != nil {
				return nil, err
			}
			out := make([]string, len(vals))
			for i, v := range vals {
				out[i] = v.text
			}
			return out, nil
		}
	}
	v, err := b.one(field, arg, "")
	if err != nil || v == "" && arg != "" {
		return nil, err
	}
	return []string{v}, nil
}

// one fills every variable of a text; "" when an optional user_config value it uses
// has none.
func (b *bundleMapper) one(field, text, envKey string) (string, error) {
	var err error
	dropped := false
	out := bundleVarRE().ReplaceAllStringFunc(text, func(t string) string {
		name := t[2 : len(t)-1]
		if err != nil {
			return t
		}
		if key, ok := strings.CutPrefix(name, "user_config."); ok {
			vals, e := b.option(field, key, envKey)
			switch {
			case e != nil:
				err = e
			case len(vals) == 0:
				dropped = true
			case len(vals) > 1:
				err = refusal(ReasonMalformed, "%s: user_config.%s holds several values and is used inside a text, where they cannot each be one argument", field, key)
			default:
				return vals[0].text
			}
			return t
		}
		v, ok := b.system(name)
		if !ok {
			err = refusal(ReasonMalformed, "%s: ${%s} is no variable MANIFEST.md defines", field, name)
		}
		return v
	})
	if err != nil || dropped {
		return "", err
	}
	return out, nil
}

// env fills one env value: a whole sensitive ${user_config.KEY} becomes envFrom (the
// variable named as the key) or envInput; a value that is left out drops the key.
func (b *bundleMapper) env(s *registry.Server, k, text string) error {
	field := "server.mcp_config.env." + k
	if m := bundleVarRE().FindStringSubmatch(text); m != nil && m[0] == text {
		if key, ok := strings.CutPrefix(m[1], "user_config."); ok {
			vals, err := b.option(field, key, k)
			if err != nil || len(vals) == 0 {
				return err
			}
			if len(vals) > 1 {
				return refusal(ReasonMalformed, "%s: user_config.%s holds several values; an env value is one", field, key)
			}
			v := vals[0]
			switch {
			case v.input != "":
				setMap(&s.EnvInput, k, v.input)
			case v.whole != "" && v.text == "${"+v.whole+"}":
				setMap(&s.EnvFrom, k, v.whole)
			default:
				setMap(&s.Env, k, v.text)
				if opt, _ := b.man.Option(key); !opt.Sensitive && !strings.Contains(v.text, "${") && policy.PlainEnvProblem(k, v.text) == "" {
					s.PlainEnv = append(s.PlainEnv, k)
				}
			}
			return nil
		}
	}
	v, err := b.one(field, text, "")
	if err != nil || v == "" && text != "" {
		return err
	}
	setMap(&s.Env, k, v)
	if !strings.Contains(text, "${user_config.") && !strings.Contains(v, "${") && policy.PlainEnvProblem(k, v) == "" {
		s.PlainEnv = append(s.PlainEnv, k)
	}
	return nil
}

// option resolves one user_config option: --value-from, --value (several for a
// multiple one), a sensitive one's reference, the default, else missing (required) or
// left out.
func (b *bundleMapper) option(field, key, envKey string) ([]value, error) {
	o, ok := b.man.Option(key)
	if !ok {
		return nil, refusal(ReasonMalformed, "%s: uses user_config.%s, which the manifest does not declare", field, key)
	}
	in := Input{Description: o.Title, IsRequired: o.Required, IsSecret: o.Sensitive}
	if o.Description != "" {
		in.Description = o.Description
	}
	defaults := make([]string, len(o.Default))
	for i, d := range o.Default {
		v, err := b.one("user_config."+key+".default", d, "")
		if err != nil {
			return nil, err
		}
		defaults[i] = v
	}
	st := site{key: key, envKey: envKey}
	if _, _, _, given := b.m.flag(st); !given && o.HasDefault && !o.Sensitive {
		out := make([]value, len(defaults))
		for i, d := range defaults {
			out[i] = value{text: d}
		}
		return out, nil
	}
	vals, ok, err := b.m.resolve(st, in, nil, o.Multiple)
	if err != nil || !ok {
		return nil, err
	}
	for _, v := range vals {
		if v.whole != "" || v.input != "" {
			continue
		}
		if err := checkOption(o, v.text); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// checkOption refuses a --value outside a number option's bounds or not a boolean.
func checkOption(o mcpb.Option, v string) error {
	switch o.Type {
	case "number":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("--value %s: not a number", o.Key)
		}
		if o.Min != nil && f < *o.Min || o.Max != nil && f > *o.Max {
			return fmt.Errorf("--value %s: outside %s", o.Key, bounds(o))
		}
	case "boolean":
		if v != "true" && v != "false" {
			return fmt.Errorf("--value %s: want true or false", o.Key)
		}
	}
	return nil
}

func bounds(o mcpb.Option) string {
	lo, hi := "-∞", "∞"
	if o.Min != nil {
		lo = strconv.FormatFloat(*o.Min, 'f', -1, 64)
	}
	if o.Max != nil {
		hi = strconv.FormatFloat(*o.Max, 'f', -1, 64)
	}
	return "[" + lo + ", " + hi + "]"
}
