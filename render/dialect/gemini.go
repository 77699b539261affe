package dialect

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
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
	r, err := newReading(entry)
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
