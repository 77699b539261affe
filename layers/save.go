package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// Delta is a change to one registry file of the write layer.
type Delta struct {
	// Kind selects mcp-servers.json or mcp-profiles.json.
	Kind Kind
	// Set holds entries written whole (standard JSON).
	Set map[string]json.RawMessage
	// Add holds new entries written whole (standard JSON), sorted by name, each named
	// once: each must still be absent from the file under the lock, as an entry of Set
	// with an Expect of nil is (W8), but without maps of the names (K7: an import adds
	// 200,000). A name in Add must not be in Set, Delete, Expect or Patch.
	Add []Entry
	// Delete names entries to remove.
	Delete []string
	// Top holds top-level members to set; a nil value removes the member.
	Top map[string]json.RawMessage

	// Expect holds, per entry, the standard JSON this process read from the file (a
	// nil value: the entry was absent). Save checks it against the file as it is under
	// the lock, on every try: an entry that is no longer so makes Save fail with a
	// *ConflictError and write nothing, so another process's change is never
	// overwritten (W8).
	Expect map[string]json.RawMessage
	// ExpectTop is Expect for top-level members.
	ExpectTop map[string]json.RawMessage
	// DropTopIf removes each top-level member only while it still holds the given
	// value (compared as JSON); a member that changed meanwhile is left alone.
	DropTopIf map[string]json.RawMessage
	// Patch holds, per entry, a function that computes a change from the entry as it
	// is in the file under the lock (cur is nil when the entry is absent). It returns
	// members to set inside the entry (a nil value removes the member; nothing
	// returned changes nothing), so everything else in the entry, comments included,
	// is kept. Patches run after Delete and Set, possibly several times: they must
	// not have side effects.
	Patch map[string]func(cur json.RawMessage) (map[string]json.RawMessage, error)
}

// Entry is one entry of a registry file: its name and its value, standard JSON.
type Entry struct {
	Name  string
	Value json.RawMessage
}

// Empty reports whether the delta changes nothing.
func (d Delta) Empty() bool {
	return len(d.Set) == 0 && len(d.Add) == 0 && len(d.Delete) == 0 && len(d.Top) == 0 && len(d.DropTopIf) == 0 && len(d.Patch) == 0
}

// ErrConflict is matched (errors.Is) by every *ConflictError.
var ErrConflict = errors.New("changed by another process")

// ConflictError reports that an entry or top-level member of the write layer was
// changed by another process after this process read it (W8). Nothing was written.
type ConflictError struct {
	// Path is the file.
	Path string
	// Kind is the file's registry kind.
	Kind Kind
	// Name is the entry; empty for the top-level member Member.
	Name, Member string
	// Had and Has report whether the entry or member existed when this process read
	// the file, and whether it exists now.
	Had, Has bool
}

func (e *ConflictError) Error() string {
	what := e.Member
	if e.Name != "" {
		what = fmt.Sprintf("%s %q", e.Kind.noun(), e.Name)
	}
	var how string
	switch {
	case !e.Had:
		how = fmt.Sprintf("%s was added to %s", what, e.Path)
	case !e.Has:
		how = fmt.Sprintf("%s was removed from %s", what, e.Path)
	default:
		how = fmt.Sprintf("%s in %s was changed", what, e.Path)
	}
	return how + " by another process after mcpwire read it; nothing was written; run the command again"
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// noun names one entry of the kind in messages.
func (k Kind) noun() string {
	if k == Profiles {
		return "profile"
	}
	return "server"
}

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
				var bom bool // a byte order mark is kept, as in client files
				cur.Data, bom = bytes.CutPrefix(cur.Data, []byte(jsonc.BOM))
				out, err := d.apply(file.Path, cur)
				if bom && err == nil {
					out = append([]byte(jsonc.BOM), out...)
				}
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

// apply edits the current bytes of the registry file at path with the delta.
func (d Delta) apply(path string, cur fsys.Snapshot) ([]byte, error) {
	doc, err := parseLayer(path, cur)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(d.Add); i++ {
		if d.Add[i-1].Name >= d.Add[i].Name {
			return nil, fmt.Errorf("%s: %s %q: added out of order or twice", path, d.Kind.noun(), d.Add[i].Name)
		}
	}
	if err := d.checkExpected(doc, path); err != nil {
		return nil, err
	}
	if err := d.editTop(doc); err != nil {
		return nil, err
	}
	if err := d.editCollection(doc, path); err != nil {
		return nil, err
	}
	return doc.Bytes(), nil
}

// parseLayer parses a layer file as it is now: a missing or blank one is an empty
// object, and one holding only comments keeps them above a new object.
func parseLayer(path string, cur fsys.Snapshot) (*jsonc.Doc, error) {
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
		return nil, fmt.Errorf("%s: invalid JSON: %w", path, err)
	}
	if doc.Root().Kind() != jsonc.Object {
		return nil, fmt.Errorf("%s: %w", path, jsonc.NotObject(doc.Root().Kind()))
	}
	return doc, nil
}

// checkExpected checks what this process read against the file as it is now.
func (d Delta) checkExpected(doc *jsonc.Doc, path string) error {
	if len(d.Expect) > 0 || len(d.Add) > 0 {
		// the entries looked up in the collection built once, not each by scanning
		// its text (K7: n names checked in a file of m entries cost n + m, not n × m)
		doc.Open(d.Kind.Collection())
	}
	for _, name := range slices.Sorted(maps.Keys(d.Expect)) {
		if err := d.expect(doc, path, []string{d.Kind.Collection(), name}, d.Expect[name]); err != nil {
			return err
		}
	}
	p := []string{d.Kind.Collection(), ""}
	for _, e := range d.Add {
		p[1] = e.Name
		if err := d.expect(doc, path, p, nil); err != nil {
			return err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(d.ExpectTop)) {
		if err := d.expect(doc, path, []string{k}, d.ExpectTop[k]); err != nil {
			return err
		}
	}
	return nil
}

// setChanged sets the member at path to raw unless it already holds the same JSON.
func setChanged(doc *jsonc.Doc, path []string, raw json.RawMessage) error {
	if v, ok := doc.Lookup(path...); ok && jsonEqual(v.JSON(), raw) {
		return nil
	}
	return doc.Set(path, raw)
}

// editTop writes the header (apiVersion, kind) and the top-level members of the delta.
func (d Delta) editTop(doc *jsonc.Doc) error {
	if err := setChanged(doc, []string{"apiVersion"}, mustJSON(APIVersion)); err != nil {
		return err
	}
	if err := setChanged(doc, []string{"kind"}, mustJSON(d.Kind.KindName())); err != nil {
		return err
	}
	for k, v := range sortedMembers(d.Top) {
		if v == nil {
			if _, err := doc.Delete([]string{k}); err != nil {
				return err
			}
			continue
		}
		if err := setChanged(doc, []string{k}, v); err != nil {
			return err
		}
	}
	for k, was := range sortedMembers(d.DropTopIf) {
		if v, ok := doc.Lookup(k); ok && sameJSON(v.JSON(), was) {
			if _, err := doc.Delete([]string{k}); err != nil {
				return err
			}
		}
	}
	return nil
}

// editCollection deletes, sets and patches the delta's servers or profiles.
func (d Delta) editCollection(doc *jsonc.Doc, path string) error {
	coll := d.Kind.Collection()
	if _, ok := doc.Lookup(coll); !ok {
		if err := doc.Set([]string{coll}, []byte("{}")); err != nil {
			return err
		}
	}
	for _, name := range d.Delete {
		if _, err := doc.Delete([]string{coll, name}); err != nil {
			return err
		}
	}
	// the members set and added, in one edit of the collection (K7: an import adds
	// 200,000), in the order of their names
	names := make([]string, 0, len(d.Set)+len(d.Add))
	values := make([][]byte, 0, len(d.Set)+len(d.Add))
	set := slices.Sorted(maps.Keys(d.Set))
	add := d.Add
	for len(set) > 0 || len(add) > 0 {
		if len(add) == 0 || len(set) > 0 && set[0] < add[0].Name {
			names, values = append(names, set[0]), append(values, d.Set[set[0]])
			set = set[1:]
			continue
		}
		names, values = append(names, add[0].Name), append(values, add[0].Value)
		add = add[1:]
	}
	if err := doc.SetMembers([]string{coll}, names, values, jsonEqual); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(d.Patch)) {
		var cur json.RawMessage
		if v, ok := doc.Lookup(coll, name); ok {
			cur = v.JSON()
		}
		members, err := d.Patch[name](cur)
		if err != nil {
			return fmt.Errorf("%s: %s %q: %w", path, d.Kind.noun(), name, err)
		}
		for m, v := range sortedMembers(members) {
			p := []string{coll, name, m}
			if v == nil {
				_, err = doc.Delete(p)
			} else {
				err = setChanged(doc, p, v)
			}
			if err != nil {
				return fmt.Errorf("%s: %s %q: %w", path, d.Kind.noun(), name, err)
			}
		}
	}
	return nil
}

// expect fails with a *ConflictError unless the member at p still holds want (nil:
// is still absent).
func (d Delta) expect(doc *jsonc.Doc, path string, p []string, want json.RawMessage) error {
	v, has := doc.Lookup(p...)
	had := want != nil
	if had == has && (!has || sameJSON(v.JSON(), want)) {
		return nil
	}
	e := &ConflictError{Path: path, Kind: d.Kind, Had: had, Has: has}
	if len(p) == 2 {
		e.Name = p[1]
	} else {
		e.Member = p[0]
	}
	return e
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// sameJSON compares two JSON documents semantically, numbers by their text (so that
// no number is too large to compare). Invalid JSON is equal to nothing.
func sameJSON(a, b []byte) bool {
	x, err := decodeNumbers(a)
	if err != nil {
		return false
	}
	y, err := decodeNumbers(b)
	if err != nil {
		return false
	}
	ab, _ := json.Marshal(x)
	bb, _ := json.Marshal(y)
	return bytes.Equal(ab, bb)
}

func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data")
	}
	return v, nil
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
