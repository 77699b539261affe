// Package registry is the model of MCP servers and profiles: their file formats
// (SPEC §2), validation, the merged view across layers with the origin of every
// entry, mutations that write the last layer only, and profile inheritance (extends).
package registry

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/mcpwire/mcpwire/policy"
)

// Transport types of a server.
const (
	Stdio = "stdio"
	HTTP  = "http"
	SSE   = "sse"
)

// Server is one entry of mcp-servers.json (R1). Fields mcpwire does not know are kept
// in Extra and written back unchanged.
type Server struct {
	Name    string            `json:"name"`
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// PlainEnv lists the env keys whose values are not credentials (P11): mcpwire's
	// extension, which AIWG keeps as an unknown member.
	PlainEnv     []string          `json:"plainEnv,omitempty"`
	EnvFrom      map[string]string `json:"envFrom,omitempty"`
	URL          string            `json:"url,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	PlainHeaders []string          `json:"plainHeaders,omitempty"` // headers whose values are not credentials, as PlainEnv (P11, H10)
	HeaderEnv    map[string]string `json:"headerEnv,omitempty"`
	BearerEnv    string            `json:"bearerEnv,omitempty"`
	// EnvInput, HeaderInput and BearerInput take an env value, a header or the bearer
	// token from an input the client asks for (T3), by its id; Inputs declares the
	// inputs the server uses. mcpwire's extensions, which AIWG keeps as unknown members.
	EnvInput    map[string]string `json:"envInput,omitempty"`
	HeaderInput map[string]string `json:"headerInput,omitempty"`
	BearerInput string            `json:"bearerInput,omitempty"`
	Inputs      []Input           `json:"inputs,omitempty"`
	// EnvSecret, HeaderSecret and BearerSecret take an env value, a header or the
	// bearer token from a secret store (S1): each maps a key to a reference
	// (op://VAULT/ITEM/FIELD, pass:PATH, keyring:SERVICE/ACCOUNT, file:PATH), which is
	// resolved when the server starts and never written anywhere (S2, S3). mcpwire's
	// extensions, which AIWG keeps as unknown members.
	EnvSecret           map[string]string `json:"envSecret,omitempty"`
	HeaderSecret        map[string]string `json:"headerSecret,omitempty"`
	BearerSecret        string            `json:"bearerSecret,omitempty"`
	Cwd                 string            `json:"cwd,omitempty"`
	Enabled             *bool             `json:"enabled,omitempty"`
	Timeout             json.RawMessage   `json:"timeout,omitempty"`
	Auth                map[string]any    `json:"auth,omitempty"`
	OAuth               map[string]any    `json:"oauth,omitempty"`
	WorkerQualification json.RawMessage   `json:"workerQualification,omitempty"`
	Description         string            `json:"description,omitempty"`
	InjectedProviders   []string          `json:"injectedProviders,omitempty"`
	AddedAt             string            `json:"addedAt,omitempty"`
	UpdatedAt           string            `json:"updatedAt,omitempty"`

	// Extra holds members mcpwire does not know (R1: they survive a write).
	Extra map[string]json.RawMessage `json:"-"`
}

// serverJSON has Server's fields without its methods, for plain encoding.
type serverJSON Server

// UnmarshalJSON decodes a server and keeps unknown members in Extra.
// The decoded strings share memory with the bytes decoded, so b (which belongs to
// the caller) is copied first.
func (s *Server) UnmarshalJSON(b []byte) error { return decodeServer(bytes.Clone(b), s) }

// MarshalJSON encodes a server: known fields in a fixed order, then unknown members.
func (s Server) MarshalJSON() ([]byte, error) {
	if b, ok := appendServer(make([]byte, 0, 128), &s); ok {
		return appendExtra(b, s.Extra)
	}
	return marshalWithExtra(serverJSON(s), s.Extra)
}

// Remote reports whether the server is reached over the network (http or sse).
func (s *Server) Remote() bool { return s.Type == HTTP || s.Type == SSE }

// Qualified reports whether the entry carries a worker qualification (L6): any
// value present except null, "", {} and [] (false and 0 are values too).
func (s *Server) Qualified() bool {
	if len(bytes.TrimSpace(s.WorkerQualification)) == 0 {
		return false
	}
	var v any
	if err := json.Unmarshal(s.WorkerQualification, &v); err != nil {
		return true // not JSON: present, and refusing is the safe side
	}
	switch v := v.(type) {
	case nil:
		return false
	case string:
		return v != ""
	case map[string]any:
		return len(v) > 0
	case []any:
		return len(v) > 0
	}
	return true
}

// withoutBookkeeping returns the JSON of s without the fields that do not count as a
// change (L4).
func (s *Server) withoutBookkeeping() []byte {
	c := *s
	c.InjectedProviders, c.AddedAt, c.UpdatedAt = nil, "", ""
	b, _ := json.Marshal(c)
	return b
}

// EnvKeys returns the names of the literal env values, sorted (R8: names, never values).
func (s *Server) EnvKeys() []string { return sortedKeys(s.Env) }

// PlainEnvKeys returns the env keys declared plain that the server's env holds
// (P11), nil when there are none.
func (s *Server) PlainEnvKeys() map[string]bool { return plainKeys(s.PlainEnv, s.Env) }

// plainKeys are the keys of declared that values holds, nil when there are none.
func plainKeys(declared []string, values map[string]string) map[string]bool {
	var out map[string]bool
	for _, k := range declared {
		if _, ok := values[k]; ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[k] = true
		}
	}
	return out
}

// PlainHeaderKeys returns the header names declared plain that the server's headers
// hold (H10), nil when there are none.
func (s *Server) PlainHeaderKeys() map[string]bool { return plainKeys(s.PlainHeaders, s.Headers) }

// HeaderKeys returns the names of the literal headers, sorted.
func (s *Server) HeaderKeys() []string { return sortedKeys(s.Headers) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Candidate is what a server policy rule looks at (G1): the name, a remote server's
// URL, a stdio server's argv.
func (s *Server) Candidate() policy.Candidate {
	c := policy.Candidate{Name: s.Name}
	if s.Remote() {
		c.URL = s.URL
	} else if s.Command != "" {
		c.Command = append([]string{s.Command}, s.Args...)
	}
	return c
}
