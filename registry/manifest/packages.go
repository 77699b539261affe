package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/registry"
)

// pkg maps a package run by name and version (npm, pypi, oci, nuget) to a stdio
// server: the runtime, the runtime's own arguments mcpwire adds only when the
// manifest's do not already hold them (-y, run -i --rm, --yes), the runtimeArguments,
// the pinned package, the packageArguments; the environment variables (M1).
func (m *mapper) pkg(s *registry.Server, p Package, notes *[]string) error {
	typ := normalType(p.RegistryType)
	what := fmt.Sprintf("%s package %s", typ, p.Identifier)
	if _, ok := runtimes[typ]; !ok {
		return refusal(ReasonType, "%s: registryType %q is not one mcpwire installs (%s)", what, p.RegistryType, strings.Join(RegistryTypes, ", "))
	}
	if p.Transport.Type != "stdio" {
		return refusal(ReasonTransport, "%s: the package serves %s at an address once started; a client connects to it, and mcpwire starts no process for a client", what, p.Transport.Type)
	}
	if typ != OCI && !isDefaultRegistry(typ, p.RegistryBaseURL) {
		return refusal(ReasonBaseURL, "%s: it comes from %s, not the public registry, and its runtime would look for it in the public one", what, p.RegistryBaseURL)
	}
	prog, unknownHint := runtimeFor(p)
	if unknownHint {
		if len(p.RuntimeArguments) > 0 {
			return refusal(ReasonRuntime, "%s: its runtimeArguments are for %s, which does not run %s packages by name", what, p.RuntimeHint, typ)
		}
		*notes = append(*notes, fmt.Sprintf("runtimeHint %s does not run %s packages by name: %s does", p.RuntimeHint, typ, prog))
	}
	spec, err := pinnedSpec(typ, p)
	if err != nil {
		return err
	}
	if typ == OCI && dockerFlags(p.PackageArguments) {
		return refusal(ReasonDockerFlags, "%s: its packageArguments hold docker's own flags (-i, --rm, -e): the publisher's docker command line, not the image's arguments", what)
	}
	for _, list := range [][]Argument{p.RuntimeArguments, p.PackageArguments} {
		for _, a := range list {
			if a.Type == "named" && strings.ContainsAny(a.Name, " \t\n") {
				return refusal(ReasonMalformed, "%s: the named argument %q holds a space: a flag's name is one word", what, firstWord(a.Name)+" …")
			}
		}
	}
	rargs, err := m.args(p.RuntimeArguments)
	if err != nil {
		return err
	}
	pargs, err := m.args(p.PackageArguments)
	if err != nil {
		return err
	}
	if err := m.env(s, p.EnvironmentVariables); err != nil {
		return err
	}
	named, err := namesPackage(rargs, p.Identifier, spec)
	if err != nil {
		return refusal(ReasonUnpinned, "%s: %v", what, err)
	}
	var args []string
	switch typ {
	case NPM:
		if prog == "npx" && !slices.Contains(rargs, "-y") && !slices.Contains(rargs, "--yes") {
			args = append(args, "-y")
		}
		args = append(args, rargs...)
		if !named {
			args = append(args, spec)
		}
	case PyPI:
		args = append(args, rargs...)
		if !named {
			args = append(args, spec)
		}
	case NuGet:
		args = append(args, rargs...)
		if !named {
			args = append(args, spec)
		}
		if !slices.Contains(rargs, "--yes") && !slices.Contains(pargs, "--yes") {
			args = append(args, "--yes")
		}
		if len(pargs) > 0 && pargs[0] != "--" && !slices.Contains(rargs, "--") {
			args = append(args, "--") // dnx PACKAGE@VERSION --yes -- ARGS (the registry's own example)
		}
	case OCI:
		rest := rargs
		if len(rest) > 0 && rest[0] == "run" {
			rest = rest[1:]
		}
		args = append(args, "run")
		if !slices.ContainsFunc(rest, func(a string) bool { return a == "-i" || a == "-it" || a == "-ti" || a == "--interactive" }) {
			args = append(args, "-i")
		}
		if !slices.Contains(rest, "--rm") {
			args = append(args, "--rm")
		}
		args = append(args, rest...)
		for _, k := range envNames(s, p.EnvironmentVariables) {
			if !passesEnv(rest, k) {
				args = append(args, "-e", k) // the container gets the variable docker is given
			}
		}
		if !named {
			args = append(args, spec)
		}
	}
	args = append(args, pargs...)
	s.Type, s.Command, s.Args = registry.Stdio, prog, args
	return nil
}

// pinnedSpec is the package as its runtime names one exact version of it: npm
// NAME@VERSION, pypi NAME==VERSION, nuget NAME@VERSION, oci IMAGE@DIGEST or
// IMAGE:TAG. Anything else is refused (never @latest or a range).
func pinnedSpec(typ string, p Package) (string, error) {
	what := fmt.Sprintf("%s package %s", typ, p.Identifier)
	if typ == OCI {
		repo, tag, digest := ociImage(p.Identifier)
		if !validImage(repo, tag, digest) {
			return "", refusal(ReasonMalformed, "%s: not an image reference (REPOSITORY[:TAG][@DIGEST], lower case)", what)
		}
		if !isDefaultRegistry(OCI, p.RegistryBaseURL) && !ociHost(repo) {
			repo = strings.TrimPrefix(strings.TrimPrefix(strings.TrimRight(p.RegistryBaseURL, "/"), "https://"), "http://") + "/" + repo
		}
		switch {
		case digest != "":
			if tag != "" {
				return repo + ":" + tag + "@" + digest, nil
			}
			return repo + "@" + digest, nil
		case tag != "" && !strings.EqualFold(tag, "latest"):
			return repo + ":" + tag, nil
		case tag == "" && exactVersion(p.Version):
			return repo + ":" + p.Version, nil
		}
		return "", refusal(ReasonUnpinned, "%s: no digest and no tag but latest: the image is not pinned", what)
	}
	v := p.Version
	if !exactVersion(v) {
		if v == "" {
			return "", refusal(ReasonUnpinned, "%s: no version: mcpwire installs exact versions only", what)
		}
		return "", refusal(ReasonUnpinned, "%s: version %q is not one exact version", what, v)
	}
	switch typ {
	case PyPI:
		return p.Identifier + "==" + v, nil
	default:
		return p.Identifier + "@" + v, nil
	}
}

// namesPackage reports whether the runtime arguments already name the package (as
// uvx --from does): by its pinned spec, alone or after "=". Naming it without the
// version is refused: the runtime would take the newest.
func namesPackage(rargs []string, identifier, spec string) (bool, error) {
	for _, a := range rargs {
		switch {
		case a == spec || strings.HasSuffix(a, "="+spec):
			return true, nil
		case a == identifier || strings.HasSuffix(a, "="+identifier):
			return false, fmt.Errorf("its runtimeArguments name the package without its version")
		}
	}
	return false, nil
}

// dockerFlags reports package arguments holding docker's own flags: the registry's
// first seed data put the whole docker command line there.
func dockerFlags(args []Argument) bool {
	for _, a := range args {
		for _, s := range []string{a.Name, deref(a.Value)} {
			if s == "-i" || s == "--rm" || s == "-it" || s == "--interactive" || s == "-e" || strings.HasPrefix(s, "-e ") {
				return true
			}
		}
	}
	return false
}

// envNames are the environment variables the server sets, in the manifest's order.
func envNames(s *registry.Server, envs []KeyValue) []string {
	var out []string
	for _, e := range envs {
		_, lit := s.Env[e.Name]
		_, from := s.EnvFrom[e.Name]
		_, in := s.EnvInput[e.Name]
		if lit || from || in {
			out = append(out, e.Name)
		}
	}
	return out
}

// passesEnv reports whether docker arguments already pass the variable k.
func passesEnv(args []string, k string) bool {
	for i, a := range args {
		v, ok := "", false
		switch {
		case (a == "-e" || a == "--env") && i+1 < len(args):
			v, ok = args[i+1], true
		case strings.HasPrefix(a, "-e="), strings.HasPrefix(a, "--env="):
			_, v, _ = strings.Cut(a, "=")
			ok = true
		}
		if ok && (v == k || strings.HasPrefix(v, k+"=")) {
			return true
		}
	}
	return false
}

// args resolves runtime or package arguments in order (M1): a positional one gives
// its values; a named one its name, then its value when it has one. A named argument
// without any value (a switch) is its name alone, when required; a fixed value equal
// to the name (the seed data's switches) is not written twice.
func (m *mapper) args(list []Argument) ([]string, error) {
	var out []string
	for _, a := range list {
		switch a.Type {
		case "positional":
			vals, ok, err := m.resolve(site{key: a.ValueHint}, a.Input, a.Variables, a.IsRepeated)
			if err != nil {
				return nil, err
			}
			if ok {
				for _, v := range vals {
					out = append(out, v.text)
				}
			}
		case "named":
			st := site{key: a.Name, alias: strings.TrimLeft(a.Name, "-")}
			if isPlaceholder(a.Name) {
				// --api-key=YOUR_KEY: the value is in the name, and it is no value
				m.placeholders = append(m.placeholders, a.Name)
				if a.IsRequired {
					m.missing = append(m.missing, a.Name)
				} else {
					m.left = append(m.left, a.Name)
				}
				continue
			}
			if a.Value != nil && (*a.Value == a.Name || *a.Value == "") {
				out = append(out, a.Name)
				continue
			}
			if isSwitch(a) {
				vals, _, key, given := m.flag(st)
				switch {
				case given && len(vals) == 1 && vals[0] == "":
					out = append(out, a.Name)
				case given:
					return nil, fmt.Errorf("--value %s: %s is a switch, which takes no value (give --value %s= to turn it on)", key, a.Name, key)
				case a.IsRequired:
					out = append(out, a.Name)
				default:
					m.left = append(m.left, a.Name)
				}
				continue
			}
			vals, ok, err := m.resolve(st, a.Input, a.Variables, a.IsRepeated)
			if err != nil {
				return nil, err
			}
			if ok {
				for _, v := range vals {
					out = append(out, a.Name, v.text)
				}
			}
		}
	}
	return out, nil
}

// isSwitch reports a named argument that takes no value: it declares none, no
// default, no valueHint, no choices, no variables, and is no secret.
func isSwitch(a Argument) bool {
	return a.Value == nil && a.Default == nil && a.ValueHint == "" && len(a.Choices) == 0 && len(a.Variables) == 0 && !a.IsSecret &&
		(a.Format == "" || a.Format == "boolean")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}
