package render

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
)

// RecordedDestination is a client file the write layer's ownership records (C6) say
// mcpwire wrote server entries to.
type RecordedDestination struct {
	// Provider is the first provider that wrote it; Providers every one (a file several
	// clients read, V10).
	Provider  string
	Providers []string
	// Scope and Project are set for a project's own servers inside a file shared by
	// every project (Claude Code's local scope, V11), which the path cannot tell.
	Scope   providers.Scope
	Project string
	// Path is the destination's canonical path.
	Path string
	// Servers are the recorded server entries, sorted (a dialect's own entries, whose
	// names hold a ':' that server names cannot, left out).
	Servers []string
	// Record is the ownership record file.
	Record string
}

// RecordedDestinations lists the destinations recorded under
// <layerDir>/mcp-ownership/, sorted by provider and path. Records of ephemeral
// outputs are left out; a corrupt record fails with a hint to delete it.
func RecordedDestinations(f fsys.FS, layerDir string) ([]RecordedDestination, error) {
	dir := filepath.Join(layerDir, OwnershipDir)
	ents, err := f.ReadDir(dir)
	if fsys.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []RecordedDestination
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := f.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if ephemeralOf(data) {
			continue
		}
		rec := &OwnRecord{}
		if err := decodeRecord(data, rec); err != nil {
			return nil, corruptRecord(path, err)
		}
		if rec.Provider == "" || rec.Destination == "" {
			continue
		}
		if rec, err = settleGone(f, path, rec); err != nil {
			return nil, err
		}
		d := RecordedDestination{Provider: rec.Provider, Providers: rec.Providers, Path: rec.Destination, Record: path,
			Scope: rec.Scope, Project: rec.Project}
		if len(d.Providers) == 0 {
			d.Providers = []string{rec.Provider}
		}
		for n := range rec.Entries {
			if !memberOf(d.Providers, n) {
				d.Servers = append(d.Servers, n)
			}
		}
		sort.Strings(d.Servers)
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Provider != out[j].Provider {
			return out[i].Provider < out[j].Provider
		}
		return out[i].Path < out[j].Path
	})
	return out, nil
}

// settleGone settles the record of a file that is gone with the staged record an
// interrupted run left beside it (staging.go): the entries it removed are not
// missing, they are gone (K10). A file that is there is settled by whoever opens it.
func settleGone(f fsys.FS, path string, rec *OwnRecord) (*OwnRecord, error) {
	data, staged, err := ReadOptional(f, path+StagedSuffix)
	if err != nil || !staged {
		return rec, err
	}
	if _, err := f.Lstat(rec.Destination); !fsys.IsNotExist(err) {
		return rec, nil
	}
	st, err := decodeOwnStage(path+StagedSuffix, data)
	if err != nil {
		return nil, err
	}
	settled, _ := st.Settle(rec, func(string) (string, bool) { return "", false })
	settled.Providers, settled.LocalRecord = rec.Providers, rec.LocalRecord
	return settled, nil
}

// memberOf reports whether a record key of a file the named providers write is one of
// their dialect's own entries (opencode's "tools:KEY"), not a server.
func memberOf(names []string, key string) bool {
	for _, name := range names {
		if p, ok := providers.Get(name); ok {
			if _, _, member := providers.RecordedMember(p.Dialect(), key); member {
				return true
			}
		}
	}
	return false
}
