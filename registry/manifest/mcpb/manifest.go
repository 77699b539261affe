package mcpb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/registry/manifest/internal/jsonv"
)

// Manifest is a bundle's manifest.json (MANIFEST.md, versions 0.1 to 0.4, and the
// older dxt_version), as far as starting the server needs it.
type Manifest struct {
	// Version is manifest_version (or the deprecated dxt_version).
	ManifestVersion string
	Name            string
	DisplayName     string
	Version         string
	Description     string
	Author          string
	Server          Server
	Compatibility   Compatibility
	// UserConfig are the options a person sets, in the manifest's order.
	UserConfig []Option
}

// Server is how the bundle starts its server.
type Server struct {
	// Type is node, python, binary or uv.
	Type       string
	EntryPoint string
	// Config is mcp_config; nil when the manifest leaves starting the server to the
	// host (a uv server may).
	Config *Config
}

// Config is mcp_config, or one of its platform_overrides.
type Config struct {
	Command string
	// Args and Env; HasArgs and HasEnv tell an override that sets them (to anything,
	// empty included) from one that does not.
	Args    []string
	HasArgs bool
	Env     map[string]string
	HasEnv  bool
	// Overrides are platform_overrides by platform (darwin, win32, linux).
	Overrides map[string]*Config
}

// Compatibility is the manifest's compatibility object.
type Compatibility struct {
	// Platforms are darwin, win32 and linux; empty means every platform.
	Platforms []string
	// Runtimes maps node and python to a version constraint.
	Runtimes map[string]string
	// Clients maps a client application (claude_desktop, …) to a version constraint.
	Clients map[string]string
}

// Option is one user_config entry.
type Option struct {
	Key         string
	Type        string // string, number, boolean, directory, file
	Title       string
	Description string
	Required    bool
	Multiple    bool
	Sensitive   bool
	// Default is the default value as text (booleans "true"/"false", numbers as
	// written, every element of a list); HasDefault tells "" from none.
	Default    []string
	HasDefault bool
	Min, Max   *float64
}

// Types of user_config options, server types and platforms.
var (
	optionTypes = []string{"string", "number", "boolean", "directory", "file"}
	serverTypes = []string{"node", "python", "binary", "uv"}
	// Platforms are the platform names of MANIFEST.md (Node.js process.platform).
	Platforms = []string{"darwin", "win32", "linux"}
)

// ParseManifest decodes and checks a manifest.json. Its errors name the field.
func ParseManifest(data []byte) (*Manifest, error) {
	var errs jsonv.Errs
	root, err := jsonv.Parse(data, &errs)
	if err != nil {
		return nil, err
	}
	o, ok := root.Object()
	if !ok {
		if errs.Err() != nil {
			return nil, errs.Err()
		}
		return nil, fmt.Errorf("want an object")
	}
	m := &Manifest{
		ManifestVersion: o.Str("manifest_version", "dxt_version"),
		Name:            o.Str("name"),
		DisplayName:     o.Str("display_name"),
		Version:         o.Str("version"),
		Description:     o.Str("description"),
	}
	if a, ok := o.Obj("author"); ok {
		m.Author = a.Str("name")
	} else if errs.Err() == nil {
		errs.Addf("author", "missing")
	}
	for _, f := range []struct{ name, v string }{{"manifest_version", m.ManifestVersion}, {"name", m.Name}, {"version", m.Version}} {
		if f.v == "" {
			errs.Addf(f.name, "missing")
		}
	}
	if s, ok := o.Obj("server"); ok {
		m.Server = Server{Type: s.Str("type"), EntryPoint: s.Str("entry_point")}
		if !slices.Contains(serverTypes, m.Server.Type) {
			errs.Addf("server.type", "want one of %s", strings.Join(serverTypes, ", "))
		}
		if c, ok := s.Obj("mcp_config"); ok {
			m.Server.Config = decodeConfig(c, true)
		}
	} else {
		errs.Addf("server", "missing")
	}
	if c, ok := o.Obj("compatibility"); ok {
		m.Compatibility = decodeCompat(c)
	}
	if u, ok := o.Obj("user_config"); ok {
		for _, k := range u.Keys() {
			opt, ok := u.Obj(k)
			if !ok {
				errs.Addf("user_config."+k, "want an object")
				continue
			}
			m.UserConfig = append(m.UserConfig, decodeOption(k, opt))
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

func decodeConfig(c jsonv.Object, top bool) *Config {
	cfg := &Config{Command: c.Str("command"), HasArgs: c.Has("args"), HasEnv: c.Has("env")}
	if top && cfg.Command == "" {
		c.Get("command").Fail("missing")
	}
	cfg.Args = c.Strings("args")
	if e, ok := c.Obj("env"); ok {
		cfg.Env = map[string]string{}
		for _, k := range e.Keys() {
			cfg.Env[k] = e.Str(k)
			if e.Get(k).Kind() == jsonc.Null {
				e.Get(k).Fail("want a string")
			}
		}
	}
	if top {
		if po, ok := c.Obj("platform_overrides"); ok {
			cfg.Overrides = map[string]*Config{}
			for _, p := range po.Keys() {
				if !slices.Contains(Platforms, p) {
					po.Get(p).Fail("unknown platform (want %s)", strings.Join(Platforms, ", "))
					continue
				}
				if oc, ok := po.Obj(p); ok {
					cfg.Overrides[p] = decodeConfig(oc, false)
				}
			}
		}
	}
	return cfg
}

func decodeCompat(c jsonv.Object) Compatibility {
	out := Compatibility{Runtimes: map[string]string{}, Clients: map[string]string{}}
	out.Platforms = c.Strings("platforms")
	for _, p := range out.Platforms {
		if !slices.Contains(Platforms, p) {
			c.Get("platforms").Fail("unknown platform %q (want %s)", p, strings.Join(Platforms, ", "))
		}
	}
	if r, ok := c.Obj("runtimes"); ok {
		for _, k := range r.Keys() {
			out.Runtimes[k] = r.Str(k)
		}
	}
	for _, k := range c.Keys() {
		if k != "platforms" && k != "runtimes" {
			out.Clients[k] = c.Str(k)
		}
	}
	return out
}

func decodeOption(key string, o jsonv.Object) Option {
	opt := Option{
		Key: key, Type: o.Str("type"), Title: o.Str("title"), Description: o.Str("description"),
		Required: o.Bool("required"), Multiple: o.Bool("multiple"), Sensitive: o.Bool("sensitive"),
	}
	if !slices.Contains(optionTypes, opt.Type) {
		o.Get("type").Fail("want one of %s", strings.Join(optionTypes, ", "))
	}
	if d := o.Get("default"); d.Present() {
		opt.HasDefault = true
		if d.Kind() == jsonc.Array {
			for _, e := range d.Array() {
				if s, ok := e.Scalar(); ok {
					opt.Default = append(opt.Default, s)
				} else {
					e.Fail("want a string")
				}
			}
		} else if s, ok := d.Scalar(); ok {
			opt.Default = []string{s}
		} else {
			d.Fail("want a string, a number, a boolean or an array of strings")
		}
	}
	for _, b := range []struct {
		name string
		dst  **float64
	}{{"min", &opt.Min}, {"max", &opt.Max}} {
		if f, ok := o.Get(b.name).Number(); ok {
			*b.dst = &f
		}
	}
	return opt
}

// Option returns the user_config option of a key.
func (m *Manifest) Option(key string) (Option, bool) {
	for _, o := range m.UserConfig {
		if o.Key == key {
			return o, true
		}
	}
	return Option{}, false
}

// Resolved is mcp_config with the platform's override applied (MANIFEST.md: an
// override's command, args and env each replace the base's when it sets them).
func (m *Manifest) Resolved(platform string) (*Config, bool) {
	base := m.Server.Config
	if base == nil {
		return nil, false
	}
	out := &Config{Command: base.Command, Args: slices.Clone(base.Args), HasArgs: base.HasArgs, Env: base.Env, HasEnv: base.HasEnv}
	if o := base.Overrides[platform]; o != nil {
		if o.Command != "" {
			out.Command = o.Command
		}
		if o.HasArgs {
			out.Args = slices.Clone(o.Args)
		}
		if o.HasEnv {
			out.Env = o.Env
		}
	}
	return out, true
}
