package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/render"
)

// checkVerdict ends inject --check (B5): exit 0 when every file is up to date, 1 when
// one would change, naming them.
func checkVerdict(env *Env, out *jsonOut, results []*render.Result, layer string) error {
	var stale []string
	for _, r := range results {
		stale = append(stale, clientFiles(r.Changed, layer)...)
	}
	if out != nil {
		up := len(stale) == 0
		out.rep.UpToDate = &up
		if err := out.finish(); err != nil {
			return err
		}
	}
	if len(stale) == 0 {
		if out == nil {
			printf(env.Stdout, "up to date: nothing would change\n")
		}
		return nil
	}
	return withHint(fmt.Errorf("not up to date: inject would change %s", strings.Join(stale, ", ")),
		"run the same inject without --check to write them")
}

// clientFiles are the changed files that are not mcpwire's own records under the
// write layer: what inject --check counts (B5).
func clientFiles(changed []string, layer string) []string {
	var out []string
	for _, p := range changed {
		if p == layer || strings.HasPrefix(p, layer+string(filepath.Separator)) {
			continue
		}
		out = append(out, p)
	}
	return out
}
