package explain

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// decide gives every entry its verdict: the gates of its source (trust, approval, the
// lists that apply before precedence), then precedence among the entries that take
// their name, then, on each winner, the switches, lists, collapsing, policies and the
// environment.
func (cl *client) decide() {
	if cl.l.Trust != nil {
		cl.trusted, cl.trust = cl.l.Trust.Trusted(cl.fs, cl.w)
	}
	claims := map[string]*entry{} // the winner of each name
	var winners []*entry
	for _, e := range cl.entries {
		if e.name == "" {
			continue // a file it cannot read: its reason is said already
		}
		if cl.exclusive != "" && !e.src.Exclusive {
			e.off(fmt.Sprintf("%s loads only the servers of its managed file %s", cl.p.Display, cl.exclusive),
				providers.Rule{File: cl.exclusive})
			continue
		}
		gated := cl.gate(e)
		hold := e.src.Hold && e.skip == "" // a file the client skips holds nothing
		if w, ok := claims[e.name]; ok {
			if gated == "" || hold {
				cl.shadow(e, w)
			}
			continue
		}
		if gated != "" && !hold {
			continue // it gives way: a later source's entry of the name is used
		}
		claims[e.name] = e
		if gated == "" {
			winners = append(winners, e)
		}
	}
	if cl.l.Merge && cl.l.DropsBadFiles {
		// a client that merges its layers and fails on an entry it cannot use fails
		// its whole configuration when a merged entry is one
		for _, e := range winners {
			if e.server == nil && e.err == nil {
				continue
			}
			s := e.server
			if s != nil {
				s = cl.effective(e)
			}
			if why := (&entry{err: e.err, server: s}).bad(); why != "" {
				reason := fmt.Sprintf("%s skips its whole configuration: entry %s %s", cl.p.Display, termtext.Quote(e.name), why)
				for _, o := range cl.entries {
					o.off(reason, providers.Rule{File: e.file})
					o.winner = nil
				}
				return
			}
		}
	}
	var survivors []*entry
	for _, e := range winners {
		cl.judge(e, &survivors)
	}
}

// off marks an entry off for a reason.
func (e *entry) off(reason string, r providers.Rule) {
	e.live, e.reason, e.rule = false, "off: "+reason, r
}

// gate applies an entry's source gates and the lists that apply before precedence:
// "" when it passes, else why not (the entry is marked off).
func (cl *client) gate(e *entry) string {
	s := e.src
	if e.skip != "" {
		e.off(e.skip, providers.Rule{File: e.file})
		return e.reason
	}
	if s.Trust && !cl.trusted {
		e.off(cl.trust.Text, cl.trust)
		return e.reason
	}
	if s.Approve && cl.l.Approval != nil {
		if ok, r := cl.l.Approval.Approved(cl.fs, cl.w, s, e.name, e.json); !ok {
			e.off(r.Text, r)
			return e.reason
		}
	}
	for i := range cl.l.Lists {
		l := &cl.l.Lists[i]
		if l.Before && applies(l, e.scope) {
			if off, r := cl.listed(l, e.name); off {
				e.off(r.Text, r)
				return e.reason
			}
		}
	}
	return ""
}

// shadow marks an entry not used: the client uses w's entry of that name instead.
func (cl *client) shadow(e, w *entry) {
	how := "uses " + label(w) + " instead"
	if w.reason != "" {
		how = "gives the name to " + label(w) + ", which is " + w.reason
	} else if cl.l.Merge {
		how = "merges it into " + label(w) + ", whose members win"
	}
	e.live = false
	e.reason = "not used: " + cl.p.Display + " " + how + cl.order()
	e.rule = providers.Rule{File: w.file}
	e.winner = w
}

// order names the client's order of its sources, when it has several scopes.
func (cl *client) order() string {
	var names []string
	for _, s := range cl.l.Sources {
		n := sourceLabel(s)
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return ""
	}
	return " (" + strings.Join(names, " over ") + ")"
}

// label is how reasons call an entry: "the project-scope entry", "the .mcp.json
// entry".
func label(e *entry) string {
	if e.src.Label != "" || e.src.At.System != nil {
		return "the " + sourceLabel(e.src) + " entry"
	}
	return "the " + string(e.src.At.Scope) + "-scope entry"
}

// sourceLabel is how reasons call a source.
func sourceLabel(s providers.Source) string {
	switch {
	case s.Label != "":
		return s.Label
	case s.At.System != nil:
		return "managed"
	}
	return string(s.At.Scope)
}

// judge decides a winner: its switch, the lists, a server the client already starts
// under another name, the managed and organisation policies, and the environment.
func (cl *client) judge(e *entry, survivors *[]*entry) {
	s := e.server
	if s != nil {
		s = cl.effective(e)
	}
	if why := (&entry{err: e.err, server: s}).bad(); why != "" || s == nil {
		if why == "" {
			why = "cannot be read"
		}
		e.off(cl.p.Display+" cannot start it: the entry "+why, providers.Rule{})
		return
	}
	if cl.l.TrustAll && !cl.trusted {
		e.off(cl.trust.Text, cl.trust)
		return
	}
	if on := cl.switched(e); on != nil && !*on {
		e.off("the entry is switched off ("+switchText(e.by)+")", providers.Rule{})
		return
	}
	for i := range cl.l.Lists {
		l := &cl.l.Lists[i]
		if !l.Before && applies(l, e.scope) && (!l.Trusted || cl.trusted) {
			if off, r := cl.listed(l, e.name); off {
				e.off(r.Text, r)
				return
			}
		}
	}
	if cl.l.Collapse {
		for _, o := range *survivors {
			if sameLaunch(o.server, s) {
				e.off(fmt.Sprintf("it starts the same server as %s, which %s starts once", termtext.Quote(o.name), cl.p.Display),
					providers.Rule{File: o.file})
				e.winner = o
				return
			}
		}
	}
	*survivors = append(*survivors, e)
	if cl.l.Policy != nil {
		if off, r := cl.l.Policy.Judge(cl.fs, cl.w, policyServer(e, s, cl.exclusive != "")); off {
			e.off(r.Text, r)
			return
		}
	}
	if cl.r.Org != nil {
		// mcpwire's policy does not stop the client (its compiled admin files would, and
		// are read as the client's own): said of the entry, whatever its verdict (G2)
		if denied, r := cl.r.Org.Judge(e.name, s); denied {
			e.notes = append(e.notes, r.Text)
		}
	}
	if why := cl.variables(e, s); why != "" {
		e.off(why, providers.Rule{})
		return
	}
	e.loaded = true
	if why := cl.command(e, s); why != "" {
		e.off(why, providers.Rule{})
		e.reason += notes(e.notes)
		return
	}
	for _, m := range cl.l.Ignored {
		if _, ok := member(e.json, m); ok {
			e.notes = append(e.notes, fmt.Sprintf("%s does not read the entry's %q member", cl.p.Display, m))
		}
	}
	e.live = true
	e.reason = "live: " + cl.p.Display + " starts " + label(e) + notes(e.notes)
	e.rule = providers.Rule{}
}

// notes are the notes said after a verdict.
func notes(ns []string) string {
	if len(ns) == 0 {
		return ""
	}
	return "; " + strings.Join(ns, "; ")
}

// effective is the server a winner stands for: the entry itself, or, for a client
// that merges the sources holding a name, each member the first source's that has it.
func (cl *client) effective(e *entry) *registry.Server {
	if !cl.l.Merge {
		return e.server
	}
	s := *e.server
	for _, o := range cl.entries {
		if o == e || o.name != e.name || o.winner != e || o.server == nil {
			continue
		}
		if s.Command == "" && s.URL == "" {
			s.Type, s.Command, s.Args, s.URL = o.server.Type, o.server.Command, o.server.Args, o.server.URL
		}
		if s.Cwd == "" {
			s.Cwd = o.server.Cwd
		}
		s.EnvFrom = union(s.EnvFrom, o.server.EnvFrom)
		s.HeaderEnv = union(s.HeaderEnv, o.server.HeaderEnv)
		if s.BearerEnv == "" {
			s.BearerEnv = o.server.BearerEnv
		}
	}
	return &s
}

// switched is the switch that decides a winner: its own, or, for a client that
// merges the sources holding a name, the first one's that has one.
func (cl *client) switched(e *entry) *bool {
	if e.switched != nil || !cl.l.Merge {
		return e.switched
	}
	for _, o := range cl.entries {
		if o.winner == e && o.switched != nil {
			return o.switched
		}
	}
	return nil
}

// member reads a member of an entry as standard JSON.
func member(entry json.RawMessage, name string) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(entry, &m) != nil {
		return nil, false
	}
	v, ok := m[name]
	return v, ok
}

// union is a map with b's entries that a does not have added.
func union(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return a
	}
	out := map[string]string{}
	for k, v := range b {
		out[k] = v
	}
	for k, v := range a {
		out[k] = v
	}
	return out
}

// switchText names the member that switches an entry off in a client.
func switchText(p *providers.Provider) string {
	if p.Switch == "disabled" {
		return `"disabled": true`
	}
	return `"enabled": false`
}

// applies reports whether a list applies to entries of a scope.
func applies(l *providers.NameList, s providers.Scope) bool {
	return len(l.Scopes) == 0 || slices.Contains(l.Scopes, s)
}

// listed says whether a list keeps server name off.
func (cl *client) listed(l *providers.NameList, name string) (bool, providers.Rule) {
	return l.Off(cl.fs, cl.w, name)
}

// sameLaunch reports whether two servers start the same process or reach the same
// address.
func sameLaunch(a, b *registry.Server) bool {
	if a.Remote() || b.Remote() {
		return a.Remote() && b.Remote() && a.URL == b.URL && maps.Equal(a.Headers, b.Headers) && maps.Equal(a.HeaderEnv, b.HeaderEnv)
	}
	return a.Command == b.Command && slices.Equal(a.Args, b.Args) && maps.Equal(a.Env, b.Env) &&
		maps.Equal(a.EnvFrom, b.EnvFrom) && a.Cwd == b.Cwd
}

// policyServer is what a managed policy matches a server on.
func policyServer(e *entry, s *registry.Server, exclusive bool) providers.PolicyServer {
	ps := providers.PolicyServer{Name: e.name, Managed: exclusive && e.src.Exclusive}
	if s.Remote() {
		ps.URL = s.URL
	} else if s.Command != "" {
		ps.Command = append([]string{s.Command}, s.Args...)
	}
	return ps
}
