package manifest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/registry"
)

// spec: M4
func TestExportDescribesAServerFromItsFields(t *testing.T) {
	cases := []struct {
		name string
		s    *registry.Server
		want string // the packages or remotes, as JSON
		warn string
	}{
		{"npx", &registry.Server{Name: "fs", Type: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem@2025.8.21", "/data"},
			Env: map[string]string{"LOG": "info", "API_TOKEN": "sk-secret-value"}, PlainEnv: []string{"LOG"}, EnvFrom: map[string]string{"GH": "GITHUB_TOKEN"}},
			`"packages":[{"registryType":"npm","identifier":"@modelcontextprotocol/server-filesystem","version":"2025.8.21","runtimeHint":"npx","transport":{"type":"stdio"},"packageArguments":[{"type":"positional","value":"/data"}],"environmentVariables":[{"name":"API_TOKEN","isRequired":true,"isSecret":true},{"name":"LOG","value":"info"},{"name":"GH","description":"read from the variable GITHUB_TOKEN","isRequired":true,"isSecret":true}]}]`,
			"API_TOKEN written without its value"},
		{"uvx", &registry.Server{Name: "t", Type: "stdio", Command: "uvx", Args: []string{"mcp-server-time==2025.9.25", "--local-timezone=${TZ}"}},
			`"packages":[{"registryType":"pypi","identifier":"mcp-server-time","version":"2025.9.25","runtimeHint":"uvx","transport":{"type":"stdio"},"packageArguments":[{"type":"positional","value":"--local-timezone={TZ}","variables":{"TZ":{"description":"read from the variable TZ","isRequired":true,"isSecret":true}}}]}]`, ""},
		{"docker", &registry.Server{Name: "d", Type: "stdio", Command: "docker", Args: []string{"run", "-i", "--rm", "-e", "TOKEN", "--network", "host", "ghcr.io/acme/tool:1.2"}, EnvFrom: map[string]string{"TOKEN": "TOKEN"}},
			`"packages":[{"registryType":"oci","identifier":"ghcr.io/acme/tool:1.2","version":"1.2","runtimeHint":"docker","transport":{"type":"stdio"},"runtimeArguments":[{"type":"positional","value":"--network"},{"type":"positional","value":"host"}],"environmentVariables":[{"name":"TOKEN","description":"read from the variable TOKEN","isRequired":true,"isSecret":true}]}]`, ""},
		{"dnx", &registry.Server{Name: "n", Type: "stdio", Command: "dnx", Args: []string{"Acme.Tool@1.0.0", "--yes", "--", "mcp"}},
			`"packages":[{"registryType":"nuget","identifier":"Acme.Tool","version":"1.0.0","runtimeHint":"dnx","transport":{"type":"stdio"},"packageArguments":[{"type":"positional","value":"mcp"}]}]`, ""},
		{"remote", &registry.Server{Name: "r", Type: "http", URL: "https://mcp.acme.dev/mcp", BearerEnv: "ACME_TOKEN", Headers: map[string]string{"X-Team": "core"}, PlainHeaders: []string{"X-Team"}},
			`"remotes":[{"type":"streamable-http","url":"https://mcp.acme.dev/mcp","headers":[{"name":"X-Team","value":"core"},{"name":"Authorization","isRequired":true,"isSecret":true,"value":"Bearer {token}","variables":{"token":{"description":"read from the variable ACME_TOKEN","isRequired":true,"isSecret":true}}}]}]`, ""},
	}
	for _, tc := range cases {
		out, warns, err := Export(tc.s, "com.acme")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		b, _ := json.Marshal(out)
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("%s:\n%s\nwant it to hold\n%s", tc.name, b, tc.want)
		}
		if strings.Contains(string(b), "sk-secret-value") {
			t.Errorf("%s: a credential is printed", tc.name)
		}
		if out.Name != "com.acme/"+tc.s.Name {
			t.Errorf("%s: name %s", tc.name, out.Name)
		}
		if tc.warn != "" && !strings.Contains(strings.Join(warns, "\n"), tc.warn) {
			t.Errorf("%s: warnings %v", tc.name, warns)
		}
		if _, err := Parse(b); err != nil {
			t.Errorf("%s: the server.json does not read back: %v", tc.name, err)
		}
	}
	for _, s := range []*registry.Server{
		{Name: "local", Type: "stdio", Command: "/usr/local/bin/my-server"},
		{Name: "latest", Type: "stdio", Command: "npx", Args: []string{"-y", "tool@latest"}},
		{Name: "bare", Type: "stdio", Command: "npx", Args: []string{"-y", "tool"}},
	} {
		if _, _, err := Export(s, "local"); err == nil {
			t.Errorf("%s: described", s.Name)
		}
	}
}

// spec: M4
func TestExportAfterAChange(t *testing.T) {
	d := doc(t, `[{"registryType":"npm","identifier":"tool","version":"1.0.0","packageArguments":[{"type":"named","name":"--mode","value":"fast"}]}]`, "")
	plan, err := Map(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, warns, err := Export(plan.Server, "local")
	if err != nil || len(warns) > 0 || out.Packages[0].PackageArguments[0].Name != "--mode" || out.Name != "io.github.acme/tool" {
		t.Fatalf("%+v %v %v", out, warns, err)
	}
	plan.Server.Args = append(plan.Server.Args, "--verbose")
	out, warns, err = Export(plan.Server, "local")
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0], "was changed since") {
		t.Fatalf("%v %v", warns, err)
	}
	if got := len(out.Packages[0].PackageArguments); got != 3 || out.Name != "io.github.acme/tool" {
		t.Errorf("described from its fields: %+v", out.Packages[0])
	}
}
