package policy

import (
	"fmt"
	"sync"
)

// Floor is the strictest credentialPolicy set by any lower (non-write) layer (P2).
type Floor struct {
	// Set is false when no lower layer sets a policy: then there is no floor.
	Set bool
	// Level is the floor's value.
	Level Level
	// File is the layer file that set the floor (the first one at that level).
	File string
}

// Fold adds one lower layer's value to the floor, keeping the strictest.
func (f Floor) Fold(l Level, file string) Floor {
	if !f.Set || l > f.Level {
		return Floor{Set: true, Level: l, File: file}
	}
	return f
}

// Inputs are the sources of the effective policy for one run (P3).
type Inputs struct {
	// Personal is the write layer's own policy, nil when it sets none.
	Personal *Level
	// Floor is the organisation floor.
	Floor Floor
	// Env is AIWG_MCP_CREDENTIAL_POLICY; empty means unset.
	Env string
	// Flag is the level asked for by --strict-credentials/--no-credentials, nil when neither.
	Flag *Level
}

// EnvVar is the environment variable that sets the policy for one run.
const EnvVar = "AIWG_MCP_CREDENTIAL_POLICY"

var warned struct {
	sync.Mutex
	seen map[Level]bool
}

// Effective returns the policy for one run: the personal default (or the floor), then
// the environment, then the flag, the most specific source winning, but never below
// the floor. An attempt to go below the floor is ignored with one warning per process
// per attempted value, naming the file that set the floor (P3).
func Effective(in Inputs, warn func(string)) (Level, error) {
	level, source := Literal, ""
	if in.Floor.Set {
		level, source = in.Floor.Level, "the organisation floor"
	}
	if in.Personal != nil {
		level, source = *in.Personal, "the write layer's credentialPolicy"
	}
	if in.Env != "" {
		l, err := Parse(in.Env)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", EnvVar, err)
		}
		level, source = l, EnvVar
	}
	if in.Flag != nil {
		level, source = *in.Flag, "the command-line flag"
	}
	if in.Floor.Set && level < in.Floor.Level {
		warnBelowFloor(level, source, in.Floor, warn)
		level = in.Floor.Level
	}
	return level, nil
}

func warnBelowFloor(level Level, source string, floor Floor, warn func(string)) {
	warned.Lock()
	defer warned.Unlock()
	if warned.seen == nil {
		warned.seen = map[Level]bool{}
	}
	if warned.seen[level] || warn == nil {
		return
	}
	warned.seen[level] = true
	warn(fmt.Sprintf("credential policy %q from %s is below the organisation floor %q set in %s; using %q",
		level, source, floor.Level, floor.File, floor.Level))
}
