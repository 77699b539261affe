package manifest

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The same server (an npm package with a secret env var and an argument, and an SSE
// remote with a secret header) in each format the registry has published.
var formats = map[string]string{
	Seed: `{"id":"x","name":"io.github.acme/weather","description":"Weather","repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},
		"version_detail":{"version":"1.2.0","release_date":"2025-05-16T18:56:49Z","is_latest":true},
		"packages":[{"registry_name":"npm","name":"@acme/weather","version":"1.2.0",
			"package_arguments":[{"type":"named","name":"--units","value":"metric","is_required":true,"format":"string"}],
			"environment_variables":[{"name":"WEATHER_KEY","description":"API key","is_required":true,"is_secret":true}]}],
		"remotes":[{"transport_type":"sse","url":"https://weather.acme.dev/sse","headers":[{"name":"X-Key","is_required":true,"is_secret":true}]}]}`,
	V20250709 + " (first)": `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json","name":"io.github.acme/weather","description":"Weather",
		"repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},"version_detail":{"version":"1.2.0"},
		"packages":[{"registry_name":"npm","name":"@acme/weather","version":"1.2.0",
			"package_arguments":[{"type":"named","name":"--units","value":"metric","is_required":true}],
			"environment_variables":[{"name":"WEATHER_KEY","description":"API key","is_required":true,"is_secret":true}]}],
		"remotes":[{"transport_type":"sse","url":"https://weather.acme.dev/sse","headers":[{"name":"X-Key","is_required":true,"is_secret":true}]}]}`,
	V20250709: `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json","name":"io.github.acme/weather","description":"Weather","status":"active",
		"repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},"version":"1.2.0",
		"packages":[{"registry_type":"npm","registry_base_url":"https://registry.npmjs.org","identifier":"@acme/weather","version":"1.2.0","transport":{"type":"stdio"},
			"package_arguments":[{"type":"named","name":"--units","value":"metric","is_required":true}],
			"environment_variables":[{"name":"WEATHER_KEY","description":"API key","is_required":true,"is_secret":true}]}],
		"remotes":[{"type":"sse","url":"https://weather.acme.dev/sse","headers":[{"name":"X-Key","is_required":true,"is_secret":true}]}]}`,
	V20250916: `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-09-16/server.schema.json","name":"io.github.acme/weather","description":"Weather","status":"active",
		"repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},"version":"1.2.0",
		"packages":[{"registryType":"npm","registryBaseUrl":"https://registry.npmjs.org","identifier":"@acme/weather","version":"1.2.0","transport":{"type":"stdio"},
			"packageArguments":[{"type":"named","name":"--units","value":"metric","isRequired":true}],
			"environmentVariables":[{"name":"WEATHER_KEY","description":"API key","isRequired":true,"isSecret":true}]}],
		"remotes":[{"type":"sse","url":"https://weather.acme.dev/sse","headers":[{"name":"X-Key","isRequired":true,"isSecret":true}]}]}`,
	V20250929: `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json","name":"io.github.acme/weather","description":"Weather",
		"repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},"version":"1.2.0",
		"packages":[{"registryType":"npm","identifier":"@acme/weather","version":"1.2.0","transport":{"type":"stdio"},
			"packageArguments":[{"type":"named","name":"--units","value":"metric","isRequired":true}],
			"environmentVariables":[{"name":"WEATHER_KEY","description":"API key","isRequired":true,"isSecret":true}]}],
		"remotes":[{"type":"sse","url":"https://weather.acme.dev/sse","headers":[{"name":"X-Key","isRequired":true,"isSecret":true}]}]}`,
	V20251011: `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-10-11/server.schema.json","name":"io.github.acme/weather","description":"Weather",
		"repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},"version":"1.2.0",
		"packages":[{"registryType":"npm","identifier":"@acme/weather","version":"1.2.0","transport":{"type":"stdio"},
			"packageArguments":[{"type":"named","name":"--units","value":"metric","isRequired":true}],
			"environmentVariables":[{"name":"WEATHER_KEY","description":"API key","isRequired":true,"isSecret":true}]}],
		"remotes":[{"type":"sse","url":"https://weather.acme.dev/sse","headers":[{"name":"X-Key","isRequired":true,"isSecret":true}]}]}`,
	V20251017: `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json","name":"io.github.acme/weather","description":"Weather",
		"repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},"version":"1.2.0",
		"packages":[{"registryType":"npm","identifier":"@acme/weather","version":"1.2.0","transport":{"type":"stdio"},
			"packageArguments":[{"type":"named","name":"--units","value":"metric","isRequired":true}],
			"environmentVariables":[{"name":"WEATHER_KEY","description":"API key","isRequired":true,"isSecret":true}]}],
		"remotes":[{"type":"sse","url":"https://weather.acme.dev/sse","headers":[{"name":"X-Key","isRequired":true,"isSecret":true}]}]}`,
	V20251211: `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json","name":"io.github.acme/weather","description":"Weather",
		"repository":{"url":"https://github.com/acme/weather","source":"github","id":"1"},"version":"1.2.0",
		"packages":[{"registryType":"npm","identifier":"@acme/weather","version":"1.2.0","transport":{"type":"stdio"},
			"packageArguments":[{"type":"named","name":"--units","value":"metric","isRequired":true}],
			"environmentVariables":[{"name":"WEATHER_KEY","description":"API key","isRequired":true,"isSecret":true}]}],
		"remotes":[{"type":"sse","url":"https://{host}/sse","variables":{"host":{"default":"weather.acme.dev","isRequired":true}},"headers":[{"name":"X-Key","isRequired":true,"isSecret":true}]}]}`,
}

// spec: M1
func TestEverySchemaVersionReadsTheSame(t *testing.T) {
	var want *Plan
	for _, name := range append([]string{V20251211}, sortedKeys(formats)...) {
		doc, err := Parse([]byte(formats[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f := strings.Fields(name)[0]; doc.Format != f {
			t.Errorf("%s: read as %s", name, doc.Format)
		}
		for _, pkg := range []string{"npm", "remote"} {
			plan, err := Map(doc, Options{Package: pkg})
			if err != nil {
				t.Fatalf("%s, %s: %v", name, pkg, err)
			}
			got := plan.Server
			got.Extra = nil
			if pkg == "npm" && (got.Command != "npx" || strings.Join(got.Args, " ") != "-y @acme/weather@1.2.0 --units metric" || got.EnvFrom["WEATHER_KEY"] != "WEATHER_KEY") {
				t.Errorf("%s: %+v", name, got)
			}
			if pkg == "remote" && (got.Type != "sse" || got.URL != "https://weather.acme.dev/sse" || got.HeaderEnv["X-Key"] != "WEATHER_X_KEY") {
				t.Errorf("%s: %+v", name, got)
			}
			if pkg == "npm" && want == nil {
				want = plan
			}
			if pkg == "npm" && !reflect.DeepEqual(want.Server, got) {
				t.Errorf("%s maps to\n%+v\nnot\n%+v", name, got, want.Server)
			}
		}
	}
}

// spec: M1
func TestSchemaFailuresNameTheField(t *testing.T) {
	ok := `"name":"io.github.a/b","description":"d","version":"1.0.0"`
	cases := map[string]struct{ doc, field string }{
		"not an object":           {`[1]`, "want an object, got an array"},
		"no name":                 {`{"description":"d","version":"1"}`, "name: missing"},
		"bad name":                {`{"name":"no slash","description":"d","version":"1"}`, "name: not a server name"},
		"no version":              {`{"name":"a/b","description":"d"}`, "version: missing"},
		"name a number":           {`{"name":1,"description":"d","version":"1"}`, "name: want a string, got a number"},
		"packages not an array":   {`{` + ok + `,"packages":{}}`, "packages: want an array"},
		"no registryType":         {`{` + ok + `,"packages":[{"identifier":"x","version":"1"}]}`, "packages[0].registryType: missing"},
		"no identifier":           {`{` + ok + `,"packages":[{"registryType":"npm","version":"1"}]}`, "packages[0].identifier: missing"},
		"bad sha":                 {`{` + ok + `,"packages":[{"registryType":"mcpb","identifier":"https://x/y.mcpb","fileSha256":"XYZ"}]}`, "packages[0].fileSha256"},
		"bad transport":           {`{` + ok + `,"packages":[{"registryType":"npm","identifier":"x","version":"1","transport":{"type":"ws"}}]}`, "packages[0].transport.type"},
		"http without url":        {`{` + ok + `,"packages":[{"registryType":"npm","identifier":"x","version":"1","transport":{"type":"sse"}}]}`, "packages[0].transport.url: missing"},
		"named without name":      {`{` + ok + `,"packages":[{"registryType":"npm","identifier":"x","version":"1","packageArguments":[{"type":"named"}]}]}`, "packageArguments[0].name: missing"},
		"positional without both": {`{` + ok + `,"packages":[{"registryType":"npm","identifier":"x","version":"1","packageArguments":[{"type":"positional"}]}]}`, "needs a value or a valueHint"},
		"argument type":           {`{` + ok + `,"packages":[{"registryType":"npm","identifier":"x","version":"1","runtimeArguments":[{"type":"flag"}]}]}`, "runtimeArguments[0].type"},
		"isSecret a string":       {`{` + ok + `,"packages":[{"registryType":"npm","identifier":"x","version":"1","environmentVariables":[{"name":"K","isSecret":"yes"}]}]}`, "environmentVariables[0].isSecret: want a boolean"},
		"env without name":        {`{` + ok + `,"packages":[{"registryType":"npm","identifier":"x","version":"1","environmentVariables":[{"value":"v"}]}]}`, "environmentVariables[0].name: missing"},
		"remote type":             {`{` + ok + `,"remotes":[{"type":"stdio","url":"https://x"}]}`, "remotes[0].type"},
		"remote without url":      {`{` + ok + `,"remotes":[{"type":"sse"}]}`, "remotes[0].url: missing"},
		"duplicate member":        {`{` + ok + `,"name":"a/c"}`, "name: given twice"},
		"not json":                {`{"name":`, "not valid JSON"},
	}
	for name, tc := range cases {
		_, err := Parse([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: err = %v, want it to name %q", name, err, tc.field)
		}
		if tc.field != "not valid JSON" {
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Errorf("%s: %T is no *SchemaError", name, err)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, d := range formats {
		f.Add([]byte(d))
	}
	f.Add([]byte(`{"servers":[{"server":{"name":"a/b","description":"d","version":"1"},"_meta":{}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if IsListing(data) {
			l, err := ParseListing(data)
			if err == nil {
				_, _ = l.Select("", "")
			}
			return
		}
		doc, err := Parse(data)
		if err != nil {
			return
		}
		if doc.Name == "" || doc.Version == "" {
			t.Fatalf("a document without name or version: %+v", doc)
		}
		plan, err := Map(doc, Options{LookPath: func(string) (string, error) { return "/x", nil }})
		if err != nil {
			return
		}
		s := plan.Server
		if s.Type == "stdio" {
			for _, a := range s.Args {
				if strings.HasSuffix(a, "@latest") || strings.HasSuffix(a, ":latest") {
					t.Fatalf("an unpinned spec: %q", s.Args)
				}
			}
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("an invalid server: %v", err)
		}
	})
}
