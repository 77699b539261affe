package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
)

// Installer adds registry servers from manifests and keeps the bundle store of the
// write layer.
type Installer struct {
	Reg *registry.Registry
	FS  fsys.FS
	// Fetch downloads an mcpb package's bundle; nil when offline.
	Fetch Fetcher
	// GOOS and RuntimeVersion are this machine, for a bundle's compatibility and its
	// platform_overrides.
	GOOS           string
	RuntimeVersion func(runtime string) (string, error)
	// Verify is what a bundle's signature chain is checked against.
	Verify mcpb.VerifyOptions
	// Limits bound a bundle (mcpb.DefaultLimits when zero).
	Limits mcpb.Limits
}

// Request is one server add (or update) --from.
type Request struct {
	Source *Source
	// Select is --name NAME[@VERSION] (a listing's entry).
	Select string
	// SHA256 is --sha256, the digest a bundle must have.
	SHA256 string
	Options
}

// Result is what was added.
type Result struct {
	Server *registry.Server
	Plan   *Plan
	// Kind is server.json, listing or mcpb.
	Kind string
	// Signature is a bundle's signature.
	Signature mcpb.Signature
	// Fresh reports a bundle unpacked now (not found complete).
	Fresh bool
	// Removed are the bundle directories removed (no server uses them any more).
	Removed []string
}

func (in *Installer) limits() mcpb.Limits {
	if in.Limits == (mcpb.Limits{}) {
		return mcpb.DefaultLimits
	}
	return in.Limits
}

// Store is the write layer's bundle store.
func (in *Installer) Store() Store { return NewStore(in.FS, in.Reg.Set().Write().Dir) }

// Plan maps a request to a server without writing anything; for a bundle it checks
// the archive (and downloads an mcpb package's).
func (in *Installer) plan(req Request) (*Result, *mcpb.Archive, error) {
	src := req.Source
	kind := Classify(src.Data)
	res := &Result{Kind: kind}
	if kind == KindBundle {
		switch {
		case req.Select != "":
			return nil, nil, fmt.Errorf("--name %s: %s is a bundle; --name chooses an entry of a listing", req.Select, src.Origin)
		case req.Package != "":
			return nil, nil, fmt.Errorf("--package %s: %s is a bundle; --package chooses among a server.json's packages", req.Package, src.Origin)
		}
		return in.planBundle(req, res, src.Data, src.Origin, nil)
	}
	doc, err := in.document(req, kind)
	if err != nil {
		return nil, nil, err
	}
	opt := req.Options
	opt.CanFetch = in.Fetch != nil
	plan, err := Map(doc, opt)
	if err != nil {
		return nil, nil, err
	}
	plan.Record.Source = kind
	if plan.Bundle == nil && req.SHA256 != "" {
		return nil, nil, fmt.Errorf("--sha256: %s is no bundle (%s); --sha256 checks a bundle", plan.Choice, src.Origin)
	}
	if plan.Bundle == nil {
		plan.Record.Attach(plan.Server)
		res.Server, res.Plan = plan.Server, plan
		return res, nil, nil
	}
	data, err := in.Fetch(plan.Bundle.URL, in.limits().ArchiveBytes)
	if err != nil {
		return nil, nil, err
	}
	if err := checkDigest(data, plan.Bundle.SHA256, "the manifest's fileSha256"); err != nil {
		return nil, nil, err
	}
	return in.planBundle(req, res, data, Redact(plan.Bundle.URL), plan)
}

// document reads the server.json, or the listing's entry --name selects.
func (in *Installer) document(req Request, kind string) (*Document, error) {
	name, version := SplitNameVersion(req.Select)
	if kind == KindListing {
		l, err := ParseListing(req.Source.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", req.Source.Origin, err)
		}
		return l.Select(name, version)
	}
	doc, err := Parse(bytes.TrimPrefix(req.Source.Data, []byte("\ufeff")))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", req.Source.Origin, err)
	}
	if name != "" && name != doc.Name || version != "" && version != doc.Version {
		return nil, fmt.Errorf("--name %s: %s is %s@%s", req.Select, req.Source.Origin, doc.Name, doc.Version)
	}
	return doc, nil
}

func checkDigest(data []byte, want, what string) error {
	if want == "" {
		return nil
	}
	got := digest(data)
	if !strings.EqualFold(got, want) {
		return fmt.Errorf("the bundle's SHA-256 is %s, not %s (%s): it is not the bundle published", got, strings.ToLower(want), what)
	}
	return nil
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// planBundle checks a bundle and maps it; from is the mcpb package of a server.json
// it came from (nil for a bundle given itself).
func (in *Installer) planBundle(req Request, res *Result, data []byte, origin string, from *Plan) (*Result, *mcpb.Archive, error) {
	if err := checkDigest(data, req.SHA256, "--sha256"); err != nil {
		return nil, nil, err
	}
	a, err := mcpb.Open(data, in.limits())
	if err != nil {
		return nil, nil, fmt.Errorf("bundle %s: %w", origin, err)
	}
	if err := a.Manifest.CheckCompat(mcpb.CompatOptions{GOOS: in.GOOS, RuntimeVersion: in.RuntimeVersion}); err != nil {
		return nil, nil, fmt.Errorf("bundle %s: %w", origin, err)
	}
	sig, err := mcpb.Verify(a.Content, a.Signed, in.Verify)
	if err != nil {
		return nil, nil, fmt.Errorf("bundle %s: %w", origin, err)
	}
	sha := digest(data)
	dir := in.Store().Dir(a.Manifest.Name, a.Manifest.Version, sha)
	plan, err := MapBundle(a, dir, req.Options, BundleEnv{GOOS: in.GOOS})
	if err != nil {
		return nil, nil, err
	}
	rec := &Record{Source: KindBundle, Version: a.Manifest.Version}
	identifier := origin
	if !strings.HasPrefix(origin, "https://") && origin != "-" {
		identifier = "file://" + filepath.ToSlash(origin)
		if !strings.HasPrefix(identifier, "file:///") {
			identifier = "file:///" + strings.TrimPrefix(identifier, "file://")
		}
	}
	rec.Package = &Package{RegistryType: MCPB, Identifier: identifier, Version: a.Manifest.Version, FileSHA256: sha, Transport: Transport{Type: "stdio"}}
	if from != nil {
		plan.Choice = from.Choice + ": " + plan.Choice
		plan.Why = from.Why
		plan.Notes = append(from.Notes, plan.Notes...)
		r := *from.Record
		r.Source, r.Bundle, r.Launch = from.Record.Source, nil, ""
		r.Package.FileSHA256 = sha
		rec = &r
	} else {
		plan.Why = "a bundle"
	}
	rec.Bundle = &BundleRecord{Dir: dir, SHA256: sha, Name: a.Manifest.Name, Version: a.Manifest.Version, Signature: sig.Status, Publisher: sig.Publisher}
	plan.Record = rec
	rec.Attach(plan.Server)
	res.Server, res.Plan, res.Signature = plan.Server, plan, sig
	if res.Kind != KindBundle {
		res.Kind = rec.Source
	}
	return res, a, nil
}

// Add adds a server from a manifest (M1–M3) in one registry write. A bundle is
// unpacked first, under the store's lock; if the write fails, what this call
// unpacked is removed again.
func (in *Installer) Add(req Request) (*Result, error) {
	if req.Name != "" {
		if err := registry.ValidServerName(req.Name); err != nil {
			return nil, err
		}
	}
	res, a, err := in.plan(req)
	if err != nil {
		return nil, err
	}
	name := res.Server.Name
	if _, exists := in.Reg.Server(name); exists {
		return nil, hint.Wrap(fmt.Errorf("server %q already exists in %s", name, in.Reg.ServerOrigin(name)),
			"give it another name: server add NAME --from …; or move it to this manifest: server update "+name+" --from …")
	}
	write := func() error { return in.Reg.AddServer(res.Server) }
	if a == nil {
		return res, write()
	}
	return res, in.withBundle(res, a, nil, write)
}

// Update makes an existing server the manifest's (M3: a new version unpacks beside
// the old one, and the switch is one registry write). The server keeps its name and
// its records of injection. A bundle it ran from is removed once no server uses it;
// while the server is recorded as injected into clients, whose files still start
// the old one until inject writes them again, it is kept as retired.
func (in *Installer) Update(name string, req Request) (*Result, error) {
	cur, ok := in.Reg.Server(name)
	if !ok {
		return nil, in.Reg.NoServer(name)
	}
	req.Name = name
	res, a, err := in.plan(req)
	if err != nil {
		return nil, err
	}
	old, _ := RecordOf(cur)
	next := res.Server
	if len(cur.InjectedProviders) > 0 && old != nil {
		rec, _ := RecordOf(next)
		rec.Retired = retire(old, rec)
		rec.Attach(next)
		res.Plan.Record = rec
	}
	write := func() error {
		return in.Reg.UpdateServer(name, func(s *registry.Server) {
			keep, added := s.InjectedProviders, s.AddedAt
			*s = *next.Clone()
			s.InjectedProviders, s.AddedAt = keep, added
		})
	}
	if a == nil {
		if err := write(); err != nil {
			return nil, err
		}
		if old != nil && (old.Bundle != nil || len(old.Retired) > 0) {
			res.Removed, err = in.Prune()
		}
		return res, err
	}
	return res, in.withBundle(res, a, old, write)
}

// retire is the bundle directories an update keeps for clients not written since.
func retire(old, next *Record) []string {
	out := slices.Clone(old.Retired)
	if old.Bundle != nil && (next.Bundle == nil || next.Bundle.Dir != old.Bundle.Dir) && !slices.Contains(out, old.Bundle.Dir) {
		out = append(out, old.Bundle.Dir)
	}
	if next.Bundle != nil {
		out = slices.DeleteFunc(out, func(d string) bool { return d == next.Bundle.Dir })
	}
	return out
}

// withBundle unpacks a bundle and runs the registry write under the store's lock,
// removes what it unpacked when the write fails, and prunes what no server uses.
func (in *Installer) withBundle(res *Result, a *mcpb.Archive, old *Record, write func() error) error {
	st := in.Store()
	release, err := st.Lock()
	if err != nil {
		return err
	}
	defer release()
	// unfinished unpacks and unused bundles go first: nothing later trips on them
	if _, err := st.Prune(in.inUse); err != nil {
		return err
	}
	rec := res.Plan.Record
	fresh, err := st.Unpack(a, rec.Bundle.Dir, rec.Bundle.SHA256)
	res.Fresh = fresh
	if err != nil {
		if fresh {
			_ = st.Remove(rec.Bundle.Dir)
		}
		return fmt.Errorf("unpack the bundle into %s: %w", rec.Bundle.Dir, err)
	}
	if err := write(); err != nil {
		if fresh {
			_ = st.Remove(rec.Bundle.Dir)
		}
		return err
	}
	if old != nil {
		res.Removed, err = st.Prune(in.inUse)
	}
	return err
}

// Prune removes the bundle directories no server of any layer uses, under the
// store's lock; nothing when the store does not exist.
func (in *Installer) Prune() ([]string, error) {
	st := in.Store()
	if _, err := in.FS.Lstat(st.Root); fsys.IsNotExist(err) {
		return nil, nil
	}
	release, err := st.Lock()
	if err != nil {
		return nil, err
	}
	defer release()
	return st.Prune(in.inUse)
}

// inUse reports whether any server of any layer uses a bundle directory: its record
// names it (as its bundle or a retired one), or its command, arguments, working
// directory or env values lie inside it.
func (in *Installer) inUse(dir string) bool {
	inside := func(v string) bool {
		return v == dir || strings.HasPrefix(v, dir+string(filepath.Separator)) || strings.HasPrefix(v, dir+"/")
	}
	for i, l := range in.Reg.Layers() {
		for _, n := range l.Servers {
			s, ok := in.Reg.LayerServer(i, n)
			if !ok {
				continue
			}
			if rec, _ := RecordOf(s); rec != nil && (rec.Bundle != nil && rec.Bundle.Dir == dir || slices.Contains(rec.Retired, dir)) {
				return true
			}
			if inside(s.Command) || inside(s.Cwd) || slices.ContainsFunc(s.Args, inside) {
				return true
			}
			for _, v := range s.Env {
				if inside(v) {
					return true
				}
			}
		}
	}
	return false
}
