package providers

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Live says what decides, beyond the entries of a client's files, whether the client
// starts a server when it starts in a directory (E1, `mcpwire explain`): where it
// reads entries and which one wins, the lists and switches that turn servers off,
// trust and approval, its administrator's policy, and the environment it gives
// servers. A client without one is read as Default says. Rules that read files get
// them through Files: nothing here does I/O.
type Live struct {
	// Root is how the client finds its project from the directory it starts in.
	Root Root
	// Sources are where the client reads entries, the winner of a name first.
	Sources []Source
	// Merge: a name in several sources is one entry whose members are each the first
	// source's that has it (Codex's layered config.toml); otherwise the first source's
	// entry is used whole and the others are not.
	Merge bool
	// Trust is where the client records the folders it trusts, for the sources that
	// need one (Source.Trust). TrustAll: until it trusts the folder it starts no
	// server at all, the user's included (Gemini CLI).
	Trust    Truster
	TrustAll bool
	// Approval decides whether the person approved a server of a source that needs it
	// (Source.Approve).
	Approval Approver
	// Lists are the lists of names that switch servers off, or let only some start.
	Lists []NameList
	// Collapse: entries that start the same command (with the same arguments,
	// environment and directory) or reach the same address are one server, the first
	// one's (oh-my-pi).
	Collapse bool
	// Policy is the client's own managed policy, an administrator's files (nil: none
	// mcpwire knows of).
	Policy Policy
	// SkipsUnset: the client leaves out a server whose reference names a variable that
	// is not set, rather than starting it without one.
	SkipsUnset bool
	// DropsBadFiles: an entry the client cannot use (no command and no URL, a member
	// of the wrong type) makes it skip the whole file, every other entry of it with it
	// (Codex, opencode, Kilo, auggie, Factory droid); otherwise only that entry is
	// skipped.
	DropsBadFiles bool
	// Launch is how the client is started, which decides the PATH its servers get.
	Launch StartedBy
	// Ignored are members of an entry the client does not honour although others do
	// (Copilot CLI's "disabled"): an entry holding one is said to be started anyway.
	Ignored []string
}

// Root is how a client finds its project from the directory it starts in.
type Root string

// Roots.
const (
	// RootGit: the top of the git work tree holding the directory, else the directory.
	RootGit Root = "git"
	// RootStart: the directory it starts in.
	RootStart Root = "start"
)

// Walk says where a project file is looked for besides the project root.
type Walk string

// Walks.
const (
	// WalkNone: in the project root only.
	WalkNone Walk = ""
	// WalkRoot: in the start directory and each parent up to the project root, the
	// nearest first.
	WalkRoot Walk = "root"
	// WalkTop: in the start directory and each parent up to the filesystem's root, the
	// nearest first.
	WalkTop Walk = "top"
	// WalkGit: in the start directory and each parent up to the top of the git work
	// tree holding it, or up to the filesystem's root outside one (opencode's findUp).
	WalkGit Walk = "git"
)

// Source is one place a client reads server entries from.
type Source struct {
	// At is the file.
	At At
	// Walk: a project file is looked for in the start directory and its parents.
	Walk Walk
	// Trust: the source is read only in a folder the client trusts. Approve: each of
	// its servers waits for the person's approval.
	Trust, Approve bool
	// Hold: a server the trust or approval keeps off still takes its name, so that no
	// later source's entry of that name is used (Qwen Code's pending approval); without
	// it the later source's entry is used instead (Claude Code).
	Hold bool
	// Exclusive: when the file exists, the client loads its servers and no other
	// source's (Claude Code's managed-mcp.json).
	Exclusive bool
	// Label is how reasons call the source ("": its scope, "managed" for a system
	// file).
	Label string
}

// At names a file a liveness rule reads: one of the client's destinations (Scope),
// another client's (Of and Scope: oh-my-pi reads Claude Code's .mcp.json, in Claude
// Code's spelling), a destination of its own (Dest), or a system file.
type At struct {
	Scope  Scope
	Of     string
	Dest   *Dest
	System *SystemFile
}

// SystemFile is a file at a fixed place of the system, an administrator's: its path
// per system (%VAR% in a Windows path is that variable, with Windows' default when
// it is not set). Env, when set, names a variable holding the path instead.
type SystemFile struct {
	Env string
	// Darwin and Windows are the paths on macOS and Windows, Other elsewhere.
	Darwin, Windows, Other string
	// RootOwned: the client reads the file only when it and every directory above it
	// belong to root and only root may write them (POSIX systems; Gemini CLI skips an
	// insecure system settings file, saying so).
	RootOwned bool
}

// windowsDirs are what Windows' folder variables default to where they are not set.
var windowsDirs = map[string]string{
	"ProgramFiles": `C:\Program Files`,
	"ProgramData":  `C:\ProgramData`,
}

// Path returns the system file's path on in.GOOS, "" when it has none there.
func (s *SystemFile) Path(in PathEnv) string {
	get := in.env()
	if s.Env != "" && get(s.Env) != "" {
		return get(s.Env)
	}
	switch in.GOOS {
	case "darwin":
		return s.Darwin
	case "windows":
	default:
		return s.Other
	}
	p := s.Windows
	for k, def := range windowsDirs {
		v := get(k)
		if v == "" {
			v = def
		}
		p = strings.ReplaceAll(p, "%"+k+"%", v)
	}
	return p
}

// Where is where a client starts: its start directory, its project root (Live.Root),
// the root as the client keys projects in its files (a real path, with forward
// slashes on Windows), and the environment that locates its files.
type Where struct {
	Start, Root, Key string
	Env              PathEnv
}

// Files is how liveness rules read files: the caller's I/O.
type Files interface {
	// Resolve returns the files of a place that exist, preferred first: a project
	// destination's in each of dirs, the project root's when none is given.
	Resolve(at At, dirs ...string) []string
	// Member returns a member of a file as standard JSON, the file read in the format
	// its name says (.toml TOML, .yaml or .yml YAML, else JSON with comments); false
	// when the file or the member is not there or the file does not parse.
	Member(file string, path ...string) (json.RawMessage, bool)
}

// Rule is what decides a verdict: what it says, and the file and member that hold it
// (File "" when no file does; Elem, when set, is the element of the array at Path).
type Rule struct {
	Text string
	File string
	Path []string
	Elem string
}

// Truster is where a client records the folders it trusts.
type Truster interface {
	// Trusted reports whether the client trusts the project at w, and the rule that
	// says so or would.
	Trusted(f Files, w Where) (bool, Rule)
}

// Approver decides whether the person approved a server of a source.
type Approver interface {
	// Approved reports whether the server name of source s (entry, as standard JSON)
	// was approved, and the rule that says so or would.
	Approved(f Files, w Where, s Source, name string, entry json.RawMessage) (bool, Rule)
}

// Policy is a client's own managed policy.
type Policy interface {
	// Judge says whether the policy keeps a server off, and the rule that does.
	Judge(f Files, w Where, s PolicyServer) (off bool, r Rule)
}

// PolicyServer is what a managed policy matches a server on.
type PolicyServer struct {
	Name string
	// Command is a stdio server's command and arguments; URL a remote server's.
	Command []string
	URL     string
	// Managed: the entry comes from the administrator's own file (an exclusive source).
	Managed bool
}

// NameList is a list of server names in a file that switches them off (or, an allow
// list, every server it does not name).
type NameList struct {
	At At
	// Path is the member holding the list; ProjectKey in it stands for the project
	// root as the client keys projects.
	Path []string
	// Allow: an allow list (present and not holding the name: off). Map: the member
	// is a map by name whose entries say {"enabled": false}. Fold: names compare
	// lower-cased and trimmed. Glob: * and ? in a name match any text.
	Allow, Map, Fold, Glob bool
	// Scopes are the scopes whose entries the list applies to, nil for every entry;
	// Before: it applies to them before precedence, so that a later source's entry of
	// that name is used instead (Claude Code's disabledMcpjsonServers).
	Scopes []Scope
	Before bool
	// Trusted: the list is read only where the client trusts the project.
	Trusted bool
}

// Off says whether the list keeps server name off where the client starts: a deny
// list naming it, an allow list present without it; and the rule, in the first file
// of the list's place that has the list.
func (l *NameList) Off(f Files, w Where, name string) (bool, Rule) {
	path := make([]string, len(l.Path))
	for i, k := range l.Path {
		if k == ProjectKey {
			k = w.Key
		}
		path[i] = k
	}
	member := memberText(path)
	for _, file := range f.Resolve(l.At) {
		raw, ok := f.Member(file, path...)
		if !ok {
			continue
		}
		held, elem := l.Holds(raw, name)
		switch {
		case held && !l.Allow:
			return true, Rule{Text: fmt.Sprintf("named in %s of %s", member, file), File: file, Path: l.Path, Elem: elem}
		case !held && l.Allow:
			return true, Rule{Text: fmt.Sprintf("not in %s of %s, which lets only the servers it names start", member, file), File: file, Path: l.Path}
		}
	}
	return false, Rule{}
}

// memberText is a member path as people write it: mcp.excluded,
// projects["/home/me/p"].disabledMcpServers.
func memberText(path []string) string {
	var b strings.Builder
	for i, k := range path {
		switch {
		case strings.ContainsAny(k, `./\ "`) || k == "":
			b.WriteString("[" + strconv.Quote(k) + "]")
		case i > 0:
			b.WriteString("." + k)
		default:
			b.WriteString(k)
		}
	}
	return b.String()
}

// Holds reports whether a list (decoded from JSON) names server n, and the element
// that does.
func (l *NameList) Holds(raw json.RawMessage, n string) (bool, string) {
	var names []string
	if l.Map {
		var m map[string]struct {
			Enabled *bool `json:"enabled"`
		}
		if json.Unmarshal(raw, &m) != nil {
			return false, ""
		}
		for k, v := range m {
			if v.Enabled != nil && !*v.Enabled {
				names = append(names, k)
			}
		}
		slices.Sort(names)
	} else if json.Unmarshal(raw, &names) != nil {
		return false, ""
	}
	for _, x := range names {
		if l.match(x, n) {
			return true, x
		}
	}
	return false, ""
}

// match reports whether list element x names server n.
func (l *NameList) match(x, n string) bool {
	if l.Fold {
		x, n = strings.ToLower(strings.TrimSpace(x)), strings.ToLower(strings.TrimSpace(n))
	}
	if l.Glob && strings.ContainsAny(x, "*?") {
		ok, err := filepath.Match(x, n)
		return err == nil && ok
	}
	return x == n
}

// StartedBy is how a client is started, which decides the PATH its servers get.
type StartedBy string

// Launches.
const (
	// LaunchShell: from a shell, with its environment (a command-line client).
	LaunchShell StartedBy = ""
	// LaunchDesktop: an app started from the desktop, with the login session's
	// environment and not a shell's: on macOS launchd's PATH (Claude Desktop's "spawn
	// npx ENOENT").
	LaunchDesktop StartedBy = "desktop"
	// LaunchLoginShell: an app started from the desktop that asks the person's login
	// shell for its environment when it starts (VS Code and the editors built on it):
	// a shell's PATH.
	LaunchLoginShell StartedBy = "login-shell"
)

// Liveness returns the client's liveness rules: its own, with, where they name no
// source, the sources mcpwire assumes (defaultLive).
func (p *Provider) Liveness() *Live {
	var own *Live
	if p.Live != nil {
		own = p.Live()
	}
	if own != nil && len(own.Sources) > 0 {
		return own
	}
	l := p.defaultLive()
	if own != nil {
		own.Root, own.Sources = l.Root, l.Sources
		l = own
	}
	return l
}

// defaultLive is what mcpwire assumes of a client it knows no more of: its files in
// scope order (local, project, user) and those it also reads, the first holding a
// name wins whole, no gate; its project is the git work tree's top.
func (p *Provider) defaultLive() *Live {
	var scopes []Scope
	for _, s := range []Scope{Local, Project, User} {
		if p.Dest(s) != nil {
			scopes = append(scopes, s)
		}
	}
	l := inOrder(scopes...)
	for _, d := range p.AlsoReads {
		scope := User
		if d.Base == ProjectDir {
			scope = Project
		}
		l.Sources = append(l.Sources, Source{At: At{Scope: scope, Dest: d}})
	}
	return l
}

// editorLive is the editors': their files in scope order, a shell's PATH.
func editorLive() *Live { return &Live{Launch: LaunchLoginShell} }

// inOrder is the liveness of a client that reads its files of these scopes, the
// first holding a name winning whole, with no trust or approval; its project is the
// top of the git work tree.
func inOrder(scopes ...Scope) *Live {
	l := &Live{Root: RootGit}
	for _, s := range scopes {
		l.Sources = append(l.Sources, Source{At: At{Scope: s}})
	}
	return l
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// sortedJSON encodes v as JavaScript's JSON.stringify does with object keys sorted
// (Go's encoder sorts map keys, and escapes only what JSON.stringify does once
// HTML escaping is off).
func sortedJSON(v any) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}
