package manifest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// ServerJSON is a server.json as mcpwire writes one (M4), in the current schema.
type ServerJSON struct {
	Schema      string      `json:"$schema"`
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description"`
	Version     string      `json:"version"`
	WebsiteURL  string      `json:"websiteUrl,omitempty"`
	Repository  *Repository `json:"repository,omitempty"`
	Packages    []Package   `json:"packages,omitempty"`
	Remotes     []Transport `json:"remotes,omitempty"`
}

// Export describes a registry server as a server.json (M4). A server added from a
// manifest and not changed since gives back what it was made from (every field
// mcpwire reads); any other server is described from its fields: a remote's URL and
// headers, or a package its command runs (npx, uvx, docker, podman, dnx) with its
// arguments and environment. A value that may be a credential is never written: it
// becomes a secret input without a value. namespace names a server that has no
// manifest name (namespace/NAME). The warnings say what the description leaves out.
func Export(s *registry.Server, namespace string) (*ServerJSON, []string, error) {
	rec, err := RecordOf(s)
	if err != nil {
		return nil, nil, err
	}
	out := &ServerJSON{Schema: SchemaURL(Newest), Name: namespace + "/" + s.Name, Description: s.Description}
	var warns []string
	if rec != nil {
		if rec.Name != "" {
			out.Name = rec.Name
		}
		out.Title, out.Version, out.WebsiteURL, out.Repository = rec.Title, rec.Version, rec.WebsiteURL, rec.Repository
		same := rec.Launch == LaunchDigest(s)
		if !same {
			warns = append(warns, fmt.Sprintf("server %q was changed since it was added from its manifest: described from its fields", s.Name))
		}
		if same || rec.Bundle != nil {
			switch {
			case rec.Package != nil:
				p := *rec.Package
				p.RegistryType = normalType(p.RegistryType)
				out.Packages = []Package{p}
			case rec.Remote != nil:
				out.Remotes = []Transport{*rec.Remote}
			}
			if out.Version == "" && rec.Package != nil {
				out.Version = rec.Package.Version
			}
		}
	}
	if out.Packages == nil && out.Remotes == nil {
		w, err := describe(s, out)
		if err != nil {
			return nil, nil, err
		}
		warns = append(warns, w...)
	}
	if out.Description == "" {
		out.Description = s.Name
	}
	if out.Version == "" {
		out.Version = "0.0.0"
		warns = append(warns, fmt.Sprintf("server %q has no version: written as 0.0.0", s.Name))
	}
	return out, warns, nil
}

// describe fills a server.json from a server's fields.
func describe(s *registry.Server, out *ServerJSON) ([]string, error) {
	var warns []string
	if s.Remote() {
		t := Transport{Type: "streamable-http", URL: s.URL}
		if s.Type == registry.SSE {
			t.Type = "sse"
		}
		t.Headers, warns = describeValues(s, true)
		out.Remotes = []Transport{t}
		return warns, nil
	}
	p, err := describeCommand(s.Command, s.Args)
	if err != nil {
		return nil, hint.Wrap(fmt.Errorf("server %q: %v", s.Name, err),
			"a server.json names a package pinned to one version (npm, pypi, oci, nuget, mcpb) or a remote")
	}
	p.EnvironmentVariables, warns = describeValues(s, false)
	if p.RegistryType == OCI {
		p.RuntimeArguments = dropEnvPasses(p.RuntimeArguments, p.EnvironmentVariables)
	}
	out.Packages = []Package{*p}
	if out.Version == "" && p.RegistryType != OCI {
		out.Version = p.Version
	}
	return warns, nil
}

// describeCommand reads the package a command line runs.
func describeCommand(cmd string, args []string) (*Package, error) {
	for typ, rs := range runtimes {
		if !slices.Contains(rs, cmd) {
			continue
		}
		p := &Package{RegistryType: typ, RuntimeHint: cmd, Transport: Transport{Type: "stdio"}}
		rest := args
		if typ == OCI {
			if len(rest) == 0 || rest[0] != "run" {
				return nil, fmt.Errorf("it runs %s without run", cmd)
			}
			rest = rest[1:]
		}
		i := specIndex(typ, rest)
		if i < 0 {
			return nil, fmt.Errorf("its command %s names no pinned package", cmd)
		}
		for _, a := range rest[:i] {
			if typ == NPM && (a == "-y" || a == "--yes") || typ == OCI && (a == "-i" || a == "--rm") {
				continue // the runtime's own arguments mcpwire adds
			}
			p.RuntimeArguments = append(p.RuntimeArguments, positional(a))
		}
		spec, after := rest[i], rest[i+1:]
		switch typ {
		case PyPI:
			p.Identifier, p.Version, _ = strings.Cut(spec, "==")
		case OCI:
			p.Identifier = spec
			if _, tag, _ := ociImage(spec); tag != "" {
				p.Version = tag
			}
		default:
			at := strings.LastIndexByte(spec, '@')
			p.Identifier, p.Version = spec[:at], spec[at+1:]
		}
		if typ == NuGet {
			if len(after) > 0 && after[0] == "--yes" {
				after = after[1:]
			}
			if len(after) > 0 && after[0] == "--" {
				after = after[1:]
			}
		}
		for _, a := range after {
			p.PackageArguments = append(p.PackageArguments, positional(a))
		}
		return p, nil
	}
	return nil, fmt.Errorf("it runs %s, which is none of npx, bunx, uvx, docker, podman, dnx", cmd)
}

// dockerValueFlags are docker run's flags that take the next argument as their value.
var dockerValueFlags = []string{"-e", "--env", "--env-file", "-v", "--volume", "--mount", "--network", "--net", "--name",
	"-p", "--publish", "-w", "--workdir", "-u", "--user", "--entrypoint", "--platform", "-l", "--label", "--add-host",
	"--cap-add", "--cap-drop", "--device", "--dns", "-h", "--hostname", "--memory", "-m", "--cpus", "--pull", "--tmpfs"}

// specIndex finds the argument that names the pinned package: npm and nuget
// NAME@VERSION, pypi NAME==VERSION, oci the image after docker's flags.
func specIndex(typ string, args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch typ {
		case OCI:
			if slices.Contains(dockerValueFlags, a) {
				i++
				continue
			}
			if !strings.HasPrefix(a, "-") {
				if _, tag, digest := ociImage(a); digest != "" || tag != "" && !strings.EqualFold(tag, "latest") {
					return i
				}
				return -1
			}
		case PyPI:
			if strings.Contains(a, "==") && !strings.HasPrefix(a, "-") {
				return i
			}
		default:
			if !strings.HasPrefix(a, "-") {
				if at := strings.LastIndexByte(a, '@'); at > 0 && exactVersion(a[at+1:]) {
					return i
				}
				return -1
			}
		}
	}
	return -1
}

// dropEnvPasses removes docker's -e NAME for the variables the server declares.
func dropEnvPasses(args []Argument, envs []KeyValue) []Argument {
	var out []Argument
	for i := 0; i < len(args); i++ {
		if v := deref(args[i].Value); v == "-e" && i+1 < len(args) && slices.ContainsFunc(envs, func(e KeyValue) bool { return e.Name == deref(args[i+1].Value) }) {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

var refRE = lazyRE(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// positional is an argument with a fixed value; a ${VAR} in it becomes a {VAR} the
// person gives, as a secret.
func positional(a string) Argument {
	arg := Argument{Type: "positional"}
	text, vars := template(a)
	arg.Value, arg.Variables = &text, vars
	return arg
}

// template turns ${VAR} references into {VAR} variables (secrets, required).
func template(v string) (string, map[string]Input) {
	var vars map[string]Input
	text := refRE().ReplaceAllStringFunc(v, func(m string) string {
		name := m[2 : len(m)-1]
		if vars == nil {
			vars = map[string]Input{}
		}
		vars[name] = Input{IsRequired: true, IsSecret: true, Description: "read from the variable " + name}
		return "{" + name + "}"
	})
	return text, vars
}

// describeValues describes a server's env values or headers: plain values as they
// are, references as required secrets with the variable named, inputs as secrets,
// other literals as secrets without their value (they may be credentials).
func describeValues(s *registry.Server, headers bool) ([]KeyValue, []string) {
	lit, plain, from, in := s.Env, s.PlainEnvKeys(), s.EnvFrom, s.EnvInput
	what := "env"
	if headers {
		lit, plain, from, in, what = s.Headers, s.PlainHeaderKeys(), s.HeaderEnv, s.HeaderInput, "header"
	}
	var out []KeyValue
	var withheld []string
	for _, k := range slices.Sorted(maps.Keys(lit)) {
		v := lit[k]
		switch text, vars := template(v); {
		case plain[k]:
			out = append(out, KeyValue{Name: k, Input: Input{Value: &v}})
		case len(vars) > 0 && !policy.TokenShaped(text):
			out = append(out, KeyValue{Name: k, Input: Input{IsRequired: true, IsSecret: true, Value: &text}, Variables: vars})
		default:
			out = append(out, KeyValue{Name: k, Input: Input{IsRequired: true, IsSecret: true}})
			withheld = append(withheld, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(from)) {
		out = append(out, KeyValue{Name: k, Input: Input{IsRequired: true, IsSecret: true, Description: "read from the variable " + from[k]}})
	}
	for _, k := range slices.Sorted(maps.Keys(in)) {
		desc := "asked for as input " + in[k]
		if d, ok := s.Input(in[k]); ok && d.Description != "" {
			desc = d.Description
		}
		out = append(out, KeyValue{Name: k, Input: Input{IsRequired: true, IsSecret: true, Description: desc}})
	}
	if headers && (s.BearerEnv != "" || s.BearerInput != "") {
		v := "Bearer {token}"
		desc := "read from the variable " + s.BearerEnv
		if s.BearerInput != "" {
			desc = "asked for as input " + s.BearerInput
		}
		out = append(out, KeyValue{Name: "Authorization", Input: Input{IsRequired: true, IsSecret: true, Value: &v},
			Variables: map[string]Input{"token": {IsRequired: true, IsSecret: true, Description: desc}}})
	}
	var warns []string
	if len(withheld) > 0 {
		warns = append(warns, fmt.Sprintf("server %q: %s %s written without its value (it may be a credential; declare it plain to publish it)", s.Name, what, strings.Join(withheld, ", ")))
	}
	return out, warns
}
