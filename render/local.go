package render

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/dialect"
)

// ProjectKey is the key a client gives a project in a file shared by every project
// (Claude Code's projects["<abs>"] in ~/.claude.json, V11): the project's real path —
// the client's working directory has its symlinks resolved — with forward slashes on
// Windows, where Claude Code keys its projects that way.
func ProjectKey(project, goos string) string {
	key := canonicalOrClean(project)
	if goos == "windows" {
		key = strings.ReplaceAll(key, `\`, "/")
	}
	return key
}

// serversPath is where the servers of the request's file sit in it: the provider's
// servers key, or the project's own place in a file shared by every project.
func (r *Request) serversPath(scope providers.Scope) []string {
	p := r.Provider
	d := p.Dest(scope)
	key := ""
	if d.Nested() {
		key = ProjectKey(r.Project, r.Env.GOOS) // a real path: resolved only when needed
	}
	return d.ServersPath(p.ServersKey, key)
}

// container is where the provider's file keeps its servers.
func (e *fileEdit) container(doc format.Document) format.Container {
	c := format.Container{Path: e.containerIn(doc), NameKey: e.p.EntryName}
	if f, ok := e.d.(dialect.Framer); ok && owners[e.p.Owner].framed {
		c.Frame = f.Frame()
	}
	return c
}

// containerIn returns the edit's servers path in doc. On Windows a project key that
// is already there and differs only in the case of its letters is used rather than a
// second key: Claude Code keeps the case of the drive letter it was started with.
func (e *fileEdit) containerIn(doc format.Document) []string {
	i := slices.Index(e.nest, providers.ProjectKey)
	if !e.foldKeys || i < 0 {
		return e.servers
	}
	parent, ok := doc.Lookup(e.servers[:i]...)
	if !ok || parent.Kind() != format.KindObject {
		return e.servers
	}
	for _, k := range parent.Keys() {
		if k != e.servers[i] && strings.EqualFold(k, e.servers[i]) {
			out := slices.Clone(e.servers)
			out[i] = k
			return out
		}
	}
	return e.servers
}

// entryRecordPath returns the ownership record of the entries at one servers path of a
// destination (C6): the record of the file, or for a project's own servers in a file
// shared by every project (Claude Code's local scope) a record of their own, so that
// the same server name at user and local scope is owned apart.
func entryRecordPath(layerDir, dest string, servers []string, nested bool) (string, string, error) {
	path, canon, err := recordPath(layerDir, OwnershipDir, dest)
	if err != nil || !nested {
		return path, canon, err
	}
	sum := sha256.Sum256([]byte(canon + "\n" + strings.Join(servers, "\n")))
	return filepath.Join(filepath.Dir(path), hex.EncodeToString(sum[:])+".json"), canon, nil
}

// fileName is the candidate name of the provider's destination that path is (Copilot
// CLI's project file is .mcp.json or .github/mcp.json), "" when none.
func fileName(d *providers.Dest, path string, env providers.PathEnv) string {
	cands, err := d.Candidates(env)
	if err != nil {
		return ""
	}
	for i, c := range cands {
		if c == path && i < len(d.Files) {
			return d.Files[i]
		}
	}
	if d.EnvFile && len(cands) == 1 && cands[0] == path {
		return d.Files[0]
	}
	return ""
}
