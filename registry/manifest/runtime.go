package manifest

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Registry types mcpwire installs (M1).
const (
	NPM   = "npm"
	PyPI  = "pypi"
	OCI   = "oci"
	NuGet = "nuget"
	MCPB  = "mcpb"
)

// RegistryTypes are the package types mcpwire installs, in the order docs list them.
var RegistryTypes = []string{NPM, PyPI, OCI, NuGet, MCPB}

// normalType is a registryType as mcpwire knows it: docker and docker-hub (earlier
// names of oci) are oci.
func normalType(t string) string {
	switch t = strings.ToLower(t); t {
	case "docker", "docker-hub":
		return OCI
	}
	return t
}

// runtimes are the programs that run a package of each type by name and version,
// the default first: what runtimeHint may name.
var runtimes = map[string][]string{
	NPM:   {"npx", "bunx"},
	PyPI:  {"uvx"},
	OCI:   {"docker", "podman"},
	NuGet: {"dnx"},
}

// runtimeFor is the program that runs a package: its runtimeHint when it is one of
// the type's runtimes, else the type's default. hinted reports that a hint was given
// and is not used.
func runtimeFor(p Package) (prog string, unknownHint bool) {
	rs := runtimes[normalType(p.RegistryType)]
	if len(rs) == 0 {
		return "", false
	}
	if p.RuntimeHint == "" || slices.Contains(rs, p.RuntimeHint) {
		if p.RuntimeHint != "" {
			return p.RuntimeHint, false
		}
		return rs[0], false
	}
	return rs[0], true
}

// defaultRegistries are the public registries of each type; a package elsewhere
// (registryBaseUrl) is refused, as its runtime would fetch it from the public one.
var defaultRegistries = map[string][]string{
	NPM:   {"https://registry.npmjs.org", "https://registry.npmjs.com", "https://registry.yarnpkg.com"},
	PyPI:  {"https://pypi.org", "https://pypi.org/simple", "https://pypi.python.org", "https://files.pythonhosted.org"},
	NuGet: {"https://api.nuget.org", "https://api.nuget.org/v3/index.json", "https://www.nuget.org"},
	OCI:   {"https://docker.io", "https://registry-1.docker.io", "https://index.docker.io", "https://hub.docker.com", "https://registry.hub.docker.com"},
}

func isDefaultRegistry(typ, base string) bool {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	return base == "" || slices.Contains(defaultRegistries[typ], base)
}

// exactVersion reports whether v names one version: not empty, not latest, no range
// (^1.2, ~1.2, >=1, 1.x, 1.*, a || b, a space).
func exactVersion(v string) bool {
	if v == "" || strings.EqualFold(v, "latest") || strings.ContainsAny(v, "^~<>=*|, \t\n") {
		return false
	}
	for _, part := range strings.Split(v, ".") {
		if part == "" || part == "x" || part == "X" {
			return false
		}
	}
	return true
}

// ociImage splits an image reference into its repository, tag and digest.
func ociImage(ref string) (repo, tag, digest string) {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref, digest = ref[:i], ref[i+1:]
	}
	slash := strings.LastIndex(ref, "/")
	if i := strings.LastIndex(ref, ":"); i > slash {
		return ref[:i], ref[i+1:], digest
	}
	return ref, "", digest
}

// ociHost reports whether the first part of an image reference names a registry host.
func ociHost(repo string) bool {
	first, _, found := strings.Cut(repo, "/")
	return found && (strings.ContainsAny(first, ".:") || first == "localhost")
}

var (
	imageRepoRE   = lazyRE(`^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[0-9]+)?(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+$|^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$`)
	imageTagRE    = lazyRE(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)
	imageDigestRE = lazyRE(`^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$`)
)

// validImage reports an OCI image reference: a repository, an optional tag and an
// optional digest in their grammars.
func validImage(repo, tag, digest string) bool {
	return imageRepoRE().MatchString(repo) && (tag == "" || imageTagRE().MatchString(tag)) && (digest == "" || imageDigestRE().MatchString(digest))
}

// lazyRE compiles a regular expression on first use: mcpwire starts for every
// command, and most never read a manifest (cmd/mcpwire's TestNoWorkInInit).
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
