// Package policy holds the credential policy (SPEC §3): its three levels, the
// organisation floor, the effective policy for one run, and the checks that decide
// which server fields may be rendered.
package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
)

// Level is a credential policy. Levels are ordered by strictness:
// Literal < References < None.
type Level int

const (
	// Literal renders every field, literal secrets included.
	Literal Level = iota
	// References refuses literal env/header values, URL userinfo and OAuth client
	// secrets; references to environment variables are rendered.
	References
	// None refuses every credential-bearing field, references included.
	None
)

// Names lists the valid policy values in order of strictness.
var Names = []string{"literal", "references", "none"}

// String returns the policy's name as written in files and flags.
func (l Level) String() string {
	if l >= Literal && l <= None {
		return Names[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Parse reads a policy name. Only the exact lowercase names are valid (P5).
func Parse(s string) (Level, error) {
	for i, n := range Names {
		if s == n {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("invalid credential policy %q (want literal, references or none)", s)
}

// ParseJSON reads a credentialPolicy value from a layer file. A present null, "",
// false, 0 or any other value is invalid (P5).
func ParseJSON(raw json.RawMessage) (Level, error) {
	var s string
	// null decodes into a string without error: it must be refused as itself.
	if err := json.Unmarshal(raw, &s); err != nil || string(bytes.TrimSpace(raw)) == "null" {
		return 0, fmt.Errorf("invalid credentialPolicy %s (want \"literal\", \"references\" or \"none\")", compact(raw))
	}
	l, err := Parse(s)
	if err != nil {
		return 0, fmt.Errorf("invalid credentialPolicy %q (want \"literal\", \"references\" or \"none\")", s)
	}
	return l, nil
}

// MarshalJSON writes the policy's name.
func (l Level) MarshalJSON() ([]byte, error) { return json.Marshal(l.String()) }

// Max returns the stricter of two levels.
func Max(a, b Level) Level {
	if a > b {
		return a
	}
	return b
}

func compact(raw json.RawMessage) string {
	const max = 40
	s := string(raw)
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

// lazyRegexp compiles a regular expression on first use, so that start-up does no
// work for commands that never need it.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
