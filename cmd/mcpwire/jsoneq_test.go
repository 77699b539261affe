package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tailscale/hujson"
)

// seedRepoPath is the placeholder the product documents use for a repository's
// absolute path in their by-hand examples (seed 001).
const seedRepoPath = "/absolute/path/to/your/repo"

// cmdJSONEq compares two JSON (or JSONC) files field for field: objects as unordered
// maps, arrays in order, every value with its JSON type. "jsoneq [-repo DIR] [-drop
// K1,K2] GOT WANT"; with -repo, the by-hand placeholder /absolute/path/to/your/repo in
// WANT stands for DIR, so a product document's example can be kept verbatim; with
// -drop, the members K1, K2 of GOT's objects (at any depth) are left out, as
// timestamps are. On a mismatch it names every differing field.
func cmdJSONEq(ts *testscript.TestScript, neg bool, args []string) {
	const usage = "usage: jsoneq [-repo DIR] [-drop K1,K2] GOT WANT"
	repo, drop := "", []string(nil)
	for len(args) > 2 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-repo":
			repo = args[1]
		case "-drop":
			drop = strings.Split(args[1], ",")
		default:
			ts.Fatalf(usage)
		}
		args = args[2:]
	}
	if len(args) != 2 {
		ts.Fatalf(usage)
	}
	got := dropMembers(readJSONValue(ts, args[0], ""), drop)
	want := readJSONValue(ts, args[1], repo)
	diff := jsonDiff("", got, want)
	if (len(diff) == 0) == neg {
		if neg {
			ts.Fatalf("%s and %s are equal field for field", args[0], args[1])
		}
		ts.Fatalf("%s differs from %s:\n%s", args[0], args[1], strings.Join(diff, "\n"))
	}
}

// dropMembers removes the members named drop from every object in v.
func dropMembers(v any, drop []string) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range drop {
			delete(x, k)
		}
		for k, e := range x {
			x[k] = dropMembers(e, drop)
		}
	case []any:
		for i, e := range x {
			x[i] = dropMembers(e, drop)
		}
	}
	return v
}

func readJSONValue(ts *testscript.TestScript, name, repo string) any {
	data, err := os.ReadFile(ts.MkAbs(name))
	ts.Check(err)
	std, err := hujson.Standardize(data)
	if err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	var v any
	if err := json.Unmarshal(std, &v); err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	if repo != "" {
		v = replaceStrings(v, seedRepoPath, repo)
	}
	return v
}

func replaceStrings(v any, old, new string) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, old, new)
	case []any:
		for i := range x {
			x[i] = replaceStrings(x[i], old, new)
		}
	case map[string]any:
		for k := range x {
			x[k] = replaceStrings(x[k], old, new)
		}
	}
	return v
}

// jsonDiff lists the fields where got and want differ, by path.
func jsonDiff(path string, got, want any) []string {
	at := path
	if at == "" {
		at = "(root)"
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: got %s, want an object", at, show(got))}
		}
		keys := map[string]bool{}
		for k := range g {
			keys[k] = true
		}
		for k := range w {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		var out []string
		for _, k := range sorted {
			p := path + "." + k
			gv, gok := g[k]
			wv, wok := w[k]
			switch {
			case !gok:
				out = append(out, fmt.Sprintf("%s: missing, want %s", p, show(wv)))
			case !wok:
				out = append(out, fmt.Sprintf("%s: got %s, want no such field", p, show(gv)))
			default:
				out = append(out, jsonDiff(p, gv, wv)...)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: got %s, want %s", at, show(got), show(want))}
		}
		var out []string
		for i := range w {
			out = append(out, jsonDiff(fmt.Sprintf("%s[%d]", path, i), g[i], w[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: got %s, want %s", at, show(got), show(want))}
	}
	return nil
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
