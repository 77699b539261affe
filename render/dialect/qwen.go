package dialect

import (
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
)

// qwen is Qwen Code's mcpServers entry. Qwen Code is a Gemini CLI fork and reads the
// same entries (httpUrl for streamable HTTP, url for SSE, excludeTools and
// includeTools of exact names, mcp.allowed and mcp.excluded in the file), so the
// entries are Gemini CLI's. A settings file without "$version": 4 is migrated and
// rewritten by Qwen on its next start, so a file that holds nothing but mcpwire's
// servers (a new one) gets it; an older file with other settings is left to Qwen's
// own migration. A standalone file is loaded with --mcp-config.
type qwen struct{ gemini }

func newQwen(p *providers.Provider) Dialect { return qwen{gemini{p}} }

const (
	qwenVersionKey = "$version"
	qwenVersion    = 4
	qwenMCPConfig  = "--mcp-config"
)

// EditFile warns like Gemini CLI's and adds "$version" to a file holding only servers.
func (d qwen) EditFile(doc format.Document, es format.Entries, st *FileState) error {
	if err := d.gemini.EditFile(doc, es, st); err != nil {
		return err
	}
	root, ok := doc.Lookup()
	if !ok {
		return nil
	}
	if keys := root.Keys(); len(keys) == 1 && keys[0] == d.p.ServersKey {
		return doc.Set([]string{qwenVersionKey}, qwenVersion)
	}
	return nil
}

// Launch adds the standalone file's servers to a run.
func (d qwen) Launch(out, _ string) Launch {
	return Launch{Binary: d.p.Binary, Args: []string{qwenMCPConfig, out}}
}
