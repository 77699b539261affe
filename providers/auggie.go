package providers

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// auggieClient is Augment (auggie).
var auggieClient = &Provider{
	Name: "auggie", Display: "Augment (auggie)", DefaultScope: User,
	Order: 170, Aliases: []string{"augment"},
	dialect: newAuggie,
	Project: &Dest{Base: ProjectDir, Dir: []string{".augment"}, Files: []string{"settings.json"}},
	Local:   &Dest{Base: ProjectDir, Dir: []string{".augment"}, Files: []string{"settings.local.json"}},
	User:    &Dest{Base: Home, Dir: []string{".augment"}, Files: []string{"settings.json"}},
	Format:  format.JSONC, ServersKey: "mcpServers", Switch: "disabled", Refs: refDollar, LiteralHeaders: true,
	Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone, Binary: "auggie", Ephemeral: true,
	Sources: []string{"@augmentcode/auggie 0.36.0 bundle augment.mjs (SettingsManager, MCP server schema, --mcp-config)",
		"auggie 0.36.0 tested (observe/OBSERVED.md)"},
	Conformance: true,
	Live:        auggieLive,
}

func init() { register(auggieClient) }

// auggie is auggie's (Augment's CLI) mcpServers entry: "type" on every entry, then
// command, args, env or url, headers — VS Code's spelling — with the disabled switch.
// auggie keeps no working directory and no tool filter in an entry. It validates a
// file's mcpServers as a whole: one entry it cannot read drops every server of the
// file (silently, or with one line on stderr), so mcpwire refuses to write into such a
// file (V9), naming the entry and its member. A standalone file replaces the
// settings' servers for a run (--mcp-config).
type auggie struct{ vscode }

func newAuggie(p *Provider) Dialect { return auggie{vscode{p: p}} }

const auggieMCPConfig = "--mcp-config"

// auggieTypes are the types auggie reads.
var auggieTypes = []string{registry.Stdio, registry.HTTP, registry.SSE}

// auggieStrings are the members auggie's schema takes as strings only, when present
// (null is not absent for it).
var auggieStrings = []string{"name", "title", memberCommand, memberURL, "clientId", "cwd"}

// EditFile refuses a file whose servers auggie would drop: one entry it cannot read.
func (d auggie) EditFile(_ format.Document, es format.Entries, st *FileState) error {
	for _, n := range es.Names() {
		e, _ := es.Get(n)
		if why := auggieInvalid(e); why != "" {
			return &auggieEntryError{path: st.Path, client: d.p.Display, entry: n, why: why}
		}
	}
	return nil
}

// auggieEntryError is an entry of an auggie settings file that makes auggie drop every
// server of the file.
type auggieEntryError struct{ path, client, entry, why string }

func (e *auggieEntryError) Error() string {
	return fmt.Sprintf("%s: %s ignores every server of this file because of entry %q: %s", e.path, e.client, e.entry, e.why)
}

// Hints says how to go on.
func (e *auggieEntryError) Hints() []string {
	return []string{fmt.Sprintf("fix or remove entry %q in %s, then run again", e.entry, e.path)}
}

// auggieInvalid says why auggie cannot read an entry, "" when it can. The rules are
// auggie 0.36.0's: its settings schema for an mcpServers entry (zod, unknown members
// kept) and then the conversion of each entry to a server, which needs a command for
// stdio and a url for http and sse (@augmentcode/auggie augment.mjs; each rule seen
// dropping the file's servers in auggie mcp list --json).
func auggieInvalid(e format.Value) string {
	if e.Kind() != format.KindObject {
		return "it is not an object"
	}
	var m map[string]any
	if json.Unmarshal(e.JSON(), &m) != nil {
		return "it is not an object"
	}
	for _, k := range auggieStrings {
		if v, ok := m[k]; ok {
			if _, ok := v.(string); !ok {
				return k + " is not a string"
			}
		}
	}
	if t, ok := m[memberType]; ok {
		if typ, _ := t.(string); !slices.Contains(auggieTypes, typ) {
			return fmt.Sprintf("type %s is not stdio, http or sse", jsonText(t))
		}
	}
	if v, ok := m["disabled"]; ok {
		if _, ok := v.(bool); !ok {
			return "disabled is not true or false"
		}
	}
	if why := auggieMaps(m); why != "" {
		return why
	}
	return auggieLaunch(m)
}

// auggieMaps checks args, env and headers: args a list of strings, numbers or booleans;
// env an object of those or null; headers an object of strings.
func auggieMaps(m map[string]any) string {
	if v, ok := m[memberArgs]; ok {
		list, ok := v.([]any)
		if !ok || slices.ContainsFunc(list, func(x any) bool { return !scalar(x, false) }) {
			return "args is not a list of strings, numbers or booleans"
		}
	}
	for _, c := range []struct {
		key, want string
		ok        func(any) bool
	}{
		{memberEnv, "a string, number, boolean or null", func(x any) bool { return scalar(x, true) }},
		{memberHeaders, "a string", func(x any) bool { _, ok := x.(string); return ok }},
	} {
		if v, ok := m[c.key]; ok {
			obj, ok := v.(map[string]any)
			if !ok {
				return c.key + " is not an object"
			}
			for _, k := range slices.Sorted(maps.Keys(obj)) {
				if !c.ok(obj[k]) {
					return fmt.Sprintf("%s.%s is not %s", c.key, k, c.want)
				}
			}
		}
	}
	return ""
}

// auggieLaunch checks what the entry's type needs: the type is the type member, else
// http for a non-empty url, else stdio for a non-empty command.
func auggieLaunch(m map[string]any) string {
	typ, _ := m[memberType].(string)
	url, _ := m[memberURL].(string)
	command, _ := m[memberCommand].(string)
	switch {
	case typ == "" && url == "" && command == "":
		return "it has neither a command nor a url"
	case typ == registry.HTTP || typ == registry.SSE:
		if url == "" {
			return "type " + typ + " needs a url"
		}
	case typ == registry.Stdio && command == "":
		return "type stdio needs a command"
	}
	return ""
}

// scalar reports whether x is a string, number or boolean (or null, when null is).
func scalar(x any, null bool) bool {
	switch x.(type) {
	case string, float64, bool:
		return true
	case nil:
		return null
	}
	return false
}

// jsonText is a decoded JSON value as JSON.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Launch runs auggie on the standalone file's servers.
func (d auggie) Launch(out, _ string) (Launch, bool) {
	return Launch{Binary: d.p.Binary, Args: []string{auggieMCPConfig, out}}, true
}

// The liveness of auggie, Qoder CLI and Factory droid (each tested, docs/explain.md),
// none with trust or approval:
//   - auggie: its local, project and user files, the first holding a name winning
//     whole; an entry it cannot use makes it skip the whole file;
//   - Qoder CLI: the .mcp.json and the local file of the directory it starts in, and
//     its user file, layered member by member in that order (a "disabled" of any
//     layer stays);
//   - Factory droid: .factory/mcp.json from the start directory up to the project's
//     top, the nearest first, then the user's; a server whose reference names a
//     variable that is not set, or a file holding an entry it cannot use, is left out.
func auggieLive() *Live {
	l := inOrder(Local, Project, User)
	l.DropsBadFiles = true
	return l
}
