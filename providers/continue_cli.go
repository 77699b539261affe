package providers

import "github.com/mcpwire/mcpwire/internal/format"

// continueCliClient is Continue CLI, cn: Continue's entries (continue.go) in the user
// file it shares with Continue's IDE extension only (its src/configLoader.ts); it
// reads no server file in a project.
var continueCliClient = &Provider{
	Name: "continue-cli", Display: "Continue CLI", DefaultScope: User,
	Order: 225, Aliases: []string{"cn"},
	dialect: newContinue,
	User:    continueUser(),
	Absent:  map[Scope]string{Project: "Continue CLI (cn) reads servers from ~/.continue/config.yaml (or cn --config FILE) only; the project's .continue/mcpServers/ blocks are read by Continue's IDE extension (--provider continue --scope project)"},
	Format:  format.YAML, ServersKey: "mcpServers", EntryName: "name", Refs: refSecrets,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone,
	NoEphemeral: "cn --config FILE loads a file in place of Continue's whole configuration, models included, so a file holding only servers leaves cn without a model",
	Sources: []string{"continuedev/continue extensions/cli/src/configLoader.ts", "continuedev/continue docs/cli/configuration.mdx (cn --config)",
		"cn 1.5.47 tested: --config replaces the configuration (docs/inject.md)",
		"cn 1.5.47 tested: user scope; project blocks not read (conformance/continue_test.go)"},
	Conformance: true,
}

func init() { register(continueCliClient) }
