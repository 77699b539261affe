package redact

import (
	"bytes"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// This file learns the credentials of a JSON or JSONC file from its tokens as
// jsonc.Walk validates it: what learn does over the file's values (learner: the same
// names, the same rules, in the same order), in one pass over its bytes that
// allocates only what it learns. A walk of internal/jsonc values scans each container
// again for each level it is nested in: 0.3 s for a minified 52 MB ~/.claude.json,
// three times the inject whose dry run it serves (K7).

// stream is one such pass. It implements jsonc.Visitor.
type stream struct {
	r    *Redactor
	data []byte
	// names are what the names of the members leading to the current value say,
	// one byte each (what a name says is looked up once per key, and 1,250,000 keys
	// of a 50 MB file are pushed here: K7)
	names []says
	// frames are the open objects and arrays, innermost last
	frames []frame
	// acts are what was learnt, applied once the whole document is known valid (a
	// file that is not JSON learns nothing here, as with learn)
	acts []action
	// lo, when snap is not nil, is where the scan of a file's old version takes a
	// snapshot of what is open (see change)
	lo   int
	snap *snapshot
	// recent are names looked up lately (name)
	recent [512]recentName
}

// says is what the name of a member leading to a value says, and what the names
// before it do.
type says uint8

const (
	saysCred    says = 1 << iota // it or a name before it holds credentials
	saysLaunch                   // a launch member (launchKeys)
	saysServers                  // a member holding servers
	saysType                     // "type", whose value is no credential
)

// saysOf is what a name says by itself.
func saysOf(k nameKind) says {
	var x says
	if k.cred {
		x |= saysCred
	}
	if k.launch {
		x |= saysLaunch
	}
	if k.servers {
		x |= saysServers
	}
	if k.norm == "type" {
		x |= saysType
	}
	return x
}

// recentName is a name looked up lately and what it says.
type recentName struct {
	name string
	says says
}

// frame is an open object or array.
type frame struct {
	array bool
	start int // the offset of its bracket
	base  int // len(names) when it opened: the names that lead to it
	// args collects the strings of a launch member's list (learner.visit's
	// KindList), and the actions inside it, which learn takes after the list's
	collect *collecting
}

type collecting struct {
	args []string
	acts []action
}

// action is one thing learnt: a credential, a command line or an argument list.
type action struct {
	kind byte // 'c' credential, 'm' command, 'a' arguments
	text string
	args []string
}

func (a action) apply(r *Redactor) {
	switch a.kind {
	case 'c':
		r.addCredential(a.text)
	case 'm':
		r.addCommand(a.text)
	case 'a':
		r.addArgs(a.args)
	}
}

// snapshot is what is open in a file's old version where it starts to differ from
// its new one, and where each of those ends: a value that holds every difference is
// learnt again in the new version alone, from the same place and in the same context
// (change).
type snapshot struct {
	frames []frame
	ends   []int // where frames[i] ends, once it does
	names  []says
}

func newStream(r *Redactor, data []byte) *stream {
	return &stream{r: r, data: data, lo: -1}
}

// walk learns from the whole document; false when it is not JSONC.
func (s *stream) walk() bool {
	if jsonc.Walk(s.data, s) != nil {
		return false
	}
	s.apply()
	return true
}

// apply applies what was learnt.
func (s *stream) apply() {
	for _, a := range s.acts {
		a.apply(s.r)
	}
	s.acts = nil
}

// at takes the snapshot before the first token that does not end before lo.
func (s *stream) at(end int) {
	if s.snap == nil || s.snap.frames != nil || end <= s.lo {
		return
	}
	s.snap.frames = append([]frame{}, s.frames...)
	s.snap.ends = make([]int, len(s.frames))
	s.snap.names = append([]says{}, s.names...)
}

// value is where the value starting now stands: under a member that holds
// credentials, under a launch member (launchKeys), under a member named "type"
// (normalised), an element of a list.
func (s *stream) value() (cred, launch, typ, inList bool) {
	if n := len(s.names); n > 0 {
		x := s.names[n-1]
		cred, launch, typ = x&saysCred != 0, x&saysLaunch != 0, x&saysType != 0
	}
	if n := len(s.frames); n > 0 {
		inList = s.frames[n-1].array
	}
	return cred, launch, typ, inList
}

// learnt records an action, inside the innermost list that collects actions, if any.
func (s *stream) learnt(a action) {
	for i := len(s.frames) - 1; i >= 0; i-- {
		if c := s.frames[i].collect; c != nil {
			c.acts = append(c.acts, a)
			return
		}
	}
	if len(s.acts) == cap(s.acts) && cap(s.acts) >= 256 {
		// doubled, not grown by a quarter: the dry run of an import learns a command
		// and an argument list for each of 200,000 servers (K7), and every step
		// leaves a copy behind
		s.acts = append(make([]action, 0, 2*cap(s.acts)), s.acts...)
	}
	s.acts = append(s.acts, a)
}

// Key implements jsonc.Visitor.
func (s *stream) Key(start, end int) {
	s.at(end)
	f := &s.frames[len(s.frames)-1]
	s.names = s.names[:f.base]
	k := s.name(start, end)
	if n := len(s.names); n > 0 {
		if s.names[n-1]&saysServers != 0 {
			k &^= saysCred // a server's name
		}
		k |= s.names[n-1] & saysCred
	}
	s.names = append(s.names, k)
}

// name is what the key token data[start:end] says. A file's keys are mostly the
// same few names again (command, args, env, and the members of each of 30,000
// projects): a small table by length and end bytes finds them before the map.
func (s *stream) name(start, end int) says {
	tok := s.data[start+1 : end-1]
	h := len(tok)
	if h > 0 {
		h = h*31 + int(tok[0])*7 + int(tok[h-1])
	}
	slot := &s.recent[h%len(s.recent)]
	if len(tok) > 0 && slot.name == string(tok) { // a slot holds no escaped name
		return slot.says
	}
	escaped := bytes.IndexByte(tok, '\\') >= 0
	var k nameKind
	var ok bool
	if escaped {
		k, ok = s.r.names[jsonc.Unquote(s.data[start:end])]
	} else {
		k, ok = s.r.names[string(tok)] // no string made for the look-up
	}
	if !ok {
		name := string(tok)
		if escaped {
			name = jsonc.Unquote(s.data[start:end])
		}
		k = s.r.classify(name)
		if len(s.r.names) < maxNames {
			s.r.names[name] = k
		}
	}
	x := saysOf(k)
	if !escaped && len(tok) > 0 {
		*slot = recentName{k.name, x}
	}
	return x
}

// Open implements jsonc.Visitor.
func (s *stream) Open(at int, array bool) {
	s.at(at + 1)
	cred, launch, _, _ := s.value()
	f := frame{array: array, start: at, base: len(s.names)}
	if array && launch && !cred {
		f.collect = &collecting{}
	}
	s.frames = append(s.frames, f)
}

// Close implements jsonc.Visitor.
func (s *stream) Close(end int) {
	s.at(end)
	d := len(s.frames) - 1
	f := s.frames[d]
	if s.snap != nil && d < len(s.snap.ends) && s.snap.ends[d] == 0 {
		s.snap.ends[d] = end
	}
	s.frames = s.frames[:d]
	s.names = s.names[:f.base]
	if c := f.collect; c != nil {
		s.learnt(action{kind: 'a', args: c.args})
		for _, a := range c.acts {
			s.learnt(a)
		}
	}
}

// Scalar implements jsonc.Visitor.
func (s *stream) Scalar(start, end int) {
	s.at(end)
	if s.data[start] != '"' {
		return
	}
	cred, launch, typ, inList := s.value()
	if n := len(s.frames); n > 0 && s.frames[n-1].collect != nil {
		// an element of a launch member's list: learnt with its list
		c := s.frames[n-1].collect
		c.args = append(c.args, jsonc.Unquote(s.data[start:end]))
		return
	}
	switch {
	case cred && !typ:
		s.learnt(action{kind: 'c', text: jsonc.Unquote(s.data[start:end])})
	case launch && !inList:
		s.learnt(action{kind: 'm', text: jsonc.Unquote(s.data[start:end])})
	}
}

// change learns the credentials of two versions of a JSON or JSONC document: the
// old one whole, and of the new one the value that holds every byte that differs,
// learnt from where it starts with what leads to it, which the bytes before it (the
// same in both) say. The value is the innermost object or array of the old version
// open where the versions start to differ that, in the new version too, ends where
// what follows is the same in both (else the next one out); a list whose strings are
// arguments is learnt whole. false when old is not JSONC; a new version that is not,
// or whose difference no value holds, is learnt whole (File). read is the part of
// the new version (without a byte order mark) it read.
//
// The new version may be in pieces (a dry run's write of a large file, issue 31): only
// the value found is read from it, joined (the whole version when no value holds the
// difference).
func (r *Redactor) change(path string, oldFile []byte, newFile fsys.Content) (read [2]int, ok bool) {
	old, new := withoutBOM(oldFile), newFile
	if new.HasPrefix(utf8BOM) {
		new = new.Drop(len(utf8BOM))
	}
	lo, m := new.CommonEnds(old)
	so := newStream(r, old)
	so.lo, so.snap = lo, &snapshot{}
	if !so.walk() {
		return read, false
	}
	if lo == len(old) && lo == new.Len() {
		return read, true // the same
	}
	whole := [2]int{0, new.Len()}
	sp := so.snap
	for d := len(sp.frames) - 1; d >= 0; d-- {
		if sp.ends[d] < len(old)-m {
			break // nor does any outer one end in the common tail
		}
		if d > 0 && sp.frames[d-1].collect != nil {
			continue // an element of a list of arguments: the list
		}
		// in the new version, the value ends as far from the end (quick to check first)
		tail := len(old) - sp.ends[d]
		if at := new.Len() - tail - 1; at < lo || new.Slice(at, at+1)[0] != old[sp.ends[d]-1] {
			continue
		}
		f := sp.frames[d]
		// the value is read from a copy of it alone, which ends where the common
		// tail starts: a value that does not end there does not end in the copy
		value := new.Slice(f.start, new.Len()-tail)
		sn := newStream(r, value)
		sn.names = sp.names[:f.base:f.base]
		if d > 0 {
			parent := sp.frames[d-1]
			parent.collect = nil
			sn.frames = []frame{parent}
		}
		end, err := jsonc.WalkValue(value, 0, sn)
		if err == nil && end == len(value) {
			sn.apply()
			return [2]int{f.start, f.start + end}, true
		}
		// not a value there, or its change reaches beyond it: the next one out
	}
	r.File(path, newFile.Bytes())
	return whole, true
}
