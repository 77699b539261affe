package providers

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// continueClient is Continue.
var continueClient = &Provider{
	Name: "continue", Display: "Continue", DefaultScope: User,
	Order:   220,
	dialect: newContinue,
	// a block file of mcpwire's in the workspace (the IDE extension reads every
	// *.yaml there; Continue CLI does not); the user file is Continue's config.yaml,
	// shared with Continue CLI (continue_cli.go)
	Project: &Dest{Base: ProjectDir, Dir: []string{".continue", "mcpServers"}, Files: []string{"mcpwire.yaml"}},
	User:    continueUser(),
	Format:  format.YAML, ServersKey: "mcpServers", EntryName: "name", Refs: refSecrets,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone,
	NoEphemeral: "cn --config FILE loads a file in place of Continue's whole configuration, models included, so a file holding only servers leaves cn without a model",
	ProjectNote: "the Continue IDE extension reads .continue/mcpServers/; Continue CLI (cn) does not: it reads servers from ~/.continue/config.yaml only (mcpwire inject --provider cn)",
	Sources: []string{"continuedev/continue docs/customize/deep-dives/mcp.mdx", "continuedev/continue packages/config-yaml/src/schemas/mcp/index.ts",
		"continuedev/continue core/util/paths.ts", "continuedev/continue core/config/yaml/LocalPlatformClient.ts",
		"cn 1.5.47 tested: project blocks not read (conformance/continue_test.go TestContinueCLIProjectBlocks)"},
}

func init() { register(continueClient) }

// continueDev is Continue's mcpServers entry (a YAML list named by "name", in
// ~/.continue/config.yaml or a block file .continue/mcpServers/*.yaml):
// {name, type: stdio, command, args, env, cwd} and {name, type: streamable-http | sse,
// url, requestOptions: {headers}} (continuedev/continue
// packages/config-yaml/src/schemas/mcp/index.ts). References are ${{ secrets.VAR }},
// which Continue resolves from ~/.continue/.env, <workspace>/.continue/.env,
// <workspace>/.env and then its own environment (core/config/yaml/LocalPlatformClient.ts).
// It has no tool filter and no per-server switch.
//
// A file Continue reads must carry name and version (a block file also schema: v1):
// mcpwire writes them into a file it creates, Continue's own defaults for config.yaml
// (core/config/default.ts) and a block header naming mcpwire for a block file.
type continueDev struct {
	base
	p *Provider
}

func newContinue(p *Provider) Dialect { return continueDev{p: p} }

// Continue's members.
const (
	continueRequestOptions = "requestOptions"
	continueStdio          = "stdio"
	continueHTTP           = "streamable-http"
)

// continueConfigHeader is what Continue writes into a config.yaml it creates;
// continueBlockHeader heads a block file of mcpwire's.
var (
	continueConfigHeader = format.Object{{Key: "name", Value: "Main Config"}, {Key: "version", Value: "1.0.0"}, {Key: "schema", Value: "v1"}}
	continueBlockHeader  = format.Object{{Key: "name", Value: "mcpwire"}, {Key: "version", Value: "0.0.1"}, {Key: "schema", Value: "v1"}}
)

func (d continueDev) Entry(s *registry.Server, v *Values, _ *ServerFilters) format.Object {
	if !s.Remote() {
		return launch(d.p, format.Object{{Key: memberType, Value: continueStdio}}, s, v, memberURL)
	}
	typ := continueHTTP
	if s.Type == registry.SSE {
		typ = registry.SSE
	}
	e := format.Object{{Key: memberType, Value: typ}, {Key: memberURL, Value: v.URL}}
	if len(v.Headers) > 0 {
		e.Set(continueRequestOptions, format.Object{{Key: memberHeaders, Value: v.Headers}})
	}
	return e
}

func (continueDev) Filters() FilterSpec { return FilterSpec{} }

// continueOwn are Continue's members with no registry equivalent.
var continueOwn = []string{"serverName", "faviconUrl", "sourceFile", "connectionTimeout"}

// Read reads an entry back: its name member, type (stdio, or sse / streamable-http for
// a url), the launch members, and the headers inside requestOptions (its other
// options are dropped).
func (d continueDev) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	r.has(d.p.EntryName)
	typ := r.readType(memberType)
	s := readLaunch(d.p, r, "", memberURL) // headers are inside requestOptions
	s.Type = typ
	var opts map[string]json.RawMessage
	r.decode(continueRequestOptions, "an object", &opts)
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if k != memberHeaders {
			r.drop(continueRequestOptions+"."+k, true)
			continue
		}
		if json.Unmarshal(opts[k], &s.Headers) != nil && r.err == nil {
			r.err = &EntryError{continueRequestOptions + ".headers", "must be an object of strings"}
		}
	}
	return r.done(s, nil, continueOwn...)
}

// EditFile writes the header a new file needs: Continue refuses a config or block
// without name and version. A file that has other members is left as it is.
func (d continueDev) EditFile(doc format.Document, _ format.Entries, st *FileState) error {
	if len(st.Set) == 0 {
		return nil
	}
	if root, ok := doc.Lookup(); ok {
		for _, k := range root.Keys() {
			if k != d.p.ServersKey {
				return nil
			}
		}
	}
	header := continueBlockHeader
	if filepath.Base(st.Path) == "config.yaml" {
		header = continueConfigHeader
	}
	for _, m := range header {
		if err := doc.Set([]string{m.Key}, m.Value); err != nil {
			return err
		}
	}
	return nil
}

// refSecrets is how the client spells a reference to a variable (V4).
var refSecrets = policy.Spelling{Style: "${{ secrets.VAR }}", Open: "${{ secrets.", Close: " }}"}

// continueUser is Continue's user file, config.yaml, which its IDE extension and its
// CLI read (V10), never created beside a config.json, which Continue reads while
// config.yaml is missing.
func continueUser() *Dest {
	return &Dest{Env: "CONTINUE_GLOBAL_DIR", Base: Home, Dir: []string{".continue"}, Files: []string{"config.yaml"}, Yields: []string{"config.json"}}
}
