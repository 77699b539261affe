package layers

import (
	"path/filepath"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// PolicyFileName is the file of a layer that holds its server policy (SPEC G1).
const PolicyFileName = "mcp-policy.json"

// PolicyFile is a layer's mcp-policy.json as read: its bytes, decoded by the policy
// package. A missing file is no policy.
type PolicyFile struct {
	// Path is the file's absolute path (whether or not it exists).
	Path string
	// Exists is false when the layer holds no policy.
	Exists bool
	// Data is the file's content (JSONC).
	Data []byte
	// Err is the problem that made the file unreadable.
	Err error
}

// readPolicy reads the policy file of a layer directory, with the checks of the
// registry files (a regular file, no symlink).
func readPolicy(f fsys.FS, dir string) *PolicyFile {
	p := &PolicyFile{Path: filepath.Join(dir, PolicyFileName)}
	p.Data, p.Exists, p.Err = readLayerFile(f, p.Path)
	return p
}
