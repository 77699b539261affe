package write

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// BuiltinName is the name of the built-in server entry install writes (I2).
const BuiltinName = "aiwg"

// legacyBuiltin reports whether an entry is the recognisable legacy built-in entry:
// command aiwg, args ["mcp","serve"], and optionally an env holding only AIWG_ROOT (I4).
func legacyBuiltin(raw []byte) bool {
	var e map[string]json.RawMessage
	if json.Unmarshal(raw, &e) != nil {
		return false
	}
	var cmd string
	var args []string
	if json.Unmarshal(e["command"], &cmd) != nil || cmd != "aiwg" {
		return false
	}
	if json.Unmarshal(e["args"], &args) != nil || !slices.Equal(args, []string{"mcp", "serve"}) {
		return false
	}
	for k, v := range e {
		switch k {
		case "command", "args":
		case "type":
			var t string
			if json.Unmarshal(v, &t) != nil || t != "stdio" {
				return false
			}
		case "env":
			var env map[string]string
			if json.Unmarshal(v, &env) != nil {
				return false
			}
			for ek := range env {
				if ek != "AIWG_ROOT" {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// legacyTarget removes the legacy built-in entry from a project's
// .claude/settings.local.json (where older tools wrote servers Claude Code never
// loaded); other servers, permissions and preferences stay, and an emptied
// mcpServers map is removed (I4). A malformed or symlinked file is refused before
// any write. ok is false when there is no legacy file (nor a directory for it): nothing
// to migrate, and nothing to check.
func legacyTarget(f fsys.FS, path, project string) (t fsys.Target, ok bool, err error) {
	if _, err := f.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return fsys.Target{}, false, nil
	}
	return fsys.Target{
		Path:  path,
		Check: func() error { return fsys.CheckRealDirs(f, project, path) },
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			if !cur.Exists {
				return nil, 0, true, nil // still absent: unchanged
			}
			doc, err := format.ParseJSON(path, cur.Data, true)
			if err != nil {
				return nil, 0, false, err
			}
			servers, ok := doc.Lookup("mcpServers")
			if !ok {
				return cur.Data, cur.Mode.Perm(), false, nil
			}
			if servers.Kind() != format.KindObject {
				return nil, 0, false, fmt.Errorf("%s: %w", path, jsonc.NotObject(servers.Kind(), "mcpServers"))
			}
			entry, ok := servers.Member(BuiltinName)
			if !ok || !legacyBuiltin(entry.JSON()) {
				return cur.Data, cur.Mode.Perm(), false, nil
			}
			if _, err := doc.Delete([]string{"mcpServers", BuiltinName}); err != nil {
				return nil, 0, false, err
			}
			if rest, ok := doc.Lookup("mcpServers"); ok && len(rest.Keys()) == 0 {
				if _, err := doc.Delete([]string{"mcpServers"}); err != nil {
					return nil, 0, false, err
				}
			}
			out, err := doc.Bytes()
			return out, cur.Mode.Perm(), false, err
		},
	}, true, nil
}

// LegacyEntry reports whether path holds the legacy built-in entry (for --dry-run
// messages).
func LegacyEntry(f fsys.FS, path string) bool {
	data, err := f.ReadFile(path)
	if err != nil {
		return false
	}
	doc, err := format.ParseJSON(path, data, true)
	if err != nil {
		return false
	}
	v, ok := doc.Lookup("mcpServers", BuiltinName)
	return ok && legacyBuiltin(v.JSON())
}
