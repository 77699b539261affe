package manifest

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// Refusal is why a manifest's package or remote does not become a server. Reason is
// a short class of it (docs/manifests.md counts the registry's seed data by it).
type Refusal struct {
	Reason string
	Msg    string
	Advice []string
}

func (r *Refusal) Error() string { return r.Msg }

// Hints are the refusal's hint lines (cmd/mcpwire prints them after the error).
func (r *Refusal) Hints() []string { return r.Advice }

// Reasons of a refusal.
const (
	ReasonNothing     = "no package or remote"
	ReasonType        = "registryType not installable"
	ReasonTransport   = "package serves http"
	ReasonUnpinned    = "unpinned version"
	ReasonBaseURL     = "private package registry"
	ReasonRuntime     = "runtimeArguments for another runtime"
	ReasonDockerFlags = "docker flags among packageArguments"
	ReasonMalformed   = "malformed argument"
	ReasonMissing     = "required value missing"
	ReasonPlaceholder = "placeholder for a value"
	ReasonURL         = "remote url not usable"
	ReasonNoDigest    = "mcpb without fileSha256"
	ReasonInvalid     = "not a valid server"
	ReasonOffline     = "mcpb needs a download"
	ReasonChoice      = "--package matches nothing"
)

func refusal(reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Msg: fmt.Sprintf(format, args...)}
}

// Plan is a manifest mapped to a registry server.
type Plan struct {
	Server *registry.Server
	// Choice says what was chosen ("npm package airtable-mcp-server@1.7.2") and Why
	// ("npx is on PATH", "--package npm", "the only one").
	Choice, Why string
	// Notes are what the person should know: optional inputs left out, the variables
	// to set for secrets, a runtimeHint not followed.
	Notes []string
	// Bundle is set for an mcpb package: the caller downloads Bundle.URL, checks its
	// digest and installs it (M3).
	Bundle *BundleSource
	// Record is what the server keeps of its manifest (M4).
	Record *Record
}

// BundleSource is an mcpb package to download and install.
type BundleSource struct {
	URL, SHA256 string
}

// candidate is a package or remote of the manifest.
type candidate struct {
	pkg    *Package
	remote *Transport
	index  int
}

func (c candidate) String() string {
	if c.remote != nil {
		return fmt.Sprintf("remote %s (%s)", policy.RedactURL(c.remote.URL), c.remote.Type)
	}
	return fmt.Sprintf("%s package %s", normalType(c.pkg.RegistryType), c.pkg.Identifier)
}

// runtime is the program the candidate needs on PATH ("" for none).
func (c candidate) runtime() string {
	if c.pkg == nil {
		return ""
	}
	prog, _ := runtimeFor(*c.pkg)
	return prog
}

// ServerName is the registry name a manifest's server gets when none is given: the
// last part of its name, every character outside [A-Za-z0-9_-] as '-', at most 64.
func ServerName(manifestName string) string {
	n := manifestName[strings.LastIndexByte(manifestName, '/')+1:]
	n = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '-'
	}, n)
	n = strings.Trim(n, "-")
	if len(n) > 64 {
		n = strings.TrimRight(n[:64], "-")
	}
	if n == "" {
		n = "server"
	}
	return n
}

// Map maps a server.json to a registry server (M1): the package or remote
// opt.Package names, else the first package whose runtime is on PATH, else the first
// remote, else the first package. A candidate mcpwire cannot install is passed over
// (the first one's refusal is returned when none is left); the chosen one's missing
// values are refused naming them. An mcpb package comes back as Plan.Bundle to
// download and install.
func Map(doc *Document, opt Options) (*Plan, error) {
	name := opt.Name
	if name == "" {
		name = ServerName(doc.Name)
	}
	var cands []candidate
	for i := range doc.Packages {
		cands = append(cands, candidate{pkg: &doc.Packages[i], index: i})
	}
	for i := range doc.Remotes {
		cands = append(cands, candidate{remote: &doc.Remotes[i], index: i})
	}
	if len(cands) == 0 {
		return nil, refusal(ReasonNothing, "server %s has neither a package nor a remote", doc.Name)
	}
	order, why, err := choose(cands, opt)
	if err != nil {
		return nil, err
	}
	var first error
	for i, c := range order {
		plan, err := mapCandidate(doc, c, name, opt)
		if err == nil {
			plan.Why = why(i)
			return plan, nil
		}
		r, ok := err.(*Refusal)
		if !ok || r.Reason == ReasonMissing || r.Reason == ReasonPlaceholder {
			return nil, err // a flag is wrong, or the chosen one needs values
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// choose orders the candidates (M1): the one --package names; else packages whose
// runtime is on PATH, remotes, then the other packages.
func choose(cands []candidate, opt Options) ([]candidate, func(int) string, error) {
	if p := strings.ToLower(opt.Package); p != "" {
		var out []candidate
		for _, c := range cands {
			switch {
			case c.pkg != nil && normalType(c.pkg.RegistryType) == normalType(p):
			case c.remote != nil && (p == "remote" || p == c.remote.Type || p == "http" && c.remote.Type == "streamable-http"):
			default:
				continue
			}
			out = append(out, c)
		}
		if len(out) == 0 {
			var have []string
			for _, c := range cands {
				have = append(have, c.String())
			}
			return nil, nil, &Refusal{Reason: ReasonChoice, Msg: fmt.Sprintf("--package %s: the manifest has no such package or remote", opt.Package),
				Advice: []string{"it has: " + strings.Join(have, "; ")}}
		}
		return out[:1], func(int) string { return "--package " + opt.Package }, nil
	}
	if len(cands) == 1 {
		return cands, func(int) string { return "the only package or remote" }, nil
	}
	var onPath, remotes, rest []candidate
	for _, c := range cands {
		switch {
		case c.remote != nil:
			remotes = append(remotes, c)
		case normalType(c.pkg.RegistryType) == MCPB && opt.CanFetch:
			onPath = append(onPath, c)
		case c.runtime() != "" && opt.LookPath != nil && lookOK(opt.LookPath, c.runtime()):
			onPath = append(onPath, c)
		default:
			rest = append(rest, c)
		}
	}
	order := slices.Concat(onPath, remotes, rest)
	why := func(i int) string {
		c := order[i]
		switch {
		case i < len(onPath) && c.runtime() != "":
			return c.runtime() + " is on PATH"
		case i < len(onPath):
			return "the first package mcpwire can install here"
		case i < len(onPath)+len(remotes):
			return "no package's runtime is on PATH; a remote needs none"
		}
		return "no package's runtime is on PATH (" + c.runtime() + " is not either)"
	}
	return order, why, nil
}

func lookOK(look func(string) (string, error), prog string) bool {
	_, err := look(prog)
	return err == nil
}

// mapCandidate maps one package or remote.
func mapCandidate(doc *Document, c candidate, name string, opt Options) (*Plan, error) {
	m := newMapper(opt, name)
	s := &registry.Server{Name: name, Description: doc.Description}
	plan := &Plan{Server: s, Record: newRecord(doc)}
	var err error
	if c.remote != nil {
		err = m.remote(s, *c.remote)
		plan.Choice = c.String()
		r := *c.remote
		plan.Record.Remote = &r
	} else {
		plan.Choice = fmt.Sprintf("%s package %s", normalType(c.pkg.RegistryType), c.pkg.Identifier)
		if c.pkg.Version != "" && normalType(c.pkg.RegistryType) != OCI {
			plan.Choice += "@" + c.pkg.Version
		}
		p := *c.pkg
		plan.Record.Package = &p
		if normalType(p.RegistryType) == MCPB {
			plan.Bundle, err = bundleSource(p, opt)
		} else {
			err = m.pkg(s, p, &plan.Notes)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := m.done(); err != nil {
		return nil, err
	}
	s.Inputs = m.inputs
	plan.Notes = append(plan.Notes, m.notes()...)
	if plan.Bundle == nil {
		if err := s.Validate(); err != nil {
			return nil, refusal(ReasonInvalid, "server %s: %v", doc.Name, err)
		}
		plan.Record.Attach(s)
	}
	return plan, nil
}

// done refuses missing values and flags no input took.
func (m *mapper) done() error {
	if len(m.missing) > 0 {
		reason := ReasonMissing
		if len(m.placeholders) > 0 && !slices.ContainsFunc(m.missing, func(k string) bool { return !slices.Contains(m.placeholders, k) }) {
			reason = ReasonPlaceholder
		}
		hints := make([]string, len(m.missing))
		for i, k := range m.missing {
			hints[i] = "--value " + k + "=VALUE"
		}
		return &Refusal{Reason: reason, Msg: "required values missing: " + strings.Join(m.missing, ", "),
			Advice: []string{"give each: " + strings.Join(hints, " ")}}
	}
	if u := m.unused(); len(u) > 0 {
		return fmt.Errorf("--value %s: the manifest declares no such input here", strings.Join(u, ", "))
	}
	return nil
}

// notes are what the person should know of the values.
func (m *mapper) notes() []string {
	var out []string
	if len(m.vars) > 0 {
		out = append(out, "secrets come from variables: set "+strings.Join(m.vars, ", ")+" where the client starts (or name others with --value-from KEY=VAR)")
	}
	if len(m.inputs) > 0 {
		ids := make([]string, len(m.inputs))
		for i, in := range m.inputs {
			ids[i] = in.ID
		}
		out = append(out, "secrets are inputs the client asks for: "+strings.Join(ids, ", "))
	}
	if len(m.left) > 0 {
		out = append(out, "optional, left out: "+strings.Join(m.left, ", ")+" (give one with --value KEY=VALUE)")
	}
	return out
}

// remote maps a remote: its URL with {variables} filled, its headers.
func (m *mapper) remote(s *registry.Server, r Transport) error {
	s.Type = registry.HTTP
	if r.Type == "sse" {
		s.Type = registry.SSE
	}
	if placeholderRE().MatchString(r.URL) {
		return refusal(ReasonPlaceholder, "remote url: holds a placeholder for a value, not an address")
	}
	u, ok, err := m.fill(r.URL, r.Variables, site{key: "url", required: true})
	if err != nil {
		return err
	}
	if !ok {
		return m.done()
	}
	if u.secret {
		return refusal(ReasonURL, "remote url: a secret variable in the address would be written into every client's file; mcpwire takes secrets in headers")
	}
	if rest := templateRE().FindString(u.text); rest != "" {
		return refusal(ReasonURL, "remote url: the variable %s is not declared", rest)
	}
	if p, err := url.Parse(u.text); err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
		return refusal(ReasonURL, "remote url: not an absolute http(s) address")
	}
	s.URL = u.text
	return m.headers(s, r.Headers)
}

// headers maps headers: a whole secret to headerEnv (bearerEnv for "Bearer ${VAR}")
// or headerInput, other values literal, plain when they are no secret (P11, H10).
func (m *mapper) headers(s *registry.Server, hs []KeyValue) error {
	for _, h := range hs {
		vals, ok, err := m.resolve(site{key: h.Name, fold: true}, h.Input, h.Variables, false)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		v := vals[0]
		auth := strings.EqualFold(h.Name, "Authorization")
		bearer, isBearer := strings.CutPrefix(v.text, policy.BearerScheme)
		switch {
		case v.input != "":
			setMap(&s.HeaderInput, h.Name, v.input)
		case v.whole != "" && v.text == "${"+v.whole+"}":
			setMap(&s.HeaderEnv, h.Name, v.whole)
		case auth && isBearer && isVariable(bearer):
			s.BearerEnv, _ = policy.AnyVariable(bearer)
		case auth && isBearer && strings.HasPrefix(bearer, "${input:") && strings.Count(bearer, "${") == 1 && strings.HasSuffix(bearer, "}"):
			s.BearerInput = strings.TrimSuffix(strings.TrimPrefix(bearer, "${input:"), "}")
		default:
			setMap(&s.Headers, h.Name, v.text)
			if !v.secret && !h.IsSecret && !strings.Contains(v.text, "${") && policy.PlainEnvProblem(h.Name, v.text) == "" {
				s.PlainHeaders = append(s.PlainHeaders, h.Name)
			}
		}
	}
	return nil
}

// env maps environment variables: a whole secret to envFrom or envInput, other values
// literal, plain when they are no secret (P11).
func (m *mapper) env(s *registry.Server, envs []KeyValue) error {
	for _, e := range envs {
		vals, ok, err := m.resolve(site{key: e.Name, envKey: e.Name}, e.Input, e.Variables, false)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		v := vals[0]
		switch {
		case v.input != "":
			setMap(&s.EnvInput, e.Name, v.input)
		case v.whole != "" && v.text == "${"+v.whole+"}":
			setMap(&s.EnvFrom, e.Name, v.whole)
		default:
			setMap(&s.Env, e.Name, v.text)
			if !v.secret && !e.IsSecret && !strings.Contains(v.text, "${") && policy.PlainEnvProblem(e.Name, v.text) == "" {
				s.PlainEnv = append(s.PlainEnv, e.Name)
			}
		}
	}
	return nil
}

// isVariable reports a value that is one ${VAR} reference whole.
func isVariable(v string) bool {
	name, ok := policy.AnyVariable(v)
	return ok && v == "${"+name+"}"
}

func setMap(m *map[string]string, k, v string) {
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[k] = v
}

// bundleSource checks an mcpb package before it is downloaded: an https address and
// a digest to check it against.
func bundleSource(p Package, opt Options) (*BundleSource, error) {
	if p.FileSHA256 == "" {
		return nil, refusal(ReasonNoDigest, "mcpb package %s: no fileSha256 to check the download against", p.Identifier)
	}
	u, err := url.Parse(p.Identifier)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return nil, refusal(ReasonURL, "mcpb package: the identifier is not an https address")
	}
	if !opt.CanFetch {
		return nil, refusal(ReasonOffline, "mcpb package %s: downloading it needs the network (or download it and give the file: --from FILE.mcpb --sha256 %s)", p.Identifier, p.FileSHA256)
	}
	return &BundleSource{URL: p.Identifier, SHA256: p.FileSHA256}, nil
}
