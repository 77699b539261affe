// Package manifest adds registry servers from manifests (SPEC §15): the MCP
// Registry's server.json (every published schema version), a registry listing of them,
// and MCP bundles (.mcpb). It maps a manifest's package or remote into a
// registry.Server — the exact version pinned, the arguments it declares and nothing
// else, secrets as references — unpacks a bundle into an owned, versioned directory
// of the write layer through the fsys seam, and maps a registry server back into a
// server.json (M4). docs/manifests.md has the mapping and what is refused.
package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/registry/manifest/internal/jsonv"
)

// Schema versions of server.json, oldest first (the registry's
// docs/reference/server-json/CHANGELOG.md). Seed is the registry's first seed data
// (data/seed_2025_05_16.json), before any published schema.
const (
	Seed      = "2025-05-16"
	V20250709 = "2025-07-09"
	V20250916 = "2025-09-16"
	V20250929 = "2025-09-29"
	V20251011 = "2025-10-11"
	V20251017 = "2025-10-17"
	V20251211 = "2025-12-11"
	Newest    = V20251211
)

// SchemaVersions are the server.json schema versions mcpwire reads.
var SchemaVersions = []string{V20250709, V20250916, V20250929, V20251011, V20251017, V20251211}

// SchemaURL is the $schema of a schema version.
func SchemaURL(v string) string {
	return "https://static.modelcontextprotocol.io/schemas/" + v + "/server.schema.json"
}

// Document is one server.json, whatever version wrote it, in the names of the current
// schema.
type Document struct {
	// Schema is $schema as written; Format the version it was read as (Seed, or a
	// schema version).
	Schema, Format string
	Name           string
	Title          string
	Description    string
	Version        string
	WebsiteURL     string
	Repository     *Repository
	Packages       []Package
	Remotes        []Transport
	// Status is the registry's status of the entry (active, deprecated, deleted) and
	// Latest whether it is the newest version, when a listing says so.
	Status string
	Latest *bool
}

// Repository is the server's source repository.
type Repository struct {
	URL       string `json:"url"`
	Source    string `json:"source"`
	ID        string `json:"id,omitempty"`
	Subfolder string `json:"subfolder,omitempty"`
}

// Package is one way to install and run the server.
type Package struct {
	RegistryType         string     `json:"registryType"`
	RegistryBaseURL      string     `json:"registryBaseUrl,omitempty"`
	Identifier           string     `json:"identifier"`
	Version              string     `json:"version,omitempty"`
	FileSHA256           string     `json:"fileSha256,omitempty"`
	RuntimeHint          string     `json:"runtimeHint,omitempty"`
	Transport            Transport  `json:"transport"`
	RuntimeArguments     []Argument `json:"runtimeArguments,omitempty"`
	PackageArguments     []Argument `json:"packageArguments,omitempty"`
	EnvironmentVariables []KeyValue `json:"environmentVariables,omitempty"`
}

// Transport is a package's transport or a remote.
type Transport struct {
	Type      string           `json:"type"`
	URL       string           `json:"url,omitempty"`
	Headers   []KeyValue       `json:"headers,omitempty"`
	Variables map[string]Input `json:"variables,omitempty"`
}

// Input is a value the person may give (an argument, a variable, a header, an
// environment variable).
type Input struct {
	Description string   `json:"description,omitempty"`
	IsRequired  bool     `json:"isRequired,omitempty"`
	IsSecret    bool     `json:"isSecret,omitempty"`
	Format      string   `json:"format,omitempty"`
	Value       *string  `json:"value,omitempty"`
	Default     *string  `json:"default,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Choices     []string `json:"choices,omitempty"`
}

// Argument is a runtime or package argument.
type Argument struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	Input
	ValueHint  string           `json:"valueHint,omitempty"`
	IsRepeated bool             `json:"isRepeated,omitempty"`
	Variables  map[string]Input `json:"variables,omitempty"`
}

// KeyValue is an environment variable or a header.
type KeyValue struct {
	Name string `json:"name"`
	Input
	Variables map[string]Input `json:"variables,omitempty"`
}

// SchemaError is a server.json that fails its schema: the field and what is wrong.
type SchemaError struct{ Err error }

func (e *SchemaError) Error() string {
	return "does not follow the server.json schema: " + e.Err.Error()
}
func (e *SchemaError) Unwrap() error { return e.Err }

var (
	schemaURLRE = lazyRE(`/schemas/(?:draft/)?(\d{4}-\d{2}-\d{2})/server(?:\.schema)?\.json$`)
	nameRE      = lazyRE(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)
	sha256RE    = lazyRE(`^[a-f0-9]{64}$`)
)

// Parse reads one server.json.
func Parse(data []byte) (*Document, error) {
	var errs jsonv.Errs
	v, err := jsonv.Parse(data, &errs)
	if err != nil {
		return nil, err
	}
	return decode(v, &errs)
}

// decode reads a server.json value; errs holds its problems.
func decode(v jsonv.Value, errs *jsonv.Errs) (*Document, error) {
	o, ok := v.Object()
	if !ok {
		v.Fail("want a server.json object, got %s", v.Kind().Noun())
		return nil, &SchemaError{errs.Err()}
	}
	d := &Document{Schema: o.Str("$schema")}
	d.Format = formatOf(d.Schema, o)
	d.Name = o.Str("name")
	d.Title = o.Str("title")
	d.Description = o.Str("description")
	d.Version = o.Str("version")
	if vd, ok := o.Obj("version_detail"); ok {
		if d.Version == "" {
			d.Version = vd.Str("version")
		}
		if vd.Has("is_latest") {
			l := vd.Bool("is_latest")
			d.Latest = &l
		}
	}
	d.WebsiteURL = o.Str("websiteUrl", "website_url")
	d.Status = o.Str("status")
	if r, ok := o.Obj("repository"); ok {
		d.Repository = &Repository{URL: r.Str("url"), Source: r.Str("source"), ID: r.Str("id"), Subfolder: r.Str("subfolder")}
	}
	for _, p := range o.Arr("packages") {
		if po, ok := p.Object(); ok {
			d.Packages = append(d.Packages, decodePackage(po))
		} else if p.Kind() == jsonc.Null {
			p.Fail("want an object")
		}
	}
	for _, r := range o.Arr("remotes") {
		if ro, ok := r.Object(); ok {
			d.Remotes = append(d.Remotes, decodeTransport(ro, true))
		} else if r.Kind() == jsonc.Null {
			r.Fail("want an object")
		}
	}
	if m, ok := o.Obj("_meta"); ok {
		readOfficial(m, d)
	}
	if errs.Err() == nil {
		validate(d, o)
	}
	if err := errs.Err(); err != nil {
		return nil, &SchemaError{err}
	}
	return d, nil
}

// formatOf names the version a document was written in: its $schema's date, else
// the seed format (version_detail and registry_name), else the current schema.
func formatOf(schema string, o jsonv.Object) string {
	if m := schemaURLRE().FindStringSubmatch(schema); m != nil {
		return m[1]
	}
	if o.Has("version_detail") && !o.Has("$schema") {
		return Seed
	}
	return Newest
}

// readOfficial reads the registry's own metadata of an entry (status, isLatest) from
// _meta, as the registry API returns it.
func readOfficial(m jsonv.Object, d *Document) {
	off, ok := m.Obj("io.modelcontextprotocol.registry/official")
	if !ok {
		return
	}
	if s := off.Str("status"); s != "" {
		d.Status = s
	}
	if off.Has("isLatest", "is_latest") {
		l := off.Bool("isLatest", "is_latest")
		d.Latest = &l
	}
}

func decodePackage(o jsonv.Object) Package {
	p := Package{
		RegistryType:    o.Str("registryType", "registry_type", "registry_name"),
		RegistryBaseURL: o.Str("registryBaseUrl", "registry_base_url"),
		Identifier:      o.Str("identifier", "name"),
		Version:         o.Str("version"),
		FileSHA256:      o.Str("fileSha256", "file_sha256"),
		RuntimeHint:     o.Str("runtimeHint", "runtime_hint"),
	}
	if t, ok := o.Obj("transport"); ok {
		p.Transport = decodeTransport(t, false)
	} else {
		p.Transport.Type = "stdio" // before 2025-09-16 a package had no transport: stdio
	}
	for _, a := range o.Arr("runtimeArguments", "runtime_arguments") {
		p.RuntimeArguments = append(p.RuntimeArguments, decodeArgument(a))
	}
	for _, a := range o.Arr("packageArguments", "package_arguments") {
		p.PackageArguments = append(p.PackageArguments, decodeArgument(a))
	}
	for _, e := range o.Arr("environmentVariables", "environment_variables") {
		p.EnvironmentVariables = append(p.EnvironmentVariables, decodeKeyValue(e))
	}
	return p
}

func decodeTransport(o jsonv.Object, remote bool) Transport {
	t := Transport{Type: o.Str("type", "transport_type", "transport"), URL: o.Str("url")}
	if remote && t.Type == "streamable" { // 2025-07-09's name of streamable-http
		t.Type = "streamable-http"
	}
	for _, h := range o.Arr("headers") {
		t.Headers = append(t.Headers, decodeKeyValue(h))
	}
	t.Variables = decodeVariables(o)
	return t
}

func decodeInput(o jsonv.Object) Input {
	in := Input{
		Description: o.Str("description"),
		IsRequired:  o.Bool("isRequired", "is_required"),
		Format:      o.Str("format"),
		Value:       o.StrPtr("value"),
		IsSecret:    o.Bool("isSecret", "is_secret"),
		Default:     o.StrPtr("default"),
		Placeholder: o.Str("placeholder"),
		Choices:     o.Strings("choices"),
	}
	return in
}

func decodeVariables(o jsonv.Object) map[string]Input {
	vars, ok := o.Obj("variables")
	if !ok {
		return nil
	}
	out := map[string]Input{}
	for _, k := range vars.Keys() {
		if vo, ok := vars.Obj(k); ok {
			out[k] = decodeInput(vo)
		}
	}
	return out
}

func decodeArgument(v jsonv.Value) Argument {
	o, ok := v.Object()
	if !ok {
		if !v.Present() {
			v.Fail("want an object")
		}
		return Argument{}
	}
	return Argument{
		Type:       o.Str("type"),
		Name:       o.Str("name"),
		Input:      decodeInput(o),
		ValueHint:  o.Str("valueHint", "value_hint"),
		IsRepeated: o.Bool("isRepeated", "is_repeated"),
		Variables:  decodeVariables(o),
	}
}

func decodeKeyValue(v jsonv.Value) KeyValue {
	o, ok := v.Object()
	if !ok {
		if !v.Present() {
			v.Fail("want an object")
		}
		return KeyValue{}
	}
	return KeyValue{Name: o.Str("name"), Input: decodeInput(o), Variables: decodeVariables(o)}
}

// validate checks what every schema version requires of the fields mcpwire reads.
func validate(d *Document, o jsonv.Object) {
	fail := func(field, format string, args ...any) { o.Get(field).Fail(format, args...) }
	switch {
	case d.Name == "":
		fail("name", "missing")
	case !nameRE().MatchString(d.Name) || len(d.Name) > 200:
		fail("name", "not a server name (namespace/name: letters, digits, '.', '-', '_')")
	case d.Version == "":
		if d.Format == Seed {
			o.Get("version_detail").Fail("missing version")
		} else {
			fail("version", "missing")
		}
	}
	for i, p := range d.Packages {
		at := fmt.Sprintf("packages[%d]", i)
		switch {
		case p.RegistryType == "":
			o.Errs().Addf(at+".registryType", "missing")
		case p.Identifier == "":
			o.Errs().Addf(at+".identifier", "missing")
		case p.FileSHA256 != "" && !sha256RE().MatchString(p.FileSHA256):
			o.Errs().Addf(at+".fileSha256", "not a SHA-256 in lower-case hex")
		case !slices.Contains([]string{"stdio", "streamable-http", "sse"}, p.Transport.Type):
			o.Errs().Addf(at+".transport.type", "want stdio, streamable-http or sse")
		case p.Transport.Type != "stdio" && p.Transport.URL == "":
			o.Errs().Addf(at+".transport.url", "missing")
		}
		checkArgs(o, at+".runtimeArguments", p.RuntimeArguments)
		checkArgs(o, at+".packageArguments", p.PackageArguments)
		checkKeyValues(o, at+".environmentVariables", p.EnvironmentVariables)
		checkKeyValues(o, at+".transport.headers", p.Transport.Headers)
	}
	for i, r := range d.Remotes {
		at := fmt.Sprintf("remotes[%d]", i)
		switch {
		case r.Type != "streamable-http" && r.Type != "sse":
			o.Errs().Addf(at+".type", "want streamable-http or sse")
		case r.URL == "":
			o.Errs().Addf(at+".url", "missing")
		}
		checkKeyValues(o, at+".headers", r.Headers)
	}
}

func checkArgs(o jsonv.Object, at string, args []Argument) {
	for i, a := range args {
		p := fmt.Sprintf("%s[%d]", at, i)
		switch a.Type {
		case "positional":
			if a.Value == nil && a.ValueHint == "" {
				o.Errs().Addf(p, "a positional argument needs a value or a valueHint")
			}
		case "named":
			if a.Name == "" {
				o.Errs().Addf(p+".name", "missing")
			}
		default:
			o.Errs().Addf(p+".type", "want positional or named")
		}
	}
}

func checkKeyValues(o jsonv.Object, at string, kvs []KeyValue) {
	for i, kv := range kvs {
		if strings.TrimSpace(kv.Name) == "" {
			o.Errs().Addf(fmt.Sprintf("%s[%d].name", at, i), "missing")
		}
	}
}
