package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
)

// Provider is one client: its entry of the client list, in the client's own file
// (claude_code.go, codex.go, …), which also holds what is the client's alone.
type Provider struct {
	// Name is the canonical name used in flags and registry keys.
	Name string
	// Display is the client's product name.
	Display string
	// Aliases are the other names it goes by (V2), sorted.
	Aliases []string
	// Order is its place in every list of clients (V1): they are listed by it.
	Order int
	// DefaultScope is used when --scope is not given (V6).
	DefaultScope Scope
	// Project, Local and User are the server files per scope; nil when the client has
	// none.
	Project, Local, User *Dest
	// AlsoReads are files of other clients' scopes this client reads too (Qwen Code
	// reads Claude Code's .mcp.json): mcpwire does not write them for it, but lists it
	// among their readers (V10).
	AlsoReads []*Dest
	// Settings are Claude Code's settings files, where deny rules go (C2).
	Settings map[Scope]*Dest
	// Format is the file format.
	Format format.Format
	// ServersKey is the member (or TOML table) holding the servers.
	ServersKey string
	// EntryName, when set, says the servers are a list (TOML [[mcp_servers]], a YAML
	// sequence) whose entries hold their name in this member; otherwise ServersKey is a
	// map keyed by server name.
	EntryName string
	// dialect builds the client's Dialect (its entries' shape and what it does beyond
	// them) for a table entry: Dialect.
	dialect func(p *Provider) Dialect
	// URLKey is the member holding a remote server's URL ("url" when empty).
	URLKey string
	// Refs is how a reference to an environment variable is spelled (V4): the form
	// mcpwire writes, and one the client reads.
	Refs policy.Spelling
	// Reads are the forms the client resolves besides Refs (T1): Gemini CLI's,
	// Qwen Code's and Crush's bare $VAR (policy.StyleBareDollar). mcpwire reads them
	// back and writes Refs.
	Reads []string
	// Prompts: the client asks the person for the value of an ${input:ID} declared in
	// its file's inputs (VS Code, Visual Studio), T3. A client that does not prompt
	// gets a variable instead.
	Prompts bool
	// HomeVar is the client's placeholder for the home directory in paths
	// (${userHome}); "" means the absolute home directory is written.
	HomeVar string
	// Remote says which remote transports the client takes (V7).
	Remote RemoteSupport
	// CwdKey is the member for a stdio server's working directory; "" when the
	// client documents none.
	CwdKey string
	// Deny and Allow say how tool filters are rendered (F3).
	Deny  DenyStyle
	Allow AllowStyle
	// DisableWhole: a whole-server deny (SERVER__*) becomes disabled: true.
	DisableWhole bool
	// UnionDisabled: disabledTools is unioned with the array already in the file.
	UnionDisabled bool
	// Switch is how a disabled server is written: "enabled" (enabled: false),
	// "disabled" (disabled: true), or "" when the client has no per-server switch.
	Switch string
	// Types are the values of an entry's "type" member per transport (plain and Crush
	// shapes); nil writes none.
	Types *TypeNames
	// Nested is a member in which an entry may hold its transport members instead of
	// at its top level (Cline's {"transport": {"type": "stdio", "command": …}}, what
	// `cline mcp add` writes): read back as if they were the entry's own. mcpwire
	// writes the flat shape.
	Nested string
	// StrictJSON: the client reads its file with a strict JSON parser and rejects or
	// ignores the whole file over a comment or a trailing comma, so mcpwire refuses to
	// write into a file that holds one (V9).
	StrictJSON bool
	// Binary is the client's command, where mcpwire starts it or prints how to (C5,
	// X1, session); "" when it does not.
	Binary string
	// Ephemeral says whether a standalone per-run file works (C5).
	Ephemeral bool
	// NoEphemeral, for a client without Ephemeral, says why a standalone file does not
	// work where the client does load one (Continue's cn --config FILE); "" when the
	// client loads none.
	NoEphemeral string
	// WorkspaceVar is the client's workspace-folder variable, used for ${project} in
	// project-scope files (R10); "" means the absolute project directory is written.
	WorkspaceVar string
	// ReservedRefs are variables the client reads as empty in remote URLs and headers (V5).
	ReservedRefs []string
	// LiteralHeaders: the client sends header values as written, without expanding
	// references, so a reference in a header is refused (auggie).
	LiteralHeaders bool
	// HeadersHelper: the client runs a command for a remote server's headers and
	// sends what it prints (Claude Code's headersHelper), so headers from a secret
	// store reach it through mcpwire headers (S2).
	HeadersHelper bool
	// SecretEnvArgs are the arguments the client is started with when mcpwire puts
	// secrets in its environment (S3): Codex CLI writes its whole environment to
	// ~/.codex/shell_snapshots/*.sh unless features.shell_snapshot is off (seen with
	// codex 0.169.0 by the conformance suite's TestSecretsDelivered).
	SecretEnvArgs []string
	// StandaloneEnv is the variable that names a standalone file the client loads
	// besides its own (opencode's OPENCODE_CONFIG, Kilo's KILO_CONFIG), for the
	// dialects that launch the client that way.
	StandaloneEnv string
	// Owner is how entries already in the file are treated (C6).
	Owner OwnerMode
	// Frame names the comment lines around every entry mcpwire writes, with
	// OwnerMarkers: only an entry inside them can be mcpwire's (Grok Build).
	Frame *format.Frame
	// RuntimeHome, when set, says the client's standalone output is a whole home
	// directory (X1), not a file, and how it is laid out.
	RuntimeHome *RuntimeHome
	// PrivateMode: every file is 0600, project files included.
	PrivateMode bool
	// GitIgnored: a project file is used only when git ignores it.
	GitIgnored bool
	// Install is how install treats the client beyond writing its file (I1-I5); nil
	// when nothing more.
	Install *Install
	// Sources are where the entry's facts come from: documentation addresses and
	// repository paths (V8; docs/clients.md and docs/installable-clients.md have the
	// decisions taken from them).
	Sources []string
	// Conformance: the conformance suite installs the client and checks what mcpwire
	// writes with the client's own commands (Q3, Q5).
	Conformance bool
	// ProjectNote is said after a project-scope injection, by providers and by status
	// for the project's file: what the client needs before it reads the file (Mistral
	// Vibe: a trusted folder), or who does not read it (Continue's blocks: not cn).
	ProjectNote string
	// Absent says, for a scope the client has no file of, why: said when that scope
	// is asked for, and by providers (Continue CLI reads no project file).
	Absent map[Scope]string
	// Precedence is the order of the scopes whose entry the client uses when a server
	// name is in several, the winner first (Claude Code: local, project, user; whole
	// entries, never merged); nil when the client documents none. status says which
	// entry is used (H11).
	Precedence []Scope
	// Live returns what decides whether the client starts a server it has an entry
	// for, when it starts in a directory (E1, explain), built on each call (nothing at
	// start-up); nil: what Liveness assumes.
	Live func() *Live
	// admin is where an administrator's policy for the client is, and what it says
	// (G3, Admin); nil when it reads none mcpwire writes.
	admin *AdminPolicy
}

// Forms are the forms the client resolves in its values (T1), as policy names them:
// its reference spelling (when it has a placeholder), the others it reads, ${input:ID}
// when it prompts, and its workspace and home placeholders. A client that names
// variables in members of their own (Codex, Goose, Mistral Vibe, Kimi Code) resolves no
// placeholder in its values but those listed in Reads.
func (p *Provider) Forms() []string {
	var out []string
	if p.Refs.Open != "" {
		out = append(out, p.Refs.Style)
	}
	out = append(out, p.Reads...)
	if p.Prompts {
		out = append(out, policy.StyleInput)
	}
	for _, v := range []string{p.WorkspaceVar, p.HomeVar} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// TypeNames are a client's values of an entry's "type" member, per transport; ""
// writes no type member for that transport. Key, when set, is the member's name where
// it is not "type" (Devin's "transport").
type TypeNames struct {
	Key              string
	Stdio, HTTP, SSE string
}

// Member is the name of the member holding the transport: Key, else "type".
func (t *TypeNames) Member() string {
	if t == nil || t.Key == "" {
		return "type"
	}
	return t.Key
}

// Of returns the value for a transport ("stdio", "http" or "sse").
func (t *TypeNames) Of(transport string) string {
	if t == nil {
		return ""
	}
	switch transport {
	case "http":
		return t.HTTP
	case "sse":
		return t.SSE
	}
	return t.Stdio
}

// Install is what install does for a client beyond writing its file.
type Install struct {
	// OneFile: the client has one file whatever --scope says (Claude Desktop's
	// platform file, I1), so install ignores the scope.
	OneFile bool
	// Restart, when set, is how to restart the client, said after install changed its
	// file: the client reads it only when it starts.
	Restart string
	// Legacy is a file where older tools wrote the built-in entry, which install moves
	// out when it writes that entry (I4).
	Legacy *Dest
	// BareDefault: install without a target (deprecated, I3) writes this client...
	BareDefault bool
	// Inside are variables set when mcpwire runs inside this client: ...unless one of
	// them is set, or --scope user is given, which picks this client instead.
	Inside []string
}

// Scope is where a client file lives.
type Scope string

// Scopes.
const (
	// Project is the project's shared file, usually committed.
	Project Scope = "project"
	// Local is the person's private file for one project, never committed: Claude
	// Code's projects["<abs project>"] in ~/.claude.json (V11), auggie's and Qoder's
	// settings.local.json.
	Local Scope = "local"
	// User is the person's own file, for every project.
	User Scope = "user"
)

// AllScopes lists every scope, from the most shared to the most personal.
var AllScopes = []Scope{Project, Local, User}

// Dest returns the destination of a scope, nil when the client has none.
func (p *Provider) Dest(s Scope) *Dest {
	switch s {
	case Project:
		return p.Project
	case Local:
		return p.Local
	case User:
		return p.User
	}
	return nil
}

// Manual reports whether the client has no config file mcpwire can write: its
// servers are added by hand (ChatGPT Desktop's connectors).
func (p *Provider) Manual() bool { return p.Project == nil && p.Local == nil && p.User == nil }

// Scopes lists the scopes the client has a destination for.
func (p *Provider) Scopes() []Scope {
	var out []Scope
	for _, s := range AllScopes {
		if p.Dest(s) != nil {
			out = append(out, s)
		}
	}
	return out
}

// Reference spellings several clients share (V4); a client with a spelling of its
// own declares it in its file. policy's checks know every spelling of the clients
// (clientSpellings).
var (
	// refDollar is ${VAR}, the registry's own spelling.
	refDollar    = policy.Spelling{Style: policy.StyleDollar, Open: "${", Close: "}", Default: ":-"}
	refDollarEnv = policy.Spelling{Style: "${env:VAR}", Open: "${env:", Close: "}"}
	refNone      = policy.Spelling{Style: "none (references refused)"}
)

// The checks of policy know the clients' spellings as references wherever they are
// written.
func init() { policy.UseSpellings(clientSpellings) }

// clientSpellings are the reference spellings of every client.
func clientSpellings() []policy.Spelling {
	out := make([]policy.Spelling, 0, len(table))
	for _, p := range table {
		out = append(out, p.Refs)
	}
	return out
}

// RemoteSupport says which remote transports a client takes.
type RemoteSupport string

// Remote support levels.
const (
	RemoteNone       RemoteSupport = "stdio only"
	RemoteHTTP       RemoteSupport = "stdio, http"
	RemoteHTTPAndSSE RemoteSupport = "stdio, http, sse"
)

// Takes reports whether the client takes servers of a transport ("stdio", "http",
// "sse") (V7).
func (r RemoteSupport) Takes(transport string) bool {
	switch transport {
	case "stdio":
		return true
	case "http":
		return r == RemoteHTTP || r == RemoteHTTPAndSSE
	case "sse":
		return r == RemoteHTTPAndSSE
	}
	return false
}

// DenyStyle is how toolDeny is rendered (F3).
type DenyStyle string

// Deny styles.
const (
	DenyNone          DenyStyle = "none"
	DenyDisabledTools DenyStyle = "disabledTools"
)

// AllowStyle is how toolAllow is rendered (F3).
type AllowStyle string

// Allow styles.
const (
	AllowNone    AllowStyle = "none"
	AllowRefused AllowStyle = "refused"
)

// OwnerMode is how a same-named entry mcpwire did not write is treated (C6).
type OwnerMode string

// Ownership modes.
const (
	// OwnerForce: refused unless --force.
	OwnerForce OwnerMode = ""
	// OwnerStrict: always refused (OMP).
	OwnerStrict OwnerMode = "strict"
	// OwnerMarkers: entries are wrapped in marker comments; only marked blocks are
	// mcpwire's (Grok Build).
	OwnerMarkers OwnerMode = "markers"
	// OwnerKeepExisting: the existing launch configuration is kept and only the
	// profile's filters are merged into it (Antigravity).
	OwnerKeepExisting OwnerMode = "keep"
)
