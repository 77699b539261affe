package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/limits"
	"github.com/mcpwire/mcpwire/render/write"
)

// checkAll is writeAll for inject --check (K1, K2): a client file refused as hostile
// input — past one of mcpwire's limits, not a regular file, a symlink inject would not
// write through — is reported with a WARNING and left out, and every other file is
// still checked. It returns the
// results and the refused files.
func checkAll(env *Env, f fsys.FS, reqs []write.Request) ([]*write.Result, []string, error) {
	var refused []string
	for {
		preps, err := write.PrepareAll(f, reqs)
		if err != nil {
			return nil, nil, err
		}
		err = write.Commit(f, preps, false) // a dry run: nothing is written either way
		if err == nil {
			results := make([]*write.Result, len(preps))
			for i, prep := range preps {
				reportInject(env, prep.Result, true)
				results[i] = prep.Result
			}
			return results, refused, nil
		}
		path, ok := refusedPath(err)
		if !ok {
			return nil, nil, err
		}
		var kept []write.Request
		for i, prep := range preps {
			if dest := prep.Result.Destination; dest == "" || filepath.Clean(dest) != filepath.Clean(path) {
				kept = append(kept, reqs[i])
			}
		}
		if len(kept) == len(reqs) {
			return nil, nil, err // not a client file of a request (a settings file, a record)
		}
		env.warn(err.Error() + " (not checked)")
		refused, reqs = append(refused, path), kept
	}
}

// refusedPath is the file a refusal of hostile input names (K1, K2), or a symlink
// where inject writes only a real file (W5).
func refusedPath(err error) (string, bool) {
	var le *limits.Error
	var nr *fsys.NotRegularError
	var sl *fsys.SymlinkError
	switch {
	case errors.As(err, &nr):
		return nr.Path, true
	case errors.As(err, &sl):
		return sl.Path, true
	case errors.As(err, &le) && le.Path != "":
		return le.Path, true
	}
	return "", false
}

// checkVerdict ends inject --check (B5): exit 0 when every file is up to date, 1 when
// one would change or could not be checked (refused), naming them.
func checkVerdict(env *Env, out *jsonOut, results []*write.Result, refused []string, layer string) error {
	var stale []string
	for _, r := range results {
		stale = append(stale, clientFiles(r.Changed, layer)...)
	}
	if out != nil {
		up := len(stale) == 0 && len(refused) == 0
		out.rep.UpToDate = &up
		if err := out.finish(); err != nil {
			return err
		}
	}
	var why []string
	if len(stale) > 0 {
		why = append(why, "inject would change "+strings.Join(stale, ", "))
	}
	if len(refused) > 0 {
		why = append(why, "mcpwire cannot check "+strings.Join(refused, ", ")+" (refused, see above)")
	}
	if len(why) == 0 {
		if out == nil {
			printf(env.Stdout, "up to date: nothing would change\n")
		}
		return nil
	}
	return withHint(fmt.Errorf("not up to date: %s", strings.Join(why, "; ")),
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
