package providers

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// checkClashes refuses names that key makes alike, among themselves or with a name
// of present (the servers already in the destination), naming every such group (and
// the key they share) after what. Names of present that only clash among themselves
// are not refused: the file held them before, and this edit does not add to them.
func checkClashes(names, present []string, key func(string) string, what string) error {
	groups := map[string][]string{}
	selected := map[string]bool{}
	add := func(n string) {
		k := key(n)
		if !slices.Contains(groups[k], n) {
			groups[k] = append(groups[k], n)
		}
	}
	for _, n := range names {
		selected[n] = true
		add(n)
	}
	for _, n := range present {
		add(n)
	}
	var clashes []string
	inFile := false
	for k, g := range groups {
		if len(g) < 2 || !slices.ContainsFunc(g, func(n string) bool { return selected[n] }) {
			continue
		}
		quoted := make([]string, len(g))
		for i, n := range g {
			quoted[i] = fmt.Sprintf("%q", n)
			if !selected[n] {
				quoted[i] += " (already in the file)"
				inFile = true
			}
		}
		clashes = append(clashes, strings.Join(quoted, " and ")+" (both "+k+")")
	}
	if len(clashes) == 0 {
		return nil
	}
	sort.Strings(clashes)
	msg := fmt.Sprintf("%s: %s", what, strings.Join(clashes, "; "))
	if inFile {
		return &fileClash{nameClash{msg}}
	}
	return &nameClash{msg}
}

// nameClash is the refusal of CheckNames, with its advice.
type nameClash struct{ msg string }

// fileClash is a refusal of CheckNames that names a server already in the file.
type fileClash struct{ nameClash }

// Hints says how to resolve the clash with a server already in the file.
func (e *fileClash) Hints() []string {
	return []string{"uninject the server already in the file first (or remove it by hand), or rename one of them in the layer file that defines it"}
}

func (e *nameClash) Error() string { return e.msg }

// Hints says how to resolve the clash.
func (e *nameClash) Hints() []string {
	return []string{"rename one of them in the layer file that defines it, or leave one out of the selection (--servers, or the profile's servers)"}
}
