package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/layers"
)

// Receipts are the injection receipts (injectedProviders) one injection changes:
// the servers written into Provider's file, and those gone from it.
type Receipts struct {
	Provider string
	// Written are recorded, Gone forgotten.
	Written, Gone []string
}

// RecordInjection adds provider to injectedProviders of each named server that the
// write layer defines. Records for servers defined only in a lower layer are not
// persisted (L7); a warning says so. A record is a patch of the entry as it is in the
// file when written: it adds the provider and keeps everything else, so a change
// another process made meanwhile survives (W8).
func (r *Registry) RecordInjection(names []string, provider string) error {
	return r.SaveReceipts([]Receipts{{Provider: provider, Written: names}})
}

// ForgetInjection removes provider from injectedProviders of each named server the
// write layer defines. Like RecordInjection it patches the entry as it is in the
// file when written.
func (r *Registry) ForgetInjection(names []string, provider string) error {
	return r.SaveReceipts([]Receipts{{Provider: provider, Gone: names}})
}

// SaveReceipts saves the receipts of several injections in one write of
// mcp-servers.json (an inject into 34 clients wrote the file 34 times): the same
// entries as RecordInjection of Written then ForgetInjection of Gone for each, in
// order, with the same warnings. Each server's list of providers is edited in that
// order, as it is in the file under the lock; a server whose list ends as this
// process read it is not written.
func (r *Registry) SaveReceipts(list []Receipts) error {
	edits := map[string][]func([]string) []string{}
	for _, c := range list {
		var skipped []string
		for _, n := range c.Written {
			if _, ok := r.Server(n); !ok {
				continue
			}
			if !r.InWriteLayer(n) {
				if !r.unsaved[n] {
					skipped = append(skipped, n)
				}
				continue
			}
			edits[n] = append(edits[n], adding(c.Provider))
		}
		if len(skipped) > 0 {
			if r.unsaved == nil {
				r.unsaved = map[string]bool{}
			}
			for _, n := range skipped {
				r.unsaved[n] = true
			}
			r.warn(fmt.Sprintf("injection records for %s are not saved: defined only in a lower configuration layer, so inject --all will not include them", listNames(skipped)))
		}
		for _, n := range c.Gone {
			if _, ok := r.Server(n); ok && r.InWriteLayer(n) {
				edits[n] = append(edits[n], removing(c.Provider))
			}
		}
	}
	d := layers.Delta{Kind: layers.Servers, Patch: map[string]func(json.RawMessage) (map[string]json.RawMessage, error){}}
	for n, list := range edits {
		s, _ := r.Server(n)
		edit := func(ps []string) []string {
			for _, e := range list {
				ps = e(ps)
			}
			return ps
		}
		if slices.Equal(edit(slices.Clone(s.InjectedProviders)), s.InjectedProviders) {
			continue
		}
		d.Patch[n] = patchReceipts(edit)
	}
	if len(d.Patch) == 0 {
		return nil
	}
	return r.commit(d)
}

// adding adds provider to a list of providers, once.
func adding(provider string) func([]string) []string {
	return func(ps []string) []string {
		if slices.Contains(ps, provider) {
			return ps
		}
		return append(ps, provider)
	}
}

// removing removes provider from a list of providers.
func removing(provider string) func([]string) []string {
	return func(ps []string) []string {
		return slices.DeleteFunc(ps, func(p string) bool { return p == provider })
	}
}

// patchReceipts returns a patch that changes the injectedProviders of an entry with
// edit and touches nothing else. An entry removed meanwhile is left absent; an
// empty list removes the member.
func patchReceipts(edit func([]string) []string) func(json.RawMessage) (map[string]json.RawMessage, error) {
	return func(cur json.RawMessage) (map[string]json.RawMessage, error) {
		if cur == nil {
			return nil, nil
		}
		var e struct {
			InjectedProviders []string `json:"injectedProviders"`
		}
		if err := json.Unmarshal(cur, &e); err != nil {
			return nil, errors.New("injectedProviders: must be a list of provider names in an object")
		}
		old := slices.Clone(e.InjectedProviders)
		ps := edit(e.InjectedProviders)
		if slices.Equal(ps, old) {
			return nil, nil
		}
		if len(ps) == 0 {
			return map[string]json.RawMessage{"injectedProviders": nil}, nil
		}
		return map[string]json.RawMessage{"injectedProviders": entryJSON(ps)}, nil
	}
}
