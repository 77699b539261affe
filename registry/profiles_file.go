package registry

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// ReadProfiles reads a file of profiles for profile import (R6): {"profiles": {…}}
// (with or without apiVersion/kind) or a bare map of profiles, in JSONC, after an
// optional byte order mark. An error names the file.
func ReadProfiles(f fsys.FS, path string) (map[string]*Profile, error) {
	data, err := f.ReadFile(path)
	if err != nil {
		return nil, err
	}
	in, err := decodeImport(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return in, nil
}

// decodeImport accepts {"profiles": {…}} (with or without apiVersion/kind) or a bare
// map of profiles, in JSONC, after an optional byte order mark.
func decodeImport(data []byte) (map[string]*Profile, error) {
	data, _ = bytes.CutPrefix(data, []byte(jsonc.BOM))
	doc, err := jsonc.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if doc.Members == nil {
		return nil, jsonc.NotObject(doc.Root.Kind())
	}
	raws := doc.Members
	if wrapped := wrapper(doc.Members); wrapped != nil {
		if wrapped.Members == nil {
			return nil, jsonc.NotObject(wrapped.Value.Kind(), "profiles")
		}
		raws = wrapped.Members
	}
	out := make(map[string]*Profile, len(raws))
	for _, m := range raws { // the last of a name wins, as in encoding/json
		p := &Profile{}
		if err := json.Unmarshal(m.Value, p); err != nil {
			return nil, fmt.Errorf("profile %q: %w", m.Name, err)
		}
		out[m.Name] = p
	}
	return out, nil
}

// wrapper returns the last "profiles" member when the top level holds it and
// nothing but the other members of a registry file, else nil.
func wrapper(top []jsonc.RawMember) *jsonc.RawMember {
	var profiles *jsonc.RawMember
	for i, m := range top {
		switch m.Name {
		case "profiles":
			profiles = &top[i]
		case "apiVersion", "kind", "credentialPolicy":
		default:
			return nil
		}
	}
	return profiles
}
