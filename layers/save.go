package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/mcpwire/mcpwire/render/fsys"
	"github.com/mcpwire/mcpwire/render/jsonc"
)

// Delta is a change to one registry file of the write layer.
type Delta struct {
	// Kind selects mcp-servers.json or mcp-profiles.json.
	Kind Kind
	// Set holds entries written whole (standard JSON).
	Set map[string]json.RawMessage
	// Delete names entries to remove.
	Delete []string
	// Top holds top-level members to set; a nil value removes the member.
	Top map[string]json.RawMessage
}

// Empty reports whether the delta changes nothing.
func (d Delta) Empty() bool { return len(d.Set) == 0 && len(d.Delete) == 0 && len(d.Top) == 0 }

// FileMode is the mode of registry files; DirMode the mode of directories mcpwire
// creates for them (W4).
const (
	FileMode fs.FileMode = 0o600
	DirMode  fs.FileMode = 0o700
)

// Save applies deltas to the write layer in one transaction, after the overlap checks
// of L8. Each file is edited in place, so comments and unrelated members survive
// (L11); the edit is recomputed if another process changed the file meanwhile (W8).
// On success the in-memory files are updated.
func (s *Set) Save(deltas ...Delta) error {
	var targets []fsys.Target
	var kinds []Kind
	for _, d := range deltas {
		if d.Empty() {
			continue
		}
		d := d
		file := s.Write().File(d.Kind)
		targets = append(targets, fsys.Target{
			Path:    file.Path,
			DirPerm: DirMode,
			Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
				out, err := d.apply(cur)
				return out, FileMode, false, err
			},
		})
		kinds = append(kinds, d.Kind)
	}
	if len(targets) == 0 {
		return nil
	}
	if err := s.CheckWrite(); err != nil {
		return err
	}
	results, err := fsys.Apply(s.fs, targets)
	if err != nil {
		return err
	}
	for i, r := range results {
		file := s.Write().File(kinds[i])
		fresh := newFile(file.Path, file.Kind)
		fresh.Exists = true
		if err := fresh.decode(r.New); err != nil {
			return fmt.Errorf("%s: %w", file.Path, err)
		}
		*file = *fresh
	}
	return nil
}

// apply edits the current bytes of a registry file with the delta.
func (d Delta) apply(cur fsys.Snapshot) ([]byte, error) {
	src := cur.Data
	if !cur.Exists || len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{\n}\n")
	}
	doc, err := jsonc.Parse(src)
	if errors.Is(err, jsonc.ErrEmpty) {
		// only comments: keep them, and start the object after them (as on reading,
		// such a file is an empty registry)
		src = append(bytes.Clone(src), "\n{\n}\n"...)
		doc, err = jsonc.Parse(src)
	}
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if doc.Root().Kind() != jsonc.Object {
		return nil, errors.New("invalid JSON: the top level must be an object")
	}
	set := func(path []string, raw json.RawMessage) error {
		if v, ok := doc.Lookup(path...); ok && jsonEqual(v.JSON(), raw) {
			return nil
		}
		return doc.Set(path, raw)
	}
	if err := set([]string{"apiVersion"}, mustJSON(APIVersion)); err != nil {
		return nil, err
	}
	if err := set([]string{"kind"}, mustJSON(d.Kind.KindName())); err != nil {
		return nil, err
	}
	for k, v := range sortedMembers(d.Top) {
		if v == nil {
			if _, err := doc.Delete([]string{k}); err != nil {
				return nil, err
			}
			continue
		}
		if err := set([]string{k}, v); err != nil {
			return nil, err
		}
	}
	coll := d.Kind.Collection()
	if _, ok := doc.Lookup(coll); !ok {
		if err := doc.Set([]string{coll}, []byte("{}")); err != nil {
			return nil, err
		}
	}
	for _, name := range d.Delete {
		if _, err := doc.Delete([]string{coll, name}); err != nil {
			return nil, err
		}
	}
	for name, v := range sortedMembers(d.Set) {
		if err := set([]string{coll, name}, v); err != nil {
			return nil, err
		}
	}
	return doc.Bytes(), nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// jsonEqual compares two JSON documents semantically.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ab, _ := json.Marshal(x)
	bb, _ := json.Marshal(y)
	return bytes.Equal(ab, bb)
}
