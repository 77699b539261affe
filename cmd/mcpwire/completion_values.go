package main

import (
	"io"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/urfave/cli/v2"
)

// nameSource lists the names a flag value or an argument may take (U6).
type nameSource func(*runState) []string

// flagNames is what the value of a flag of the command at path names. A flag not
// listed takes a path, a number or free text: nothing is printed and the shell
// completes file names.
func flagNames(path, flag string) nameSource {
	switch path + " --" + flag {
	case "session --provider":
		return sessionProviderNames
	case "inject --profile", "uninject --profile", "probe --profile":
		return withAll(profileNames)
	case "profile add --servers":
		return withAll(serverNames)
	case "import --servers":
		return nil // entries of the client's file, not registry servers
	}
	switch flag {
	case "provider":
		return providerNames
	case "from":
		return func(*runState) []string { return append(providerNames(nil), "all") }
	case "profile", "extends":
		return profileNames
	case "servers", "add-server", "remove-server":
		return serverNames
	case "scope":
		return fixedNames(string(providers.Project), string(providers.Local), string(providers.User))
	case "type":
		return fixedNames(string(registry.Stdio), string(registry.HTTP), string(registry.SSE))
	}
	return nil
}

// argNames is what the first argument of the command at path names, or nil.
func argNames(path string) nameSource {
	switch path {
	case "server show", "server update", "server remove":
		return serverNames
	case "profile show", "profile edit", "profile remove", "profile export":
		return profileNames
	case "install":
		return providerNames
	case "credential-policy":
		return fixedNames("literal", "references", "none")
	}
	return nil
}

// printValues prints the names flag f takes, each after lead (the "--flag=" of a
// word completed whole). For a list flag the value typed so far may hold a comma
// list: the names already in it are the start of every candidate and not offered
// again ("--servers a,<TAB>" offers "a,b", "a,c").
func (st *runState) printValues(c *cli.Context, path string, f cli.Flag, lead, value string) {
	src := flagNames(path, f.Names()[0])
	if src == nil {
		return
	}
	var listed []string
	if i := strings.LastIndex(value, ","); i >= 0 && !singleValue(f) {
		lead += value[:i+1]
		listed = strings.Split(value[:i], ",")
	}
	st.printNames(c, src(st), lead, listed)
}

// printNames prints each name after lead, leaving out those listed.
func (st *runState) printNames(c *cli.Context, names []string, lead string, listed []string) {
	for _, n := range names {
		if !slices.Contains(listed, n) {
			printf(c.App.Writer, "%s%s\n", lead, n)
		}
	}
}

// providerNames lists every provider and alias (V2).
func providerNames(*runState) []string {
	var out []string
	for _, n := range providers.Names() {
		out = append(out, n)
		out = append(out, providers.Aliases(n)...)
	}
	return out
}

// sessionProviderNames lists the clients session launches.
func sessionProviderNames(*runState) []string {
	var out []string
	for _, p := range write.SessionProviders() {
		out = append(out, p.Name)
		out = append(out, p.Aliases...)
	}
	return out
}

func profileNames(st *runState) []string {
	if reg := st.quietRegistry(); reg != nil {
		return reg.ProfileNames()
	}
	return nil
}

func serverNames(st *runState) []string {
	if reg := st.quietRegistry(); reg != nil {
		return reg.ServerNames()
	}
	return nil
}

// withAll adds __all__ (every server) where a command takes it.
func withAll(src nameSource) nameSource {
	return func(st *runState) []string { return append(src(st), registry.AllServers) }
}

func fixedNames(names ...string) nameSource {
	return func(*runState) []string { return names }
}

// quietRegistry reads the registry for completion: the layers of the environment
// (AIWG_CONFIG_LAYERS, AIWG_CONFIG) or of a --config-dir on the command line, as the
// command would. It never writes, and never prints: warnings are discarded, and a
// layer that cannot be read gives nil (no names), not an error on the terminal.
func (st *runState) quietRegistry() *registry.Registry {
	env := st.env
	if env == nil {
		return nil
	}
	if env.reg == nil {
		env.Stderr, env.errs = io.Discard, &stream{w: io.Discard}
		env.configDir = st.flagValue("config-dir")
	}
	reg, err := env.registry()
	if err != nil {
		return nil
	}
	return reg
}
