package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// Kind identifies one of the two registry files of a layer.
type Kind int

const (
	// Servers is mcp-servers.json.
	Servers Kind = iota
	// Profiles is mcp-profiles.json.
	Profiles
)

// FileName returns the file name of a registry kind.
func (k Kind) FileName() string {
	if k == Profiles {
		return "mcp-profiles.json"
	}
	return "mcp-servers.json"
}

// Collection returns the member that holds the entries ("servers" or "profiles").
func (k Kind) Collection() string {
	if k == Profiles {
		return "profiles"
	}
	return "servers"
}

// KindName returns the value of the file's "kind" member.
func (k Kind) KindName() string {
	if k == Profiles {
		return "McpProfileRegistry"
	}
	return "McpServerRegistry"
}

// APIVersion is the registry format version written in every file.
const APIVersion = "aiwg.io/v1"

// File is one registry file of one layer, as read.
type File struct {
	// Path is the file's absolute path (whether or not it exists).
	Path string
	// Kind says which registry the file holds.
	Kind Kind
	// Exists is false for a missing file, which is an empty registry.
	Exists bool
	// Top holds the top-level members other than the collection, as standard JSON.
	Top map[string]json.RawMessage
	// Entries holds the members of the collection, as standard JSON.
	Entries map[string]json.RawMessage
	// Err is the problem that made the file unreadable (LoadAll only); the file is
	// then empty.
	Err error
}

func newFile(path string, kind Kind) *File {
	return &File{Path: path, Kind: kind, Top: map[string]json.RawMessage{}, Entries: map[string]json.RawMessage{}}
}

// readFile reads one registry file. A missing file is empty; a symlinked file is
// refused (L9); malformed content is an error naming the file (L11).
func readFile(f fsys.FS, dir string, kind Kind) (*File, error) {
	path := filepath.Join(dir, kind.FileName())
	file := newFile(path, kind)
	data, exists, err := readLayerFile(f, path)
	if err != nil || !exists {
		return file, err
	}
	file.Exists = true
	if err := file.decode(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file, nil
}

// readLayerFile reads one file of a layer: not there is (nil, false, nil); a
// symlinked file is refused (L9), and so is anything but a regular file.
func readLayerFile(f fsys.FS, path string) ([]byte, bool, error) {
	fi, err := f.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, false, fmt.Errorf("%s: is a symlink; layer files must be regular files (link the layer directory instead)", path)
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := f.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return data, true, nil
}

// decode fills Top and Entries from JSONC bytes. Empty content (whitespace and
// comments only) is an empty registry; a leading byte order mark is allowed. The
// values are standard JSON sharing the standardized copy of data.
func (file *File) decode(data []byte) error {
	data, _ = bytes.CutPrefix(data, []byte(jsonc.BOM))
	doc, err := jsonc.Decode(data)
	if errors.Is(err, jsonc.ErrEmpty) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	if doc.Members == nil {
		return jsonc.NotObject(doc.Root.Kind())
	}
	coll := file.Kind.Collection()
	var entries *jsonc.RawMember
	for i := range doc.Members {
		m := &doc.Members[i]
		if m.Name == coll {
			entries = m // the last one wins, as in encoding/json
			delete(file.Top, m.Name)
			continue
		}
		file.Top[m.Name] = json.RawMessage(m.Value)
	}
	if entries == nil || entries.Value.IsNull() {
		return nil
	}
	if entries.Members == nil {
		return jsonc.NotObject(entries.Value.Kind(), coll)
	}
	file.Entries = make(map[string]json.RawMessage, len(entries.Members))
	for _, m := range entries.Members {
		file.Entries[m.Name] = json.RawMessage(m.Value)
	}
	return nil
}
