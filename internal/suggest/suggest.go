// Package suggest finds the names closest to a mistyped one, for "did you mean …?"
// (SPEC U1).
//
// urfave/cli's own suggestion (cli.SuggestCommand) always returns the best
// Jaro-Winkler match, however far it is; a suggestion here needs an edit distance of
// at most a third of the name (at least 1), counting a swap of two neighbouring
// letters as one edit ("injcet" → "inject", "dialy" → "daily").
package suggest

import (
	"fmt"
	"sort"
	"strings"
)

// MaxListed is the most names Hint lists when none is close.
const MaxListed = 20

// Closest returns the candidates nearest to name, at most three, nearest first (ties
// in candidate order), when they are close enough; nil otherwise.
func Closest(name string, candidates []string) []string {
	limit := max(1, len([]rune(name))/3)
	type scored struct {
		name string
		d, i int
	}
	var near []scored
	for i, c := range candidates {
		if c == name {
			continue
		}
		if d := distance(strings.ToLower(name), strings.ToLower(c)); d <= limit {
			near = append(near, scored{c, d, i})
		}
	}
	sort.SliceStable(near, func(a, b int) bool { return near[a].d < near[b].d })
	var out []string
	for _, s := range near {
		if len(out) == 3 || s.d > near[0].d {
			break
		}
		out = append(out, s.name)
	}
	return out
}

// Hint says what name may have meant: `did you mean "x"?` (or `"x" or "y"`) when a
// candidate is close, otherwise the candidates (at most MaxListed, then how many
// more); "" when there are none. quote formats one name ("%q" or "--%s").
func Hint(name string, candidates []string, quote string) string {
	if len(candidates) == 0 {
		return ""
	}
	q := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = fmt.Sprintf(quote, n)
		}
		return out
	}
	if near := Closest(name, candidates); len(near) > 0 {
		return "did you mean " + strings.Join(q(near), " or ") + "?"
	}
	listed := candidates
	more := ""
	if len(listed) > MaxListed {
		more = fmt.Sprintf(" (and %d more)", len(listed)-MaxListed)
		listed = listed[:MaxListed]
	}
	return "one of: " + strings.Join(listed, ", ") + more
}

// distance is the optimal string alignment distance: insertions, deletions,
// substitutions and swaps of two neighbouring runes each count one.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
