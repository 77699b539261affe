package render_test

// Checks that an injection changed nothing outside mcpwire's entries (SPEC W1). They
// are written independently of internal/jsonc and internal/tomledit, so that a bug in an
// editor cannot hide itself: a small JSONC scanner of its own finds the members
// mcpwire may change, a line scanner finds the [mcp_servers.NAME] tables, and a line
// diff of the original and the result must show changes only on those lines (plus a
// separating comma or blank line next to them).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// reporter is the part of testing.TB the checks use, so that a test can prove they
// fail on a changed byte.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// --- a small JSONC scanner -------------------------------------------------------

type jscan struct {
	data []byte
	i    int
}

func (s *jscan) fail(format string, args ...any) {
	panic(fmt.Sprintf("offset %d: %s", s.i, fmt.Sprintf(format, args...)))
}

// ws skips whitespace and comments.
func (s *jscan) ws() {
	for s.i < len(s.data) {
		switch c := s.data[s.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.i++
		case c == '/' && s.i+1 < len(s.data) && s.data[s.i+1] == '/':
			for s.i < len(s.data) && s.data[s.i] != '\n' {
				s.i++
			}
		case c == '/' && s.i+1 < len(s.data) && s.data[s.i+1] == '*':
			end := bytes.Index(s.data[s.i+2:], []byte("*/"))
			if end < 0 {
				s.fail("unterminated comment")
			}
			s.i += end + 4
		default:
			return
		}
	}
}

// str scans a string and returns its decoded value.
func (s *jscan) str() string {
	start := s.i
	if s.data[s.i] != '"' {
		s.fail("want a string")
	}
	s.i++
	for s.i < len(s.data) && s.data[s.i] != '"' {
		if s.data[s.i] == '\\' {
			s.i++
		}
		s.i++
	}
	s.i++
	var out string
	if err := json.Unmarshal(s.data[start:s.i], &out); err != nil {
		s.fail("bad string: %v", err)
	}
	return out
}

// value skips one value; for an object it calls member with each member's name and
// the spans of the member (name start to value end) and of its value.
func (s *jscan) value(member func(name string, mStart, vStart, vEnd int)) {
	s.ws()
	switch c := s.data[s.i]; c {
	case '{', '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		s.i++
		for {
			s.ws()
			if s.data[s.i] == close {
				s.i++
				return
			}
			if c == '{' {
				mStart := s.i
				name := s.str()
				s.ws()
				if s.data[s.i] != ':' {
					s.fail("want ':'")
				}
				s.i++
				s.ws()
				vStart := s.i
				s.value(nil)
				if member != nil {
					member(name, mStart, vStart, s.i)
				}
			} else {
				s.value(nil)
			}
			s.ws()
			if s.data[s.i] == ',' {
				s.i++
			}
		}
	case '"':
		s.str()
	default:
		for s.i < len(s.data) && !strings.ContainsRune(" \t\r\n,]}/", rune(s.data[s.i])) {
			s.i++
		}
	}
}

// jsonSpan returns the span of the member at path (from the opening quote of its name
// to the end of its value; the last of duplicate names), or ok false.
func jsonSpan(data []byte, path []string) (start, end int, ok bool) {
	vs, ve := 0, len(data)
	for _, name := range path {
		s := &jscan{data: data[:ve], i: vs}
		s.ws()
		if s.i >= len(s.data) || s.data[s.i] != '{' {
			return 0, 0, false
		}
		found := false
		s.value(func(n string, ms, a, b int) {
			if n == name {
				found, start, vs, end = true, ms, a, b
			}
		})
		if !found {
			return 0, 0, false
		}
		ve = end
	}
	return start, end, true
}

// --- line diff ------------------------------------------------------------------

// splitLines splits data into lines (each keeping its terminator) and returns them
// with each line's starting offset.
func splitLines(data []byte) (lines []string, starts []int) {
	off := 0
	for off < len(data) {
		n := bytes.IndexByte(data[off:], '\n')
		end := len(data)
		if n >= 0 {
			end = off + n + 1
		}
		lines = append(lines, string(data[off:end]))
		starts = append(starts, off)
		off = end
	}
	return lines, starts
}

// spanLines marks the lines that overlap any of the byte spans.
func spanLines(starts []int, size int, spans [][2]int) []bool {
	marks := make([]bool, len(starts))
	for i, s := range starts {
		e := size
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		for _, sp := range spans {
			if sp[0] < e && sp[1] > s {
				marks[i] = true
			}
		}
	}
	return marks
}

// diffOp is one line of an LCS diff: '=' kept, '-' only in a, '+' only in b.
type diffOp struct {
	op   byte
	a, b int // line indexes (a for '=' and '-', b for '=' and '+')
}

func lineDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{'=', i, j})
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{'+', -1, j})
			j++
		default:
			ops = append(ops, diffOp{'-', i, -1})
			i++
		}
	}
	return ops
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// nearAffected reports whether the nearest non-blank line above or below line i is
// marked (or i is the last non-blank stretch of the file).
func nearAffected(lines []string, marks []bool, i int) bool {
	for k := i - 1; k >= 0; k-- {
		if !isBlank(lines[k]) {
			if marks[k] {
				return true
			}
			break
		}
	}
	for k := i + 1; k < len(lines); k++ {
		if !isBlank(lines[k]) {
			return marks[k]
		}
	}
	return true
}

// commaOnly reports whether x and y differ only by one inserted comma.
func commaOnly(x, y string) bool {
	if len(x) < len(y) {
		x, y = y, x
	}
	if len(x) != len(y)+1 {
		return false
	}
	for i := 0; i < len(x); i++ {
		if x[i] != y[i] || i == len(y) {
			return x[i] == ',' && x[:i]+x[i+1:] == y
		}
	}
	return false
}

// checkOnlyMarked fails unless every line that differs between orig and got is marked
// (a line of one of mcpwire's entries), a blank line next to a marked line, or a line
// that only gained or lost a separating comma.
func checkOnlyMarked(t reporter, what string, orig, got []string, origMarks, gotMarks []bool) {
	t.Helper()
	// mcpwire's lines never match other lines: a line outside its entries must be
	// matched by the same line outside them
	key := func(lines []string, marks []bool) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = l
			if marks[i] {
				out[i] = "\x00mcpwire"
			}
		}
		return out
	}
	ops := lineDiff(key(orig, origMarks), key(got, gotMarks))
	// group the changes into hunks, so a comma-only change pairs within its hunk
	for k := 0; k < len(ops); {
		if ops[k].op == '=' {
			k++
			continue
		}
		var dels, adds []int
		for ; k < len(ops) && ops[k].op != '='; k++ {
			if ops[k].op == '-' {
				dels = append(dels, ops[k].a)
			} else {
				adds = append(adds, ops[k].b)
			}
		}
		var freeDels, freeAdds []int
		for _, i := range dels {
			if !origMarks[i] && !(isBlank(orig[i]) && nearAffected(orig, origMarks, i)) {
				freeDels = append(freeDels, i)
			}
		}
		for _, j := range adds {
			if !gotMarks[j] && !(isBlank(got[j]) && nearAffected(got, gotMarks, j)) {
				freeAdds = append(freeAdds, j)
			}
		}
		used := map[int]bool{}
	dels:
		for _, i := range freeDels {
			for _, j := range freeAdds {
				// a separating comma, next to one of mcpwire's entries
				if !used[j] && commaOnly(orig[i], got[j]) && nearAffected(got, gotMarks, j) {
					used[j] = true
					continue dels
				}
			}
			t.Errorf("%s: line %d of the original changed outside mcpwire's entries: %q", what, i+1, orig[i])
		}
		for _, j := range freeAdds {
			if !used[j] {
				t.Errorf("%s: line %d of the result is new outside mcpwire's entries: %q", what, j+1, got[j])
			}
		}
	}
}

// checkJSONPreserved proves W1 for a JSON/JSONC file: the lines that differ are
// lines of the members at the affected paths, and the decoded documents are equal
// once those members are removed from both.
func checkJSONPreserved(t reporter, what string, orig, got []byte, affected [][]string) {
	t.Helper()
	spans := func(data []byte) [][2]int {
		var out [][2]int
		for _, p := range affected {
			if s, e, ok := jsonSpan(data, p); ok {
				out = append(out, [2]int{s, e})
			}
		}
		return out
	}
	ol, os := splitLines(orig)
	gl, gs := splitLines(got)
	checkOnlyMarked(t, what, ol, gl, spanLines(os, len(orig), spans(orig)), spanLines(gs, len(got), spans(got)))

	dec := func(data []byte) map[string]any {
		std, err := hujson.Standardize(bytes.Clone(data))
		if err != nil {
			t.Fatalf("%s: not JSONC: %v", what, err)
		}
		var m map[string]any
		if err := json.Unmarshal(std, &m); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, p := range affected {
			deletePath(m, p)
		}
		return m
	}
	if a, b := dec(orig), dec(got); !reflect.DeepEqual(a, b) {
		t.Errorf("%s: the decoded documents differ outside mcpwire's entries:\n original: %v\n result:   %v", what, a, b)
	}
}

func deletePath(m map[string]any, p []string) {
	for _, k := range p[:len(p)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, p[len(p)-1])
}

// --- TOML -----------------------------------------------------------------------

// tomlHeader parses a [table] header line into its key path, or nil.
func tomlHeader(line string) []string {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "[") || strings.HasPrefix(s, "[[") {
		return nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return nil
	}
	var path []string
	var cur strings.Builder
	inQuote := byte(0)
	for i := 1; i < end; i++ {
		c := s[i]
		switch {
		case inQuote != 0 && c == inQuote:
			inQuote = 0
		case inQuote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			inQuote = c
		case c == '.':
			path = append(path, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(path, strings.TrimSpace(cur.String()))
}

// tomlServerLines marks the lines of the [key.NAME] tables (and sub-tables) of the
// given servers: from the header to the table's last key/value line, and for Grok
// Build the marker comments around the block.
func tomlServerLines(lines []string, key string, names []string) []bool {
	marks := make([]bool, len(lines))
	isServer := func(path []string) bool {
		if len(path) < 2 || path[0] != key {
			return false
		}
		for _, n := range names {
			if path[1] == n {
				return true
			}
		}
		return false
	}
	in, last := false, -1
	for i, l := range lines {
		if h := tomlHeader(l); h != nil {
			in = isServer(h)
			if in {
				marks[i], last = true, i
			}
			continue
		}
		if t := strings.TrimSpace(l); !in || t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		// a key/value of the table, with the comments and blank lines inside the body
		// above it; those after the last key/value belong to what follows
		for k := last + 1; k <= i; k++ {
			marks[k] = true
		}
		last = i
	}
	for i, l := range lines {
		for _, n := range names {
			if strings.TrimSpace(l) == "# >>> mcpwire-managed: "+n || strings.TrimSpace(l) == "# <<< mcpwire-managed: "+n {
				marks[i] = true
			}
		}
	}
	return marks
}

// checkTOMLPreserved proves W1 for a TOML file: the result parses strictly with
// go-toml/v2 (no duplicate keys or tables), the lines that differ belong to the
// affected servers' tables, and the decoded documents are equal once those servers
// are removed from both.
func checkTOMLPreserved(t reporter, what string, orig, got []byte, key string, names []string) {
	t.Helper()
	ol, _ := splitLines(orig)
	gl, _ := splitLines(got)
	checkOnlyMarked(t, what, ol, gl, tomlServerLines(ol, key, names), tomlServerLines(gl, key, names))
	dec := func(data []byte) map[string]any {
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: go-toml/v2 refuses the file: %v", what, err)
		}
		if servers, ok := m[key].(map[string]any); ok {
			for _, n := range names {
				delete(servers, n)
			}
			if len(servers) == 0 {
				delete(m, key)
			}
		}
		return m
	}
	if a, b := dec(orig), dec(got); !reflect.DeepEqual(a, b) {
		t.Errorf("%s: the decoded documents differ outside mcpwire's tables:\n original: %v\n result:   %v", what, a, b)
	}
}
