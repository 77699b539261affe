package providers

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// vscodeClient is VS Code.
var vscodeClient = &Provider{
	Name: "vscode", Display: "VS Code", DefaultScope: Project,
	Order: 60, Aliases: []string{"code"},
	dialect: newVSCode,
	Project: &Dest{Base: ProjectDir, Dir: []string{".vscode"}, Files: []string{"mcp.json"}},
	User:    &Dest{Env: "VSCODE_APPDATA", EnvDir: []string{"Code", "User"}, Base: AppData, Dir: []string{"Code", "User"}, Files: []string{"mcp.json"}},
	Format:  format.JSONC, ServersKey: "servers", Refs: refDollarEnv, Prompts: true,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Ephemeral: true, WorkspaceVar: "${workspaceFolder}", HomeVar: "${userHome}",
	// VS Code's Copilot harness (2026-11) also reads the portable mcpServers files:
	// the workspace .mcp.json and Copilot's ~/.copilot/mcp-config.json (copilot-cli's
	// files); its own mcp.json stays read, called a "Local configuration"
	AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}, {Env: "COPILOT_HOME", Base: Home, Dir: []string{".copilot"}, Files: []string{"mcp-config.json"}}},
	Sources: []string{"microsoft/vscode-docs docs/copilot/reference/mcp-configuration.md",
		"microsoft/vscode-docs docs/agents/reference/mcp-configuration.md (2026-11-25: portable mcpServers in .mcp.json and ~/.copilot/mcp-config.json (COPILOT_HOME) for the Copilot harness)",
		vscodeUserData},
	Live: editorLive,
}

func init() { register(vscodeClient) }

// vscode is VS Code's "servers" entry: "type" on every entry (stdio, http, sse), then
// command, args, env, cwd or url, headers. It has no tool filters in the file.
type vscode struct {
	base
	p *Provider
}

func newVSCode(p *Provider) Dialect { return vscode{p: p} }

func (d vscode) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	typ := registry.Stdio
	if s.Remote() {
		typ = s.Type
	}
	e := launch(d.p, format.Object{{Key: memberType, Value: typ}}, s, v, memberURL)
	switchOff(d.p, &e, s, sf)
	return e
}

func (vscode) Filters() FilterSpec { return FilterSpec{} }

// vscodeOwn are VS Code's members with no registry equivalent.
var vscodeOwn = []string{"envFile", "sandboxEnabled", "sandbox", "dev"}

// Read reads an entry back: type and launch members.
func (d vscode) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	return r.done(s, nil, vscodeOwn...)
}

// VS Code's inputs (T3): the prompts a file declares beside its servers, in a
// top-level array of {type, id, description, password}, which ${input:ID} in an entry
// names. mcpwire declares the inputs of the entries it writes, and records each
// declaration it added as "inputs:ID" (C6); it removes one when no entry of the file
// uses it any more and nobody changed it since.
const (
	vscodeInputs    = "inputs"
	vscodeInputsRec = vscodeInputs + ":" // ownership-record prefix of a declaration
)

// Declaration is an input as VS Code declares it: its type (promptString unless the
// input was read with another), id, description (the id when it has none: Visual
// Studio needs one), password, then its other members.
func (vscode) Declaration(in registry.Input) format.Object {
	var typ any = "promptString"
	if raw, ok := in.Extra[memberType]; ok {
		typ = raw
	}
	desc := in.Description
	if desc == "" {
		desc = in.ID
	}
	o := format.Object{{Key: memberType, Value: typ}, {Key: "id", Value: in.ID}, {Key: "description", Value: desc}}
	if in.Password {
		o.Set("password", true)
	}
	for _, k := range slices.Sorted(maps.Keys(in.Extra)) {
		if k != memberType {
			o.Set(k, in.Extra[k])
		}
	}
	return o
}

// ReadInputs reads the file's input declarations.
func (vscode) ReadInputs(lookup func(path ...string) (json.RawMessage, bool)) []registry.Input {
	var out []registry.Input
	for _, el := range declarations(lookup) {
		var in registry.Input
		if json.Unmarshal(el, &in) == nil && registry.ValidInputID(in.ID) {
			out = append(out, in)
		}
	}
	return out
}

// declarations are the elements of the file's inputs array, as JSON.
func declarations(lookup func(path ...string) (json.RawMessage, bool)) []json.RawMessage {
	raw, ok := lookup(vscodeInputs)
	if !ok {
		return nil
	}
	var els []json.RawMessage
	if json.Unmarshal(raw, &els) != nil {
		return nil
	}
	return els
}

// declID is the id of a declaration, "" when it has none.
func declID(el json.RawMessage) string {
	var d struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(el, &d)
	return d.ID
}

// EditFile declares the inputs of the entries written that the file does not declare
// yet, and removes the declarations mcpwire added that no entry uses any more. The
// array is written anew when it changes (its elements keep their content).
func (d vscode) EditFile(doc format.Document, es format.Entries, st *FileState) error {
	lookup := func(path ...string) (json.RawMessage, bool) {
		v, ok := doc.Lookup(path...)
		if !ok {
			return nil, false
		}
		return v.JSON(), true
	}
	if v, ok := doc.Lookup(vscodeInputs); ok && v.Kind() != format.KindArray {
		if len(st.Inputs) == 0 {
			return nil
		}
		return fmt.Errorf("%s: %s must be an array", st.Path, vscodeInputs)
	}
	els := declarations(lookup)
	used := map[string]bool{}
	for _, n := range es.Names() {
		if e, ok := es.Get(n); ok {
			for _, ph := range policy.Scan(string(e.JSON()), []string{policy.StyleInput}).Refs() {
				used[ph.Name] = true
			}
		}
	}
	changed := false
	var keep []json.RawMessage
	have := map[string]bool{}
	for _, el := range els {
		id := declID(el)
		rec, mine := st.Record[vscodeInputsRec+id]
		if mine && !used[id] {
			st.Forget = append(st.Forget, vscodeInputsRec+id)
			if rec == format.Digest(el) {
				changed = true
				continue // mcpwire's, unchanged, and no entry asks for it
			}
		}
		keep = append(keep, el)
		have[id] = true
	}
	for _, in := range st.Inputs {
		if have[in.ID] {
			continue
		}
		raw, err := format.Marshal(d.Declaration(in))
		if err != nil {
			return err
		}
		keep = append(keep, raw)
		have[in.ID] = true
		st.Wrote[vscodeInputsRec+in.ID] = format.Digest(raw)
		changed = true
	}
	if !changed {
		return nil
	}
	if len(keep) == 0 {
		_, err := doc.Delete([]string{vscodeInputs})
		return err
	}
	return doc.Set([]string{vscodeInputs}, keep)
}

// RecordMember is the member whose declarations mcpwire records beside the servers.
func (vscode) RecordMember() string { return vscodeInputs }

// CheckNames refuses a server named "inputs:…", which the ownership record could not
// tell from a declaration mcpwire added.
func (vscode) CheckNames(names, _ []string) error {
	for _, n := range names {
		if strings.HasPrefix(n, vscodeInputsRec) {
			return fmt.Errorf("server %q cannot be written to VS Code: mcpwire records its input declarations as %q", n, vscodeInputsRec+"ID")
		}
	}
	return nil
}

// Standalone declares the inputs of a standalone file's entries.
func (d vscode) Standalone(doc format.Object, _ *FilterSet, inputs []registry.Input) format.Object {
	if len(inputs) == 0 {
		return doc
	}
	var decls []format.Object
	for _, in := range inputs {
		decls = append(decls, d.Declaration(in))
	}
	return append(format.Object{{Key: vscodeInputs, Value: decls}}, doc...)
}

// vscodeUserData is the source of VS Code's user directory: VSCODE_APPDATA, else
// %APPDATA% (else %USERPROFILE%\AppData\Roaming) on Windows, ~/Library/Application
// Support on macOS, $XDG_CONFIG_HOME (else ~/.config) on Linux, then the product name.
const vscodeUserData = "microsoft/vscode src/vs/platform/environment/node/userDataPath.js (VSCODE_APPDATA, then the per-OS application-data directory)"
