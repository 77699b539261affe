package main

import "strings"

// reportOriginals says what became of the entries --force replaced (H1): those it
// kept now, in the ownership record, and those put back in place of mcpwire's own
// entry, removed.
func reportOriginals(env *Env, provider, path string, taken, restored []string, dry bool) {
	keep, put := "kept", "put back"
	if dry {
		keep, put = "would keep", "would put back"
	}
	if len(taken) > 0 {
		printf(env.Stdout, "%s: --force replaced %s in %s: %s as it was in mcpwire's ownership record, put back when mcpwire removes its own\n",
			provider, strings.Join(taken, ", "), path, keep)
	}
	if len(restored) > 0 {
		printf(env.Stdout, "%s: %s %s in %s as it was before --force replaced it\n", provider, put, strings.Join(restored, ", "), path)
	}
}

// reportRemovedFiles names the files mcpwire created that it removed with their last
// entry (H7), and the directories it created for them.
func reportRemovedFiles(env *Env, provider string, files []string, dry bool) {
	verb := "removed"
	if dry {
		verb = "would remove"
	}
	for _, f := range files {
		printf(env.Stdout, "%s: %s %s: mcpwire created it, and nothing else was left in it\n", provider, verb, f)
	}
}
