package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// Snippet is a server entry pasted from a client's documentation, read back (B3).
type Snippet struct {
	// Server is the entry as a registry server, named.
	Server *registry.Server
	// Provider is the first client (in table order) whose entry shape it fits.
	Provider *providers.Provider
	// Dropped are its members with no registry equivalent.
	Dropped []string
}

// SnippetError is an entry whose shape fits no JSON client: the members no client of
// the closest shape knows, or the first reason it cannot be read. It never quotes a
// value.
type SnippetError struct {
	Server  string
	Unknown []string
	Closest string
	Reason  string
}

func (e *SnippetError) Error() string {
	if len(e.Unknown) > 0 {
		return fmt.Sprintf("server %q: the entry fits no client's shape: unknown members %s (closest: %s)", e.Server, strings.Join(e.Unknown, ", "), e.Closest)
	}
	return fmt.Sprintf("server %q: the entry fits no client's shape: %s", e.Server, e.Reason)
}

// Hints points at the shapes mcpwire reads.
func (e *SnippetError) Hints() []string {
	return []string{`paste one server entry as a client's README shows it, e.g. {"command":"npx","args":["-y","PACKAGE"]} or {"type":"http","url":"https://…"}`}
}

// ReadSnippet reads one pasted entry as a server named name. The snippet may be the
// entry itself, or the entry inside the client's servers member or under its name
// ({"mcpServers":{"x":{…}}}, {"x":{…}}) when that holds exactly one. It is tried
// against every client's entry shape in table order (a TOML client's table, given as
// JSON, too); the first that knows every member reads it, references in any client's
// spelling becoming reference fields.
//
// The snippet is read as the project reads every JSON file (internal/jsonc): comments
// and trailing commas, which READMEs often show, are fine, and a syntax error is
// worded as in any file, after "server NAME: the pasted entry".
func ReadSnippet(name string, raw []byte) (*Snippet, error) {
	dec, err := jsonc.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("server %q: the pasted entry: %w", name, err)
	}
	if key, names := snippetServers([]byte(dec.Root)); len(names) > 1 {
		return nil, &SnippetMapError{Server: name, Key: key, Names: names}
	}
	entry := unwrapSnippet(name, []byte(dec.Root))
	best := &SnippetError{Server: name}
	for _, p := range providers.All() {
		if p.Manual() {
			continue
		}
		im, err := providers.ReadSnippet(p, entry)
		switch {
		case err != nil:
			if best.Reason == "" {
				best.Reason = err.Error()
			}
		case len(im.Unknown) == 0:
			s := im.Server
			s.Name = name
			return &Snippet{Server: s, Provider: p, Dropped: im.Dropped}, nil
		case best.Unknown == nil || len(im.Unknown) < len(best.Unknown):
			best.Unknown, best.Closest = im.Unknown, p.Display
		}
	}
	return nil, best
}

// SnippetMapError is a pasted servers map of several entries where one entry
// belongs (H9): it names the servers in it, never a value.
type SnippetMapError struct {
	Server string
	// Key is the servers member they are in ("" for a bare map of entries).
	Key   string
	Names []string
}

func (e *SnippetMapError) Error() string {
	quoted := make([]string, len(e.Names))
	for i, n := range e.Names {
		quoted[i] = strconv.Quote(n)
	}
	where := "a map of"
	if e.Key != "" {
		where = strconv.Quote(e.Key) + " with"
	}
	return fmt.Sprintf("server %q: the JSON is %s %d servers (%s), not one server's entry", e.Server, where, len(e.Names), strings.Join(quoted, ", "))
}

// Hints points at import, which takes a whole client file, and at pasting one entry.
func (e *SnippetMapError) Hints() []string {
	name := e.Names[0]
	if registry.ValidServerName(name) != nil {
		name = "NAME"
	}
	return []string{
		"to take in every server of a client's file, use mcpwire import --from CLIENT (mcpwire providers lists them)",
		fmt.Sprintf(`to add one of them, paste its entry alone: mcpwire server add-json %s '{"command": …}'`, name),
	}
}

// snippetServers finds a pasted map of several servers: the entries of a servers
// member ({"mcpServers": {"a": {…}, "b": {…}}}), or a bare map whose every member is
// an object with a command or a URL ({"a": {…}, "b": {…}}). It returns the servers
// member ("" for a bare map) and the names, in the order pasted; no names otherwise.
func snippetServers(raw []byte) (string, []string) {
	top, order := objectMembers(raw)
	if len(top) == 1 && serversKey(order[0]) {
		inner, names := objectMembers(top[order[0]])
		if inner != nil {
			return order[0], names
		}
		return "", nil
	}
	for _, n := range order {
		entry, _ := objectMembers(top[n])
		if entry == nil || !(has(entry, "command") || has(entry, "url") || has(entry, "httpUrl") || has(entry, "serverUrl")) {
			return "", nil
		}
	}
	return "", order
}

// objectMembers decodes a JSON object into its members and their names in order;
// nil when raw is no object.
func objectMembers(raw []byte) (map[string]json.RawMessage, []string) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var order []string
	if _, err := dec.Token(); err != nil {
		return nil, nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		k, _ := t.(string)
		order = append(order, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil
		}
	}
	return m, order
}

func has(m map[string]json.RawMessage, k string) bool {
	_, ok := m[k]
	return ok
}

// unwrapSnippet takes the entry out of a servers member holding one entry (of any
// name), or out of a member named after the server, when that is all the snippet
// holds.
func unwrapSnippet(name string, raw []byte) json.RawMessage {
	only := func(raw []byte) (string, json.RawMessage, bool) {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil || len(m) != 1 {
			return "", nil, false
		}
		for k, v := range m {
			return k, v, true
		}
		return "", nil, false
	}
	k, inner, ok := only(raw)
	switch {
	case ok && serversKey(k):
		if _, entry, one := only(inner); one {
			return entry
		}
	case ok && k == name:
		return inner
	}
	return raw
}

// serversKey reports whether k is a member some client keeps its servers in.
func serversKey(k string) bool {
	for _, p := range providers.All() {
		if p.ServersKey == k {
			return true
		}
	}
	return false
}
