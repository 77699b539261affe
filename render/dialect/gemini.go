package dialect

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// gemini is Gemini CLI's mcpServers entry: httpUrl for streamable HTTP, type "sse"
// with url for SSE; tool filters in excludeTools and includeTools (exact names). The
// file's own mcp.allowed and mcp.excluded lists can keep a written server from
// starting: mcpwire does not edit them, and says so.
type gemini struct{ p *providers.Provider }

func newGemini(p *providers.Provider) Dialect { return gemini{p} }

const (
	geminiHTTPURL  = "httpUrl"
	geminiExclude  = "excludeTools"
	geminiInclude  = "includeTools"
	geminiSettings = "mcp" // mcp.allowed, mcp.excluded
)

func (d gemini) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	key := urlKey(d.p)
	var e format.Object
	switch {
	case s.Remote() && s.Type == registry.HTTP:
		key = geminiHTTPURL
	case s.Remote() && s.Type == registry.SSE:
		// Gemini CLI 0.61 takes a bare "url" for streamable HTTP; SSE needs the type
		// (found by the conformance suite).
		e = format.Object{{Key: memberType, Value: "sse"}}
	}
	e = launch(d.p, e, s, v, key)
	switchOff(d.p, &e, s, sf)
	if sf == nil {
		return e
	}
	if names, _ := Exact(sf.Deny); len(names) > 0 {
		e.Set(geminiExclude, names)
	}
	if sf.Allow != nil {
		e.Set(geminiInclude, exactNames(sf.Allow))
	}
	return e
}

func (gemini) Filters() FilterSpec {
	return FilterSpec{Deny: true, Allow: true, ExactDeny: true, ExactAllow: true, Members: []string{geminiExclude, geminiInclude}}
}

// geminiOwn are Gemini CLI's members with no registry equivalent.
var geminiOwn = []string{"timeout", "trust", "oauth", "authProviderType", "targetAudience", "targetServiceAccount"}

// Read reads an entry back: httpUrl is streamable HTTP; url is SSE unless type says
// http (Gemini CLI reads a bare url as SSE); description, and the tool filters
// excludeTools and includeTools.
func (d gemini) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	typ := r.readType(memberType)
	s := readLaunch(d.p, r, memberHeaders, geminiHTTPURL, urlKey(d.p))
	switch {
	case r.has(geminiHTTPURL):
		s.Type = registry.HTTP
	case s.URL != "" && typ == "":
		s.Type = registry.SSE
	default:
		s.Type = typ
	}
	s.Description = r.str("description")
	r.switchOff(d.p, s)
	return r.done(s, r.filterLists(geminiExclude, geminiInclude), geminiOwn...)
}

// Gemini CLI's trusted folders: the user settings' security.folderTrust.enabled turns
// them on, and trustedFolders.json beside the user settings (or the file
// GEMINI_CLI_TRUSTED_FOLDERS_PATH names) maps folders to a trust level.
const (
	geminiTrustFile = "trustedFolders.json"
	geminiTrustEnv  = "GEMINI_CLI_TRUSTED_FOLDERS_PATH"
)

// StartBlockers says what of Gemini CLI's settings keeps servers from starting: a
// non-empty mcp.allowed without them or an mcp.excluded with them (in the file and,
// for a project file, the user's settings), and a project folder Gemini CLI does not
// trust when folder trust is on: it then ignores the project's settings whole.
func (d gemini) StartBlockers(st *StartState) [][]string {
	files := []string{st.Path}
	var user string
	if cands, err := d.p.User.Candidates(st.Env); err == nil {
		user = cands[0]
		if st.Scope == providers.Project {
			files = append(files, user)
		}
	}
	type lists struct{ allowed, excluded map[string]bool }
	var of []lists
	for _, f := range files {
		of = append(of, lists{st.set(f, geminiSettings, "allowed"), st.set(f, geminiSettings, "excluded")}) // sets: K7
	}
	var untrusted string
	if st.Scope == providers.Project && user != "" && st.flag(user, "security", "folderTrust", "enabled") {
		untrusted = d.untrusted(st, user)
	}
	out := make([][]string, len(st.Names))
	var shared blockerLists
	var why []string
	for i, n := range st.Names {
		why = why[:0]
		for k, f := range files {
			if len(of[k].allowed) > 0 && !of[k].allowed[n] {
				why = append(why, "not in mcp.allowed of "+f)
			}
			if of[k].excluded[n] {
				why = append(why, "named in mcp.excluded of "+f)
			}
		}
		if untrusted != "" {
			why = append(why, untrusted)
		}
		out[i] = shared.of(why...)
	}
	return out
}

// untrusted says why Gemini CLI does not load the project's settings, "" when it
// trusts the project: a folder, or the parent of one, marked TRUST_FOLDER or
// TRUST_PARENT holding it; DO_NOT_TRUST, or no decision yet (it asks).
func (d gemini) untrusted(st *StartState, user string) string {
	file := filepath.Join(filepath.Dir(user), geminiTrustFile)
	if v := st.Env.Getenv; v != nil && v(geminiTrustEnv) != "" {
		file = v(geminiTrustEnv)
	}
	var rules map[string]string
	if raw, ok := st.Read(file); ok {
		json.Unmarshal(raw, &rules)
	}
	denied := false
	for path, level := range rules {
		dir := path
		if level == "TRUST_PARENT" {
			dir = filepath.Dir(path)
		}
		rel, err := filepath.Rel(dir, st.Project)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if level == "DO_NOT_TRUST" {
			denied = denied || rel == "."
			continue
		}
		return ""
	}
	if denied {
		return "Gemini CLI does not trust " + st.Project + " (" + file + "), so it ignores the project's settings"
	}
	return "Gemini CLI has not been trusted in " + st.Project + " yet (" + file + "): until then it ignores the project's settings"
}

// EditFile reads mcp.allowed and mcp.excluded, and warns about the servers written
// that they keep from starting: missing from a non-empty mcp.allowed, or named in
// mcp.excluded.
func (d gemini) EditFile(doc format.Document, _ format.Entries, st *FileState) error {
	list := func(name string) ([]string, bool) {
		v, ok := doc.Lookup(geminiSettings, name)
		var out []string
		if !ok || v.Kind() != format.KindArray || json.Unmarshal(v.JSON(), &out) != nil {
			return nil, false
		}
		return out, true
	}
	allowed, hasAllowed := list("allowed")
	excluded, _ := list("excluded")
	var unlisted []string
	for _, n := range st.Set {
		if (hasAllowed && len(allowed) > 0 && !slices.Contains(allowed, n)) || slices.Contains(excluded, n) {
			unlisted = append(unlisted, n)
		}
	}
	if len(unlisted) > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s will not start: %s lists mcp.allowed without them, or names them in mcp.excluded; edit those lists if you want them",
			d.p.Name, strings.Join(unlisted, ", "), st.Path))
	}
	return nil
}
