package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/fsys"
	"github.com/mcpwire/mcpwire/render/tomledit"
)

type tomlKV = tomledit.KV

// Grok Build marker comments around every block mcpwire writes (C6). tomledit knows
// them: a table owns its marker lines, and no other comment around it (W1).
const (
	markerStart = tomledit.MarkerStart
	markerEnd   = tomledit.MarkerEnd
)

func inline(o object) tomledit.Inline {
	out := make(tomledit.Inline, len(o))
	for i, m := range o {
		out[i] = tomledit.KV{Key: m.Key, Value: m.Value}
	}
	return out
}

// tomlEntry builds one server's table for Codex or Grok Build (V3, V4, F3).
func (t target) tomlEntry(s *registry.Server, v values, sf *serverFilters) []tomlKV {
	var kvs []tomlKV
	add := func(k string, val any) { kvs = append(kvs, tomlKV{Key: k, Value: val}) }
	if s.Remote() {
		add("url", v.URL)
		hk := "http_headers"
		if t.p.Shape == providers.ShapeGrok {
			hk = "headers"
		}
		if len(v.Headers) > 0 {
			add(hk, inline(v.Headers))
		}
		if len(v.EnvHTTPHeaders) > 0 {
			add("env_http_headers", inline(v.EnvHTTPHeaders))
		}
		if v.BearerVar != "" {
			add("bearer_token_env_var", v.BearerVar)
		}
	} else {
		args := v.Args
		if args == nil {
			args = []string{}
		}
		add("command", v.Command)
		add("args", args)
		if len(v.Env) > 0 {
			add("env", inline(v.Env))
		}
		if len(v.EnvVars) > 0 {
			add("env_vars", v.EnvVars)
		}
		if v.Cwd != "" && t.p.CwdKey != "" {
			add(t.p.CwdKey, v.Cwd)
		}
	}
	off := disabled(s)
	if sf != nil && t.p.Deny == providers.DenyCodex {
		off = off || sf.DenyAll
		if sf.Allow != nil {
			names, _ := exact(sf.Allow)
			if names == nil {
				names = []string{}
			}
			add("enabled_tools", names)
		}
		if names, _ := exact(sf.Deny); len(names) > 0 {
			add("disabled_tools", names)
		}
	}
	if off {
		add("enabled", false)
	}
	return kvs
}

// tomlBlock renders a server table, wrapped in markers for Grok Build.
func (e *fileEdit) tomlBlock(name string, kvs []tomlKV, nl string) []byte {
	block := tomledit.Table(e.p.ServersKey, name, kvs, nl)
	if e.p.Owner != providers.OwnerMarkers {
		return block
	}
	return []byte(markerStart + name + nl + string(block) + markerEnd + name + nl)
}

// marked reports whether a server's source is a block mcpwire wrote (Grok Build).
func marked(text, name string) bool {
	var start, end bool
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		start = start || line == markerStart+name
		end = end || line == markerEnd+name
	}
	return start && end
}

// serverDigest returns the digest of a server as decoded from TOML.
func serverDigest(doc *tomledit.Doc, key, name string) (string, bool) {
	m, ok := doc.Server(key, name)
	if !ok {
		return "", false
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", false
	}
	return digest(b), true
}

// applyTOML edits a TOML client file: only the affected [mcp_servers.NAME] tables
// change (W1).
func (e *fileEdit) applyTOML(cur fsys.Snapshot) ([]byte, error) {
	e.wrote, e.dropped, e.kept = map[string]string{}, nil, nil
	if err := e.reloadRecord(); err != nil {
		return nil, err
	}
	src := cur.Data
	if !cur.Exists {
		src = nil
	}
	doc, err := tomledit.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid TOML: %w", e.path, err)
	}
	key := e.p.ServersKey
	if err := doc.CheckServers(key); err != nil {
		return nil, fmt.Errorf("%s: %w", e.path, err)
	}
	nl := doc.Newline()
	var foreignNames []string
	for _, ne := range e.set {
		if existing, has := doc.Server(key, ne.name); has && e.keepFilters {
			ne.toml = carryTOML(e.p, ne.toml, existing)
		}
		block := e.tomlBlock(ne.name, ne.toml, nl)
		newDigest, err := blockDigest(key, ne.name, block)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
		if curDigest, has := serverDigest(doc, key, ne.name); has {
			text, _ := doc.ServerText(key, ne.name)
			st := e.standing(ne.name, curDigest, newDigest)
			if e.p.Owner == providers.OwnerMarkers && !marked(text, ne.name) && st == owned {
				st = foreign
			}
			switch st {
			case identical:
				if e.p.Owner != providers.OwnerMarkers || marked(text, ne.name) {
					continue
				}
				if !e.force {
					foreignNames = append(foreignNames, ne.name)
					continue
				}
			case foreign:
				if !e.force {
					foreignNames = append(foreignNames, ne.name)
					continue
				}
			}
		}
		if err := doc.ReplaceServer(key, ne.name, block); err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
		d, _ := serverDigest(doc, key, ne.name)
		e.wrote[ne.name] = d
	}
	if len(foreignNames) > 0 {
		return nil, &foreignError{path: e.path, names: foreignNames}
	}
	for _, name := range e.remove {
		curDigest, has := serverDigest(doc, key, name)
		if !has {
			continue
		}
		text, _ := doc.ServerText(key, name)
		if e.record == nil || e.record.Entries[name] != curDigest || (e.p.Owner == providers.OwnerMarkers && !marked(text, name)) {
			e.kept = append(e.kept, name)
			continue
		}
		if _, err := doc.RemoveServer(key, name); err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
		e.dropped = append(e.dropped, name)
	}
	return doc.Bytes(), nil
}

// blockDigest decodes a rendered block to compute the digest it will have in the file.
func blockDigest(key, name string, block []byte) (string, error) {
	d, err := tomledit.Parse(block)
	if err != nil {
		return "", err
	}
	dg, _ := serverDigest(d, key, name)
	return dg, nil
}
