package dialect

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// auggie is auggie's (Augment's CLI) mcpServers entry: "type" on every entry, then
// command, args, env or url, headers — VS Code's spelling — with the disabled switch.
// auggie keeps no working directory and no tool filter in an entry. It validates a
// file's mcpServers as a whole: one entry it cannot read (a type other than stdio, http
// or sse, args that are not strings, a disabled that is not a boolean) drops every
// server of the file, silently, so mcpwire refuses to write into such a file (V9). A
// standalone file replaces the settings' servers for a run (--mcp-config).
type auggie struct{ vscode }

func newAuggie(p *providers.Provider) Dialect { return auggie{vscode{p}} }

const auggieMCPConfig = "--mcp-config"

// auggieTypes are the types auggie reads.
var auggieTypes = []string{registry.Stdio, registry.HTTP, registry.SSE}

// EditFile refuses a file whose servers auggie would drop: one entry it cannot read.
func (d auggie) EditFile(_ format.Document, es format.Entries, st *FileState) error {
	for _, n := range es.Names() {
		e, _ := es.Get(n)
		if why := auggieInvalid(e); why != "" {
			return fmt.Errorf("%s: %s ignores every server of this file because of entry %q: %s; fix or remove that entry, then run again", st.Path, d.p.Display, n, why)
		}
	}
	return nil
}

// auggieInvalid says why auggie cannot read an entry, "" when it can.
func auggieInvalid(e format.Value) string {
	if e.Kind() != format.KindObject {
		return "it is not an object"
	}
	if t, ok := e.Member(memberType); ok {
		var typ string
		if t.Kind() != format.String || json.Unmarshal(t.JSON(), &typ) != nil || !slices.Contains(auggieTypes, typ) {
			return fmt.Sprintf("type %s is not stdio, http or sse", t.JSON())
		}
	}
	if a, ok := e.Member(memberArgs); ok {
		if _, ok := format.Strings(a); !ok {
			return "args is not a list of strings"
		}
	}
	if o, ok := e.Member("disabled"); ok && o.Kind() != format.Bool {
		return "disabled is not true or false"
	}
	return ""
}

// Launch runs auggie on the standalone file's servers.
func (d auggie) Launch(out, _ string) Launch {
	return Launch{Binary: d.p.Binary, Args: []string{auggieMCPConfig, out}}
}
