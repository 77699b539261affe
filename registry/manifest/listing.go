package manifest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/registry/manifest/internal/jsonv"
)

// Listing is a registry listing: the servers array of the registry API's
// GET /v0/servers (each element a server.json, or {"server": …, "_meta": …} from
// 2025-09-29 on), or a file holding such an array (the registry's seed data).
type Listing struct {
	Entries []ListingEntry
}

// ListingEntry is one element of a listing: its document, or why it cannot be read.
type ListingEntry struct {
	Doc *Document
	Err error
}

// IsListing reports whether a JSON document is a listing rather than one server.json:
// an array, or an object with a servers array.
func IsListing(data []byte) bool {
	r := jsonc.Raw(data)
	switch r.Kind() {
	case jsonc.Array:
		return true
	case jsonc.Object:
		found := false
		r.Members(func(name string, v jsonc.Raw) bool {
			if name == "servers" && v.Kind() == jsonc.Array {
				found = true
			}
			return !found
		})
		return found
	}
	return false
}

// ParseListing reads a listing. An element that is not a valid server.json is kept
// with its error (a listing of thousands is not refused for one bad entry; choosing
// it is).
func ParseListing(data []byte) (*Listing, error) {
	var errs jsonv.Errs
	root, err := jsonv.Parse(data, &errs)
	if err != nil {
		return nil, err
	}
	var elems []jsonv.Value
	if root.Kind() == jsonc.Object {
		o, _ := root.Object()
		elems = o.Arr("servers")
	} else {
		elems = root.Array()
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	l := &Listing{}
	for i, e := range elems {
		var eerrs jsonv.Errs
		v, _ := jsonv.Parse(e.Raw, &eerrs)
		v.Path = fmt.Sprintf("servers[%d]", i)
		doc, err := decodeEntry(v, &eerrs)
		l.Entries = append(l.Entries, ListingEntry{Doc: doc, Err: err})
	}
	return l, nil
}

// decodeEntry reads one listing element: {"server": server.json, "_meta": …} or a
// server.json.
func decodeEntry(v jsonv.Value, errs *jsonv.Errs) (*Document, error) {
	o, ok := v.Object()
	if !ok {
		v.Fail("want an object")
		return nil, &SchemaError{errs.Err()}
	}
	inner, wrapped := o.Obj("server")
	if !wrapped {
		return decode(v, errs)
	}
	d, err := decode(inner.Value, errs)
	if err != nil {
		return nil, err
	}
	if m, ok := o.Obj("_meta"); ok {
		readOfficial(m, d)
	}
	return d, nil
}

// SplitNameVersion splits --name NAME[@VERSION] (a server name holds no '@').
func SplitNameVersion(s string) (name, version string) {
	if i := strings.LastIndexByte(s, '@'); i > 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// Select returns the entry of a name and version: the exact version when given;
// otherwise the one the listing marks latest, else the highest version. Deleted
// entries are never chosen.
func (l *Listing) Select(name, version string) (*Document, error) {
	if name == "" {
		var names []string
		for _, e := range l.Entries {
			if e.Doc != nil && !slices.Contains(names, e.Doc.Name) {
				names = append(names, e.Doc.Name)
			}
		}
		if len(names) == 1 && version == "" {
			return l.Select(names[0], "")
		}
		return nil, hint.Wrap(fmt.Errorf("the listing holds %d servers: choose one with --name NAME[@VERSION]", len(names)),
			"its first servers: "+strings.Join(names[:min(len(names), 5)], ", "))
	}
	var cands []*Document
	for _, e := range l.Entries {
		if e.Doc != nil && e.Doc.Name == name && e.Doc.Status != "deleted" && (version == "" || e.Doc.Version == version) {
			cands = append(cands, e.Doc)
		}
	}
	switch {
	case len(cands) == 0:
		return nil, l.notFound(name, version)
	case len(cands) == 1:
		return cands[0], nil
	}
	for _, c := range cands {
		if c.Latest != nil && *c.Latest {
			return c, nil
		}
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if compareVersions(c.Version, best.Version) > 0 {
			best = c
		}
	}
	return best, nil
}

func (l *Listing) notFound(name, version string) error {
	var versions, near []string
	for _, e := range l.Entries {
		if e.Doc == nil {
			continue
		}
		if e.Doc.Name == name {
			versions = append(versions, e.Doc.Version)
		} else if strings.EqualFold(e.Doc.Name, name) || strings.HasSuffix(e.Doc.Name, "/"+name) {
			near = append(near, e.Doc.Name)
		}
	}
	if version != "" && len(versions) > 0 {
		return hint.Wrap(fmt.Errorf("the listing has no version %s of %s", version, name), "its versions: "+strings.Join(versions, ", "))
	}
	err := fmt.Errorf("the listing has no server %s", name)
	var hints []string
	if len(near) > 0 {
		hints = append(hints, "did you mean "+strings.Join(near, ", ")+"?")
	}
	for i, e := range l.Entries {
		if e.Err != nil {
			hints = append(hints, fmt.Sprintf("servers[%d] cannot be read: %v", i, e.Err))
			break
		}
	}
	return hint.Wrap(err, hints...)
}

// compareVersions orders two versions by their numeric parts, then as text.
func compareVersions(a, b string) int {
	pa, pb := strings.FieldsFunc(a, notDigit), strings.FieldsFunc(b, notDigit)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	if len(pa) != len(pb) {
		if len(pa) < len(pb) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func notDigit(r rune) bool { return r < '0' || r > '9' }
