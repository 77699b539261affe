package providers

import (
	"encoding/json"
	"slices"
	"strings"
)

// keyless puts ProjectKey back in place of the project's key in a member path.
func keyless(path []string, key string) []string {
	out := slices.Clone(path)
	for i, k := range out {
		if k == key {
			out[i] = ProjectKey
		}
	}
	return out
}

// hostLower lower-cases the scheme and host of a URL, leaving its path as it is.
func hostLower(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	host, path, _ := strings.Cut(rest, "/")
	out := strings.ToLower(scheme) + "://" + strings.TrimSuffix(strings.ToLower(host), ".")
	if path != "" || strings.Contains(rest, "/") {
		out += "/" + path
	}
	return out
}

// expandRefs replaces ${VAR} and ${VAR:-default} in s.
func expandRefs(s string, getenv func(string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return b.String() + s
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		name, def, hasDef := strings.Cut(s[i+2:i+j], ":-")
		if v := getenv(name); v != "" || !hasDef {
			b.WriteString(v)
		} else {
			b.WriteString(def)
		}
		s = s[i+j+1:]
	}
}

// flag reads a boolean member of a file: false when it is not there or not true.
func flag(f Files, file string, path ...string) bool {
	raw, ok := f.Member(file, path...)
	var v bool
	return ok && json.Unmarshal(raw, &v) == nil && v
}

// stringsAt reads an array of strings member of a file.
func stringsAt(f Files, file string, path ...string) []string {
	raw, ok := f.Member(file, path...)
	var out []string
	if !ok || json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}
