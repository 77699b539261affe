package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/jsonc"
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
// The snippet is read as the project reads every JSON file (render/jsonc): comments
// and trailing commas, which READMEs often show, are fine, and a syntax error is
// worded as in any file, after "server NAME: the pasted entry".
func ReadSnippet(name string, raw []byte) (*Snippet, error) {
	dec, err := jsonc.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("server %q: the pasted entry: %w", name, err)
	}
	entry := unwrapSnippet(name, []byte(dec.Root))
	best := &SnippetError{Server: name}
	for _, p := range providers.All() {
		if p.Manual() {
			continue
		}
		im, err := dialect.ReadSnippet(dialect.For(p), entry)
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
