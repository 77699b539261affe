package mcpb

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Platform is the MANIFEST.md name of a Go GOOS: darwin, win32, linux; "" for any
// other (which no bundle lists).
func Platform(goos string) string {
	switch goos {
	case "windows":
		return "win32"
	case "darwin", "linux":
		return goos
	}
	return ""
}

// CompatOptions say what this machine is.
type CompatOptions struct {
	// GOOS is the operating system (runtime.GOOS).
	GOOS string
	// RuntimeVersion returns the version of a runtime (node, python) on this machine,
	// as its --version prints it ("v20.11.1", "Python 3.12.3"), or an error when it
	// is not installed.
	RuntimeVersion func(runtime string) (string, error)
}

// CheckCompat refuses a bundle whose compatibility excludes this machine: a platform
// not listed, a runtime not installed or whose version is outside the range. The
// versions of client applications (claude_desktop, …) are not checked: they name
// other programs.
func (m *Manifest) CheckCompat(opt CompatOptions) error {
	c := m.Compatibility
	if len(c.Platforms) > 0 {
		p := Platform(opt.GOOS)
		if !slices.Contains(c.Platforms, p) {
			return refuse("", "compatibility.platforms is %s: the bundle does not run on %s", strings.Join(c.Platforms, ", "), opt.GOOS)
		}
	}
	for _, rt := range sortedKeys(c.Runtimes) {
		want := c.Runtimes[rt]
		if strings.TrimSpace(want) == "" {
			continue
		}
		if opt.RuntimeVersion == nil {
			return refuse("", "compatibility.runtimes.%s: cannot tell which %s is installed", rt, rt)
		}
		out, err := opt.RuntimeVersion(rt)
		if err != nil {
			return refuse("", "compatibility.runtimes.%s is %q, and %s is not installed here (%v)", rt, want, rt, err)
		}
		have, ok := findVersion(out)
		if !ok {
			return refuse("", "compatibility.runtimes.%s: cannot read the version %s prints", rt, rt)
		}
		ok, err = Satisfies(have, want)
		if err != nil {
			return refuse("", "compatibility.runtimes.%s: %v", rt, err)
		}
		if !ok {
			return refuse("", "compatibility.runtimes.%s is %q, and %s %s is installed here", rt, want, rt, have)
		}
	}
	return nil
}

var versionRE = lazyRE(`\d+(\.\d+){0,2}`)

// findVersion finds the first version number in a runtime's --version output.
func findVersion(out string) (string, bool) {
	v := versionRE().FindString(out)
	return v, v != ""
}

// version is major.minor.patch; a missing part is a wildcard in a range.
type version struct {
	n    [3]int
	have int // how many parts were given
}

func parseVersion(s string) (version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	s = strings.TrimPrefix(s, "=")
	if i := strings.IndexAny(s, "-+"); i > 0 {
		s = s[:i] // pre-release and build: compared as the release
	}
	var v version
	if s == "" || s == "*" || s == "x" || s == "X" {
		return v, true
	}
	for i, p := range strings.Split(s, ".") {
		if i >= 3 {
			return v, false
		}
		if p == "*" || p == "x" || p == "X" {
			break
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v.n[i], v.have = n, i+1
	}
	return v, true
}

func cmp(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// bump is the first version after every version matching v's given parts (1.2 → 1.3).
func (v version) bump(part int) [3]int {
	out := v.n
	out[part]++
	for i := part + 1; i < 3; i++ {
		out[i] = 0
	}
	return out
}

// Satisfies reports whether version have is in the range want: npm's semver ranges
// (">=1.2.3 <2", "^1.2", "~1.2.3", "1.x", "1.2.3 - 2", "a || b") and Python's
// specifiers (">=3.8,<4.0", "~=3.10", "==3.*", "!=3.9"). Pre-release tags are
// compared as their release.
func Satisfies(have, want string) (bool, error) {
	hv, ok := parseVersion(have)
	if !ok {
		return false, fmt.Errorf("cannot read the version %q", have)
	}
	for _, alt := range strings.Split(want, "||") {
		ok, err := satisfiesAll(hv.n, alt)
		if err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

var opRE = lazyRE(`^(>=|<=|~=|==|!=|>|<|=|\^|~)?\s*(.*)$`)

func satisfiesAll(h [3]int, set string) (bool, error) {
	set = strings.ReplaceAll(set, ",", " ")
	words := strings.Fields(set)
	if len(words) == 3 && words[1] == "-" { // a hyphen range
		lo, ok1 := parseVersion(words[0])
		hi, ok2 := parseVersion(words[2])
		if !ok1 || !ok2 {
			return false, fmt.Errorf("cannot read the range %q", set)
		}
		upper := cmp(h, hi.n) <= 0
		if hi.have < 3 && hi.have > 0 {
			upper = cmp(h, hi.bump(hi.have-1)) < 0
		}
		return cmp(h, lo.n) >= 0 && upper, nil
	}
	// join an operator written apart from its version (">= 1.2")
	var comps []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if opRE().FindStringSubmatch(w)[2] == "" && i+1 < len(words) {
			w += words[i+1]
			i++
		}
		comps = append(comps, w)
	}
	for _, c := range comps {
		m := opRE().FindStringSubmatch(c)
		op, v := m[1], m[2]
		pv, ok := parseVersion(v)
		if !ok {
			return false, fmt.Errorf("cannot read the range %q", strings.TrimSpace(set))
		}
		if !match(h, op, pv) {
			return false, nil
		}
	}
	return true, nil
}

func match(h [3]int, op string, v version) bool {
	if v.have == 0 { // *, x, ""
		return op != "<" && op != ">" && op != "!="
	}
	lo, next := v.n, v.bump(v.have-1)
	switch op {
	case "", "=", "==":
		return cmp(h, lo) >= 0 && cmp(h, next) < 0
	case "!=":
		return !(cmp(h, lo) >= 0 && cmp(h, next) < 0)
	case ">=":
		return cmp(h, lo) >= 0
	case ">":
		return cmp(h, next) >= 0
	case "<":
		return cmp(h, lo) < 0
	case "<=":
		return cmp(h, next) < 0
	case "~": // ~1.2.3: >=1.2.3 <1.3; ~1: <2
		part := 1
		if v.have == 1 {
			part = 0
		}
		return cmp(h, lo) >= 0 && cmp(h, v.bump(part)) < 0
	case "~=": // ~=3.8: >=3.8 <4; ~=3.8.1: >=3.8.1 <3.9
		part := max(v.have-2, 0)
		return cmp(h, lo) >= 0 && cmp(h, v.bump(part)) < 0
	case "^": // the first non-zero part may not change
		part := 0
		for part < v.have-1 && v.n[part] == 0 {
			part++
		}
		return cmp(h, lo) >= 0 && cmp(h, v.bump(part)) < 0
	}
	return false
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// lazyRE compiles a regular expression on first use (nothing at start-up).
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
