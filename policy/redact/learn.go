package redact

import (
	"bytes"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/tomledit"
	"github.com/mcpwire/mcpwire/internal/yamledit"
	"github.com/mcpwire/mcpwire/policy"
)

// launchKeys hold argument lists or a command line.
var launchKeys = map[string]bool{"args": true, "command": true, "cmd": true}

// File learns the credentials of one version of a client file: JSON or JSONC, or
// TOML (by extension, then by content). A file that parses as neither is read line
// by line. A JSON file is read in one pass over its tokens (stream.go): a 50 MB
// ~/.claude.json is not decoded, and only the strings that are credentials are.
func (r *Redactor) File(path string, data []byte) {
	if len(bytes.TrimSpace(data)) == 0 {
		return
	}
	defer collectSooner(len(data))()
	parsers := []func([]byte) bool{r.json, r.toml, r.yaml}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".toml":
		parsers = []func([]byte) bool{r.toml, r.json}
	case ".yaml", ".yml":
		parsers = []func([]byte) bool{r.yaml}
	}
	for _, p := range parsers {
		if p(data) {
			return
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		r.addText(line)
		for _, v := range policy.TextSecrets(line) {
			r.setExact(v, policy.Redacted)
		}
	}
}

// Change learns the credentials of two versions of a client file, before and after
// a write. Of a JSON file's new version, only the value that holds every byte that
// differs is read (stream.go): what is written the same in both, under the same
// names, says the same in both, so a 50 MB ~/.claude.json with one entry added is
// read once, not twice.
func (r *Redactor) Change(path string, old, new []byte) {
	r.ChangeContent(path, old, fsys.ContentOf(new))
}

// ChangeContent is Change of a new version that may be in pieces (a dry run's write
// of a large file, issue 31): of a JSON file, only the value that holds the
// difference is joined.
func (r *Redactor) ChangeContent(path string, old []byte, new fsys.Content) {
	defer collectSooner(len(old) + new.Len())()
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".toml" && ext != ".yaml" && ext != ".yml" {
		if _, ok := r.change(path, old, new); ok { // stream.go
			return
		}
	}
	r.File(path, old)
	r.File(path, new.Bytes())
}

// bigInput is the size of the files learnt from above which collectSooner acts.
const bigInput = 8 << 20

// collectSooner asks the garbage collector, while a large file is learnt from, to
// run when the heap has grown by a quarter instead of doubled, and returns what
// restores it. A dry run of a 50 MB ~/.claude.json holds both of its versions (100
// MB live); walking them makes short-lived keys and paths that would otherwise pile
// up to tens of megabytes before the next collection (issue 11: a dry run's peak
// memory at most 3× the file). It does so only where the files are a large part of
// what is live: when the heap held more than twice their size at the last
// collection, a quarter of it is already more than they make, and collecting that
// often only costs time (K7: the dry run of an import of 200,000 servers holds 200
// MB besides the 31 MB registry file it shows, and spent 0.7 s of CPU collecting).
func collectSooner(size int) func() {
	return collectSoonerAt(size, heapLive())
}

// collectSoonerAt is collectSooner with live bytes on the heap at the last
// collection.
func collectSoonerAt(size int, live uint64) func() {
	if size < bigInput || live > 2*uint64(size) {
		return func() {}
	}
	old := debug.SetGCPercent(25)
	return func() { debug.SetGCPercent(old) }
}

// heapLive is the bytes of the heap the last collection found live (0 before any).
func heapLive() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// json learns from a JSON or JSONC document. Free text outside credentials (URL
// userinfo, Bearer tokens) is left to line time, where only the printed lines are
// searched: a JSON string never spans lines.
func (r *Redactor) json(data []byte) bool {
	return newStream(r, withoutBOM(data)).walk() // stream.go
}

// withoutBOM drops a UTF-8 byte order mark, which clients keep in front of JSON.
func withoutBOM(data []byte) []byte { return bytes.TrimPrefix(data, utf8BOM) }

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = []byte("\xef\xbb\xbf")

// toml learns from a TOML document, decoded strictly in linear time (tomledit.Decode: a
// config.toml of thousands of tables is not quadratic). Every string is also searched for URL
// userinfo and the like, as a TOML string may span lines.
func (r *Redactor) toml(data []byte) bool {
	v, err := tomledit.Decode(data)
	if err != nil {
		return false
	}
	learn[any](r, policy.Decoded{}, v, true, false)
	return true
}

// yaml learns from a YAML document, as from TOML (a YAML string may span lines too).
func (r *Redactor) yaml(data []byte) bool {
	doc, err := yamledit.Parse(data)
	if err != nil {
		return false
	}
	v, _ := doc.Lookup()
	learn[any](r, policy.Decoded{}, v, true, false)
	return true
}

// maxNames bounds the cache of what names say: the names that repeat (command, env,
// display) come early, and the unique ones (the 35,000 project paths of a large
// ~/.claude.json) are not worth holding.
const maxNames = 4096

// nameKind is what a member name says about the values under it.
type nameKind struct {
	name    string // as written
	norm    string // policy.NormName
	cred    bool   // a credential map or a credential name: every string below is one
	launch  bool   // an argument list or a command line (launchKeys)
	servers bool   // a member holding servers (New)
}

// classify is what a member name says.
func (r *Redactor) classify(name string) nameKind {
	k := nameKind{name: name, norm: policy.NormName(name)}
	k.cred = policy.CredentialMap(name) || policy.SecretNamed(name, k.norm)
	k.launch, k.servers = launchKeys[k.norm], r.servers[k.norm]
	return k
}

// learner records the credentials of one document as policy.Walk reads it: every
// string under a member that holds credentials (env, headers, auth, … see
// policy.CredentialMap) or has a credential name (clientSecret, primaryApiKey, …
// policy.SecretName), at any depth and in any entry, except a "type"; the credential
// arguments of argument lists and command lines; with text, the credential-shaped
// parts of every other string.
type learner[V any] struct {
	r     *Redactor
	rd    policy.Reader[V]
	text  bool       // search every other string (see Redactor.toml)
	cred  bool       // the whole document is credentials (a server's auth)
	names []nameKind // what each name of the path to the current value says
}

func learn[V any](r *Redactor, rd policy.Reader[V], root V, text, cred bool) {
	l := &learner[V]{r: r, rd: rd, text: text, cred: cred}
	policy.Walk(rd, root, l.visit)
}

func (l *learner[V]) visit(names []string, inList bool, v V) bool {
	cred, key := l.path(names)
	switch l.rd.Kind(v) {
	case policy.KindList:
		if launchKeys[key] && !cred {
			var args []string
			l.rd.Children(v, func(_ string, e V) {
				if l.rd.Kind(e) == policy.KindString {
					args = append(args, l.rd.Text(e))
				}
			})
			l.r.addArgs(args)
		}
	case policy.KindString:
		switch {
		case cred && key != "type":
			l.r.addCredential(l.rd.Text(v))
		case launchKeys[key]:
			if !inList { // the elements of an argument list are learnt with their list
				l.r.addCommand(l.rd.Text(v))
			}
		case l.text:
			l.r.addText(l.rd.Text(v))
		}
	}
	return true
}

// path reports whether the value at names is under a member that holds
// credentials, and the normalised name of its own member. What each name says is
// kept for the next value, which shares most of its path.
func (l *learner[V]) path(names []string) (cred bool, key string) {
	n := 0
	for n < len(names) && n < len(l.names) && l.names[n].name == names[n] {
		n++
	}
	l.names = l.names[:n]
	for _, name := range names[n:] {
		k, ok := l.r.names[name]
		if !ok {
			k = l.r.classify(name)
			if len(l.r.names) < maxNames {
				l.r.names[name] = k
			}
		}
		if i := len(l.names); i > 0 && l.r.servers[l.names[i-1].norm] {
			k.cred = false // a server's name
		}
		l.names = append(l.names, k)
	}
	cred = l.cred
	for _, k := range l.names {
		cred = cred || k.cred
	}
	if len(l.names) > 0 {
		key = l.names[len(l.names)-1].norm
	}
	return cred, key
}
