package explain

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// DesktopPathVar names the variable that tells explain the PATH apps started from the
// desktop get, where it differs from launchd's default on macOS or from the shell's
// elsewhere (docs/explain.md).
const DesktopPathVar = "MCPWIRE_DESKTOP_PATH"

// launchdPath is the PATH launchd gives apps started from the Dock or the Finder on
// macOS, unless launchctl setenv changed it.
const launchdPath = "/usr/bin:/bin:/usr/sbin:/sbin"

// clientPath is the PATH the client's stdio servers are looked up on, and whose it is.
func (cl *client) clientPath() (path, whose string) {
	if cl.l.Launch == providers.LaunchDesktop {
		if v := cl.r.Getenv(DesktopPathVar); v != "" {
			return v, "the PATH apps started from the desktop get (" + DesktopPathVar + ")"
		}
		if cl.w.Env.GOOS == "darwin" {
			return launchdPath, "launchd's PATH, which apps started from the Dock or the Finder get, not the shell's"
		}
		return cl.r.Getenv("PATH"), "the desktop session's PATH, taken to be the shell's"
	}
	return cl.r.Getenv("PATH"), "the PATH of the shell it starts from"
}

// variables says why the client leaves out a server over a variable it references
// that is not set, or why the server cannot start over a secret reference that does
// not resolve ("" when neither): for a client that starts a server with a variable
// not set anyway, the variable is a note on the live verdict (the server starts
// without it). The variables mcpwire sets where the client starts (the secrets it
// delivers) are not looked for here.
func (cl *client) variables(e *entry, s *registry.Server) string {
	var unset []string
	for _, v := range referenced(s) {
		if cl.r.Getenv(v) == "" && !render.LaunchVariable(v) {
			// a name that looks like a credential is not shown (T4)
			unset = append(unset, termtext.Quote(policy.ShowName(v)))
		}
	}
	if len(unset) > 0 {
		what := "variable " + strings.Join(unset, ", ") + " is not set"
		if len(unset) > 1 {
			what = "variables " + strings.Join(unset, ", ") + " are not set"
		}
		if cl.l.SkipsUnset {
			return what + ", and " + cl.p.Display + " leaves out a server whose reference names an unset variable"
		}
		e.notes = append(e.notes, what+": the server starts without it")
	}
	if bad := render.UnresolvedSecrets(cl.r.CheckSecret, s); len(bad) > 0 {
		// mcpwire exec, which delivers them, starts nothing without its secrets (S2)
		return "secret " + strings.Join(bad, "; secret ")
	}
	return ""
}

// command says why the client cannot start a stdio server's command ("" when it can):
// not found on the PATH the client gets, or a path that does not exist.
func (cl *client) command(e *entry, s *registry.Server) string {
	if s.Remote() || s.Command == "" {
		return ""
	}
	cmd := strings.ReplaceAll(s.Command, providers.ProjectVar, cl.w.Root)
	if strings.Contains(cmd, "${") || strings.Contains(cmd, "$") && !strings.ContainsAny(cmd, `/\`) {
		e.notes = append(e.notes, "its command names a variable, which mcpwire does not look up")
		return ""
	}
	path, whose := cl.clientPath()
	if strings.ContainsAny(cmd, `/\`) && !filepath.IsAbs(cmd) {
		dir := s.Cwd
		if dir == "" || !filepath.IsAbs(dir) {
			dir = cl.w.Start
		}
		cmd = filepath.Join(dir, cmd)
	}
	getenv := func(k string) string {
		if k == "PATH" {
			return path
		}
		return cl.r.Getenv(k)
	}
	if render.OnPath(cmd, getenv, cl.w.Env.GOOS) {
		return ""
	}
	shown := termtext.Quote(policy.RedactText(s.Command))
	if strings.ContainsAny(cmd, `/\`) {
		return "command " + shown + " does not exist"
	}
	return "command " + shown + " is not found on " + whose
}

// referenced are the variables a server's entry references, sorted.
func referenced(s *registry.Server) []string {
	var out []string
	for _, m := range []map[string]string{s.EnvFrom, s.HeaderEnv} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !slices.Contains(out, m[k]) {
				out = append(out, m[k])
			}
		}
	}
	if s.BearerEnv != "" && !slices.Contains(out, s.BearerEnv) {
		out = append(out, s.BearerEnv)
	}
	return out
}
