package write

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// Request is one injection of servers into one provider's file: what every command
// that writes servers gives, and the options of the command that writes them.
type Request struct {
	Registry *registry.Registry
	Provider *providers.Provider
	// Scope is "" for the provider's default (V6).
	Scope providers.Scope
	// Project is the absolute project directory.
	Project string
	// WorkDir is the directory mcpwire runs in: a client that looks for its project
	// file in the folder it starts in only (Dest.FromCwd) is said to need starting in
	// Project when WorkDir is another; "" says nothing.
	WorkDir string
	// Servers are the names to inject, in order.
	Servers []string
	// Filters are the profile's resolved tool filters (nil without a profile).
	Filters map[string]*registry.Filters
	// Profile names the profile, for messages.
	Profile string
	// Policy is the level asked for by a flag; nil uses the registry's (P10: the floor
	// applies either way).
	Policy *policy.Level
	// PolicyEnv is AIWG_MCP_CREDENTIAL_POLICY.
	PolicyEnv string
	// Env locates home-relative files; its Project is Project.
	Env providers.PathEnv
	// Warn receives warnings.
	Warn func(string)
	// DryRun skips the registry's injection records.
	DryRun bool
	// Inject and Install are the options of inject and install.
	Inject  InjectOptions
	Install InstallOptions

	// batch, when set, is what the requests of one PrepareAll share: nothing is
	// written while they are prepared.
	batch *prepareBatch
}

// prepareBatch is what the requests of one PrepareAll find out once for all.
type prepareBatch struct {
	// checked holds the registries whose write layer passed its overlap check (L8).
	checked map[*registry.Registry]bool
	// exists caches whether a path exists (Lstat), for hides.
	exists map[string]bool
	// ignored are the git checks under way (checkIgnored), in request order; req is
	// the request being prepared.
	ignored []ignoreCheck
	req     int
	// early are the git checks started before the requests were prepared, by request.
	early map[int]earlyCheck
	// lazy: the ownership records are read by precompute, not by Prepare.
	lazy bool
}

// ignoreCheck is a git check under way for request req.
type ignoreCheck struct {
	req  int
	done chan error
}

// earlyCheck is a git check of path started before its request was prepared
// (startEarlyChecks).
type earlyCheck struct {
	path string
	done chan error
}

// exists reports whether path exists, once per PrepareAll.
func (r *Request) exists(f fsys.FS, path string) bool {
	if r.batch != nil {
		if e, ok := r.batch.exists[path]; ok {
			return e
		}
	}
	_, err := f.Lstat(path)
	if r.batch != nil {
		r.batch.exists[path] = err == nil
	}
	return err == nil
}

// InjectOptions are how an injection treats what is already in the file.
type InjectOptions struct {
	// Force takes over same-named entries mcpwire did not write (C6).
	Force bool
	// Sync makes the injection a sync of what mcpwire owns in the destination (B7, a
	// --profile inject): the entries it wrote of servers not in Servers are removed
	// (when nobody changed them since) in the same transaction, with their filters.
	Sync bool
	// KeepFilters: the request carries no tool-filter information (inject --all, or
	// --servers without a profile), so the filters already written are kept: deny rules
	// in settings are not touched and rewritten entries keep their filter members.
	KeepFilters bool
	// SkipUnsupported skips servers of a transport the client cannot take, with a
	// warning, instead of refusing (inject --all, V7).
	SkipUnsupported bool
	// SkipRefused skips every server the client cannot take, whatever the reason, with
	// one warning for the client (inject --skip-unsupported, H5).
	SkipRefused bool
	// Ignored asks git whether it ignores a file of the project (providers.GitIgnored,
	// and a local-scope file inside the project); nil when git cannot be asked.
	Ignored render.IgnoreCheck
}

// InstallOptions are install's: the built-in entry and the legacy migration (I2-I4).
type InstallOptions struct {
	// Extra are servers that are not in the registry (install's built-in entry); a
	// registry server of the same name wins.
	Extra []*registry.Server
	// Exempt names env keys that are not credentials, per server (P8). It is honoured
	// only for the built-in aiwg entry supplied through Extra, and only for AIWG_ROOT:
	// any other server or key is checked like everything else.
	Exempt map[string]map[string]bool
	// Legacy, when set, is a file whose legacy built-in entry moves to the destination
	// in the same transaction (I4).
	Legacy string
}

// pathEnv is Env with the request's project directory.
func (r *Request) pathEnv() providers.PathEnv {
	env := r.Env
	env.Project = r.Project
	return env
}

// Result says what an injection did.
type Result struct {
	Provider    string
	Scope       providers.Scope
	Destination string
	// Written are the servers written (or already up to date).
	Written []string
	// Changed lists the files that changed.
	Changed []string
	// Removed are entries mcpwire wrote earlier and removed: because the registry now
	// disables the server and the client has no per-server switch, or because the
	// profile no longer selects it (Unselected).
	Removed []string
	// Unselected are entries mcpwire wrote earlier and removed because a --profile
	// injection no longer selects them (B7).
	Unselected []string
	// Settings is the Claude settings file holding deny rules, when one was written.
	Settings string
	// Readers are the other clients that read the destination (V10), by display name.
	Readers []string
	// Notes are lines for the person (not warnings).
	Notes []string
	// InputVars are the variables standing for inputs the client cannot ask for (T3),
	// each as "VAR (input ID)".
	InputVars []string
	// Secrets says how the servers written get their secrets (S2).
	Secrets Secrets
	// TakenOver are the entries --force replaced, kept in the ownership record (H1);
	// Restored those put back in place of mcpwire's entry of that name, removed.
	TakenOver, Restored []string
	// RemovedFiles are the files mcpwire created that the injection removed, left with
	// nothing of anyone's (H7): the client file, Claude's settings file.
	RemovedFiles []string
}

func (r *Request) warn(msg string) {
	if r.Warn != nil {
		r.Warn(msg)
	}
}

// selected returns the registry servers of the request, refusing unknown names.
func (r *Request) selected() ([]*registry.Server, error) {
	return r.Registry.Lookup(r.Servers, r.Profile, r.Install.Extra)
}

// checkPolicy refuses servers the server policy denies (G2), applies the effective
// credential policy (P1, P3, P6) and, for a file
// that may be committed, the committed-file rule (P7), to the selected servers only
// (P9). path is the client file written; "" for standalone output, which P7 does not
// apply to.
func (r *Request) checkPolicy(servers []*registry.Server, scope providers.Scope, path string) error {
	if err := r.Registry.CheckAllowed(servers); err != nil {
		return err
	}
	level, err := r.Registry.EffectivePolicy(r.PolicyEnv, r.Policy)
	if err != nil {
		return err
	}
	var vs []policy.Violation
	for _, s := range servers {
		vs = append(vs, policy.Check(level, r.fields(s))...)
	}
	if len(vs) > 0 {
		hint := "reference variables instead of literal values (server update NAME --env-from K=VAR, --header-env H=VAR, --bearer-env VAR), or choose another profile"
		if level >= policy.None {
			hint = "credential policy none refuses references too: choose servers that need no credentials, or another profile"
		}
		return &policy.Error{Rule: fmt.Sprintf("credential policy %q", level), Violations: vs, Hint: hint, More: policy.PlainHint(vs)}
	}
	if scope == providers.User || path == "" {
		return nil
	}
	for _, s := range servers {
		vs = append(vs, policy.CheckProject(r.fields(s))...)
	}
	if len(vs) == 0 {
		return nil
	}
	// only now, since asking whether git ignores a file runs git
	rule, hint := r.committed(scope, path)
	if rule == "" {
		return nil
	}
	return &policy.Error{Rule: rule, Violations: vs, Hint: hint, More: policy.PlainHint(vs)}
}

// committed says whether the file of a scope may be committed, so that P7 applies:
// the rule's name and the advice of a refusal, or "" when it may not. A project file
// may be, unless the client reads it only when git ignores it (RunWield, checked before
// writing). A local file is private: Claude Code's inside ~/.claude.json never is
// committed (V11), and one inside the project only when git ignores it.
func (r *Request) committed(scope providers.Scope, path string) (rule, hint string) {
	switch {
	case path == "":
		return "", ""
	case scope == providers.Project && r.Provider.GitIgnored && r.Inject.Ignored != nil:
		// RunWield reads its project file only when git ignores it, and mcpwire checks
		// that before writing: the file is never committed, so P7 does not apply.
		return "", ""
	case scope == providers.Project:
		return "project scope (a committed file)", r.projectHint()
	case scope == providers.Local && render.Within(path, r.Project) && !r.gitIgnores(path):
		rel, _ := filepath.Rel(r.Project, path)
		hint = "git could commit " + path + ": add " + filepath.ToSlash(rel) + " to " + filepath.Join(r.Project, ".gitignore")
		if user := r.privateFile(providers.User); user != "" {
			hint += ", or write them to " + user
		}
		if r.Provider.TakesRefs() {
			hint += ", or reference variables with --env-from K=VAR / --header-env H=VAR"
		}
		return "local scope in a file git does not ignore", hint
	}
	return "", ""
}

// privateFile names the provider's file of a private scope on this system, as a P7
// refusal names it ("--scope user (PATH)"); "" when it has none here.
func (r *Request) privateFile(s providers.Scope) string {
	if d := r.Provider.Dest(s); d != nil {
		if paths, err := d.Candidates(r.pathEnv()); err == nil {
			return "--scope " + string(s) + " (" + paths[0] + ")"
		}
	}
	return ""
}

// gitIgnores reports whether git keeps path out of commits (false when it cannot be
// asked).
func (r *Request) gitIgnores(path string) bool {
	if r.Inject.Ignored == nil {
		return false
	}
	st, err := r.Inject.Ignored(path)
	return err == nil && st == render.GitIgnores
}

// projectHint is the advice of a P7 refusal: the client's private file — its local
// scope for this project (V11), else its user-scope file — when it has one, and
// references only where the client can spell them.
func (r *Request) projectHint() string {
	p := r.Provider
	refs := p.TakesRefs()
	private := r.privateFile(providers.Local)
	if private == "" {
		private = r.privateFile(providers.User)
	}
	switch {
	case private != "" && refs:
		return "write them to " + p.Display + "'s private file instead: " + private + ", or reference variables with --env-from K=VAR / --header-env H=VAR"
	case private != "":
		return "write them to " + p.Display + "'s private file instead: " + private
	case refs:
		return "keep secrets out of committed files: reference variables with server update NAME --env-from K=VAR or --header-env H=VAR"
	}
	return "keep these servers out of " + p.Display + "'s project file: it is committed, and " + p.Display + " has no private file"
}

func (r *Request) fields(s *registry.Server) policy.Fields {
	return policy.Fields{
		Server: s.Name, URL: s.URL, Command: s.Command, Args: s.Args, Env: s.Env, Headers: s.Headers,
		HeaderEnv: s.HeaderEnv, EnvFrom: s.EnvFrom, BearerEnv: s.BearerEnv,
		Auth: s.Auth, OAuth: s.OAuth, ExemptEnv: r.exempt(s), PlainEnv: s.PlainEnvKeys(), PlainHeaders: s.PlainHeaderKeys(),
	}
}

// exemptKey is the one env key P8 exempts, on the built-in entry only.
const exemptKey = "AIWG_ROOT"

// exempt returns the env keys of s that are not credentials (P8): AIWG_ROOT, when
// the request exempts it and s is the built-in aiwg entry supplied through Extra (a
// registry server of that name replaces the built-in entry and is never exempt).
func (r *Request) exempt(s *registry.Server) map[string]bool {
	if !r.Install.Exempt[s.Name][exemptKey] || !builtinShape(s) || !slices.Contains(r.Install.Extra, s) {
		return nil
	}
	return map[string]bool{exemptKey: true}
}

// builtinShape reports whether s is the built-in entry: aiwg → aiwg mcp serve (I2).
func builtinShape(s *registry.Server) bool {
	return s.Name == BuiltinName && !s.Remote() && s.Command == "aiwg" && slices.Equal(s.Args, []string{"mcp", "serve"})
}
