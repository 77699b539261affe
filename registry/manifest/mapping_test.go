package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/registry"
)

// doc builds a current server.json around packages and remotes (JSON arrays).
func doc(t *testing.T, packages, remotes string) *Document {
	t.Helper()
	body := `{"$schema":"` + SchemaURL(Newest) + `","name":"io.github.acme/tool","description":"Tool","version":"2.0.0"`
	if packages != "" {
		body += `,"packages":` + packages
	}
	if remotes != "" {
		body += `,"remotes":` + remotes
	}
	d, err := Parse([]byte(body + "}"))
	if err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	return d
}

func onPath(progs ...string) func(string) (string, error) {
	return func(p string) (string, error) {
		if slices.Contains(progs, p) {
			return "/usr/bin/" + p, nil
		}
		return "", errors.New("not found")
	}
}

func argv(s *registry.Server) string {
	return strings.Join(append([]string{s.Command}, s.Args...), " ")
}

// spec: M1
func TestPackagesPinnedByRegistryType(t *testing.T) {
	cases := []struct {
		name, pkg, want string
	}{
		{"npm", `{"registryType":"npm","identifier":"@acme/tool","version":"2.0.0","transport":{"type":"stdio"}}`, "npx -y @acme/tool@2.0.0"},
		{"npm bunx", `{"registryType":"npm","identifier":"tool","version":"2.0.0","runtimeHint":"bunx","transport":{"type":"stdio"}}`, "bunx tool@2.0.0"},
		{"pypi", `{"registryType":"pypi","identifier":"acme-tool","version":"2.0.0","runtimeHint":"uvx","transport":{"type":"stdio"}}`, "uvx acme-tool==2.0.0"},
		{"pypi with a python hint", `{"registryType":"pypi","identifier":"acme-tool","version":"2.0.0","runtimeHint":"python","transport":{"type":"stdio"}}`, "uvx acme-tool==2.0.0"},
		{"oci tag in identifier", `{"registryType":"oci","identifier":"docker.io/acme/tool:2.0.0","transport":{"type":"stdio"}}`, "docker run -i --rm docker.io/acme/tool:2.0.0"},
		{"oci version", `{"registryType":"oci","identifier":"acme/tool","version":"2.0.0","transport":{"type":"stdio"}}`, "docker run -i --rm acme/tool:2.0.0"},
		{"oci digest", `{"registryType":"oci","identifier":"ghcr.io/acme/tool@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","transport":{"type":"stdio"}}`, "docker run -i --rm ghcr.io/acme/tool@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		{"oci podman", `{"registryType":"oci","identifier":"acme/tool:2","runtimeHint":"podman","transport":{"type":"stdio"}}`, "podman run -i --rm acme/tool:2"},
		{"oci registry", `{"registryType":"oci","registryBaseUrl":"https://ghcr.io","identifier":"acme/tool:2","transport":{"type":"stdio"}}`, "docker run -i --rm ghcr.io/acme/tool:2"},
		{"docker (an old name)", `{"registryType":"docker","identifier":"acme/tool","version":"2.0.0","transport":{"type":"stdio"}}`, "docker run -i --rm acme/tool:2.0.0"},
		{"nuget", `{"registryType":"nuget","identifier":"Acme.Tool","version":"2.0.0-beta","runtimeHint":"dnx","transport":{"type":"stdio"}}`, "dnx Acme.Tool@2.0.0-beta --yes"},
		{"nuget arguments", `{"registryType":"nuget","identifier":"Acme.Tool","version":"2.0.0","packageArguments":[{"type":"positional","value":"mcp"},{"type":"positional","value":"start"}]}`, "dnx Acme.Tool@2.0.0 --yes -- mcp start"},
	}
	for _, tc := range cases {
		plan, err := Map(doc(t, "["+tc.pkg+"]", ""), Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := argv(plan.Server); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// spec: M1
func TestNoArgumentInventedOrDoubled(t *testing.T) {
	// VS Code appends package@version and --yes whatever the arguments already hold
	// (microsoft/vscode#282860); the arguments a manifest gives are never doubled
	cases := []struct {
		name, pkg, want string
	}{
		{"npx -y in runtimeArguments", `{"registryType":"npm","identifier":"tool","version":"1.0.0","runtimeHint":"npx","runtimeArguments":[{"type":"positional","value":"-y"}]}`, "npx -y tool@1.0.0"},
		{"npx --yes in runtimeArguments", `{"registryType":"npm","identifier":"tool","version":"1.0.0","runtimeHint":"npx","runtimeArguments":[{"type":"named","name":"--yes","isRequired":true}]}`, "npx --yes tool@1.0.0"},
		{"npx --package names it", `{"registryType":"npm","identifier":"tool","version":"1.0.0","runtimeHint":"npx","runtimeArguments":[{"type":"named","name":"--package","value":"tool@1.0.0"}],"packageArguments":[{"type":"positional","value":"tool-cli"}]}`, "npx -y --package tool@1.0.0 tool-cli"},
		{"uvx --from", `{"registryType":"pypi","identifier":"acme","version":"1.0","runtimeHint":"uvx","runtimeArguments":[{"type":"named","name":"--from","value":"acme==1.0"}],"packageArguments":[{"type":"positional","value":"acme-server"}]}`, "uvx --from acme==1.0 acme-server"},
		{"dnx --yes given", `{"registryType":"nuget","identifier":"Acme","version":"1.0.0","runtimeHint":"dnx","runtimeArguments":[{"type":"positional","value":"--yes"}]}`, "dnx --yes Acme@1.0.0"},
		{"dnx -- given", `{"registryType":"nuget","identifier":"Acme","version":"1.0.0","packageArguments":[{"type":"positional","value":"--"},{"type":"positional","value":"start"}]}`, "dnx Acme@1.0.0 --yes -- start"},
		{"docker run -i --rm given", `{"registryType":"oci","identifier":"acme/tool:1","runtimeHint":"docker","runtimeArguments":[{"type":"positional","value":"run"},{"type":"positional","value":"-i"},{"type":"positional","value":"--rm"},{"type":"named","name":"--network","value":"host"}]}`, "docker run -i --rm --network host acme/tool:1"},
		{"docker image in runtimeArguments", `{"registryType":"oci","identifier":"acme/tool:1","runtimeHint":"docker","runtimeArguments":[{"type":"positional","value":"acme/tool:1"}],"packageArguments":[{"type":"positional","value":"serve"}]}`, "docker run -i --rm acme/tool:1 serve"},
		{"docker env passed once", `{"registryType":"oci","identifier":"acme/tool:1","runtimeArguments":[{"type":"named","name":"-e","value":"TOKEN"}],"environmentVariables":[{"name":"TOKEN","isSecret":true,"isRequired":true},{"name":"MODE","value":"fast"}]}`, "docker run -i --rm -e TOKEN -e MODE acme/tool:1"},
		{"seed switch value equal to its name", `{"registryType":"npm","identifier":"tool","version":"1.0.0","packageArguments":[{"type":"named","name":"--stdio","value":"--stdio"}]}`, "npx -y tool@1.0.0 --stdio"},
		{"required switch", `{"registryType":"npm","identifier":"tool","version":"1.0.0","packageArguments":[{"type":"named","name":"--read-only","isRequired":true},{"type":"named","name":"--verbose"}]}`, "npx -y tool@1.0.0 --read-only"},
		{"defaults and fixed values", `{"registryType":"npm","identifier":"tool","version":"1.0.0","packageArguments":[{"type":"named","name":"--host","default":"localhost","isRequired":true},{"type":"named","name":"--port","format":"number"},{"type":"positional","valueHint":"dir","default":"/data","isRequired":true,"isRepeated":true},{"type":"positional","value":"--mode={mode}","variables":{"mode":{"default":"ro"}}}]}`, "npx -y tool@1.0.0 --host localhost /data --mode=ro"},
	}
	for _, tc := range cases {
		plan, err := Map(doc(t, "["+tc.pkg+"]", ""), Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := argv(plan.Server); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// spec: M1
func TestUnpinnedRefused(t *testing.T) {
	for _, pkg := range []string{
		`{"registryType":"npm","identifier":"tool","version":"latest"}`,
		`{"registryType":"npm","identifier":"tool","version":"^1.2.0"}`,
		`{"registryType":"npm","identifier":"tool","version":"1.x"}`,
		`{"registryType":"npm","identifier":"tool"}`,
		`{"registryType":"pypi","identifier":"tool","version":">=1.0"}`,
		`{"registryType":"nuget","identifier":"Tool","version":"1.*"}`,
		`{"registryType":"oci","identifier":"acme/tool"}`,
		`{"registryType":"oci","identifier":"acme/tool:latest"}`,
		`{"registryType":"oci","identifier":"acme/tool","version":"latest"}`,
		`{"registryType":"pypi","identifier":"acme","version":"1.0","runtimeArguments":[{"type":"named","name":"--from","value":"acme"}]}`,
	} {
		_, err := Map(doc(t, "["+pkg+"]", ""), Options{})
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != ReasonUnpinned {
			t.Errorf("%s: err = %v, want %q", pkg, err, ReasonUnpinned)
		}
	}
}

// spec: M1
func TestSecretsBecomeReferences(t *testing.T) {
	pkg := `[{"registryType":"npm","identifier":"tool","version":"1.0.0","environmentVariables":[
		{"name":"API_KEY","isSecret":true,"isRequired":true,"description":"the key"},
		{"name":"OPTIONAL_TOKEN","isSecret":true},
		{"name":"REGION","default":"eu","isRequired":true},
		{"name":"LOG_LEVEL","default":"info"},
		{"name":"SESSION_NAME","value":"mcp"}],
		"packageArguments":[{"type":"named","name":"--token","isSecret":true,"isRequired":true}]}]`
	remote := `[{"type":"streamable-http","url":"https://mcp.acme.dev/mcp","headers":[
		{"name":"Authorization","value":"Bearer {token}","variables":{"token":{"isSecret":true,"isRequired":true}}},
		{"name":"X-Api-Key","isSecret":true,"isRequired":true},
		{"name":"X-Team","value":"core"}]}]`
	plan, err := Map(doc(t, pkg, remote), Options{Package: "npm"})
	if err != nil {
		t.Fatal(err)
	}
	s := plan.Server
	if s.EnvFrom["API_KEY"] != "API_KEY" || len(s.EnvFrom) != 1 {
		t.Errorf("envFrom %v", s.EnvFrom)
	}
	if s.Env["REGION"] != "eu" || s.Env["SESSION_NAME"] != "mcp" || !slices.Equal(s.PlainEnv, []string{"REGION"}) {
		t.Errorf("env %v plain %v (SESSION_NAME marks a credential: not plain)", s.Env, s.PlainEnv)
	}
	if _, ok := s.Env["LOG_LEVEL"]; ok {
		t.Errorf("an optional value with a default was written: %v", s.Env)
	}
	if got := strings.Join(s.Args, " "); got != "-y tool@1.0.0 --token ${TOOL_TOKEN}" {
		t.Errorf("args %s", got)
	}
	plan, err = Map(doc(t, pkg, remote), Options{Package: "remote"})
	if err != nil {
		t.Fatal(err)
	}
	s = plan.Server
	if s.BearerEnv != "TOOL_TOKEN" || s.HeaderEnv["X-Api-Key"] != "TOOL_X_API_KEY" || s.Headers["X-Team"] != "core" || !slices.Equal(s.PlainHeaders, []string{"X-Team"}) {
		t.Errorf("remote: %+v", s)
	}
	// inputs (T3)
	plan, err = Map(doc(t, pkg, remote), Options{Package: "remote", Secrets: SecretInput})
	if err != nil {
		t.Fatal(err)
	}
	s = plan.Server
	if s.BearerInput != "tool-token" || s.HeaderInput["X-Api-Key"] != "tool-x-api-key" || len(s.Inputs) != 2 || !s.Inputs[0].Password {
		t.Errorf("inputs: %+v", s)
	}
	// --value-from names the variable
	plan, err = Map(doc(t, pkg, remote), Options{Package: "npm", From: map[string]string{"API_KEY": "ACME_KEY", "--token": "ACME_TOKEN"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := plan.Server; s.EnvFrom["API_KEY"] != "ACME_KEY" || !slices.Contains(s.Args, "${ACME_TOKEN}") {
		t.Errorf("--value-from: %+v", s)
	}
	// a secret is never taken as a value
	_, err = Map(doc(t, pkg, remote), Options{Package: "npm", Values: map[string][]string{"API_KEY": {"sk-123"}}})
	if err == nil || strings.Contains(err.Error(), "sk-123") || !strings.Contains(err.Error(), "--value-from API_KEY=VAR") {
		t.Errorf("a secret as --value: %v", err)
	}
}

// spec: M1
func TestRequiredValuesMissingAreNamed(t *testing.T) {
	pkg := `[{"registryType":"npm","identifier":"tool","version":"1.0.0",
		"packageArguments":[{"type":"positional","valueHint":"target_dir","isRequired":true,"isRepeated":true},{"type":"named","name":"--mode","isRequired":true,"choices":["a","b"]}],
		"environmentVariables":[{"name":"DB_USER","isRequired":true}]}]`
	_, err := Map(doc(t, pkg, ""), Options{})
	var r *Refusal
	if !errors.As(err, &r) || r.Reason != ReasonMissing || r.Msg != "required values missing: target_dir, --mode, DB_USER" {
		t.Fatalf("err = %v", err)
	}
	if h := strings.Join(r.Hints(), " "); !strings.Contains(h, "--value target_dir=VALUE --value --mode=VALUE --value DB_USER=VALUE") {
		t.Errorf("hints: %s", h)
	}
	plan, err := Map(doc(t, pkg, ""), Options{Values: map[string][]string{"target_dir": {"/a", "/b"}, "mode": {"b"}, "DB_USER": {"me"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(plan.Server.Args, " "); got != "-y tool@1.0.0 /a /b --mode b" || plan.Server.Env["DB_USER"] != "me" {
		t.Errorf("%s %v", got, plan.Server.Env)
	}
	for name, vals := range map[string]map[string][]string{
		"not a choice": {"target_dir": {"/a"}, "mode": {"c"}, "DB_USER": {"me"}},
		"unknown key":  {"target_dir": {"/a"}, "mode": {"a"}, "DB_USER": {"me"}, "nope": {"x"}},
		"not repeated": {"target_dir": {"/a"}, "mode": {"a", "b"}, "DB_USER": {"me"}},
	} {
		if _, err := Map(doc(t, pkg, ""), Options{Values: vals}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// spec: M1
func TestRemoteURLVariables(t *testing.T) {
	remote := `[{"type":"streamable-http","url":"https://{tenant}.acme.dev/{region}/mcp","variables":{"tenant":{"isRequired":true},"region":{"default":"eu"}}}]`
	if _, err := Map(doc(t, "", remote), Options{}); err == nil || !strings.Contains(err.Error(), "tenant") {
		t.Fatalf("err = %v", err)
	}
	plan, err := Map(doc(t, "", remote), Options{Values: map[string][]string{"tenant": {"blue"}}})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Server.URL != "https://blue.acme.dev/eu/mcp" || plan.Server.Type != registry.HTTP {
		t.Errorf("%+v", plan.Server)
	}
	secret := `[{"type":"sse","url":"https://x.dev/{key}","variables":{"key":{"isSecret":true,"isRequired":true}}}]`
	var r *Refusal
	if _, err := Map(doc(t, "", secret), Options{}); !errors.As(err, &r) || r.Reason != ReasonURL {
		t.Errorf("a secret in the url: %v", err)
	}
}

// spec: M1
func TestChoosingAPackage(t *testing.T) {
	pkgs := `[{"registryType":"npm","identifier":"tool","version":"1.0.0"},{"registryType":"oci","identifier":"acme/tool:1.0.0"},{"registryType":"pypi","identifier":"tool","version":"1.0.0"}]`
	remote := `[{"type":"sse","url":"https://x.dev/sse"}]`
	cases := []struct {
		opt        Options
		want, why  string
		wantRefuse bool
	}{
		{Options{LookPath: onPath("npx", "docker", "uvx")}, "npx", "npx is on PATH", false},
		{Options{LookPath: onPath("docker", "uvx")}, "docker", "docker is on PATH", false},
		{Options{LookPath: onPath("uvx")}, "uvx", "uvx is on PATH", false},
		{Options{LookPath: onPath()}, "", "a remote needs none", false},
		{Options{LookPath: onPath("npx"), Package: "pypi"}, "uvx", "--package pypi", false},
		{Options{Package: "nuget"}, "", "", true},
	}
	for _, tc := range cases {
		plan, err := Map(doc(t, pkgs, remote), tc.opt)
		if tc.wantRefuse {
			if err == nil || !strings.Contains(fmt.Sprint(err.(*Refusal).Hints()), "npm package tool") {
				t.Errorf("%+v: err = %v", tc.opt, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.opt, err)
			continue
		}
		if plan.Server.Command != tc.want || !strings.Contains(plan.Why, tc.why) {
			t.Errorf("%+v: %s (%s)", tc.opt, plan.Server.Command, plan.Why)
		}
	}
	// nothing on PATH and no remote: the first package, said
	plan, err := Map(doc(t, pkgs, ""), Options{LookPath: onPath()})
	if err != nil || plan.Server.Command != "npx" || !strings.Contains(plan.Why, "not either") {
		t.Errorf("%v %+v", err, plan)
	}
	// a package mcpwire cannot install is passed over
	plan, err = Map(doc(t, `[{"registryType":"cargo","identifier":"tool","version":"1"},{"registryType":"npm","identifier":"tool","version":"1.0.0"}]`, ""), Options{})
	if err != nil || plan.Server.Command != "npx" {
		t.Errorf("%v %+v", err, plan)
	}
}

// spec: M1
func TestRefusalsNameTheirReason(t *testing.T) {
	cases := map[string]struct{ pkg, reason string }{
		"cargo":            {`{"registryType":"cargo","identifier":"tool","version":"1"}`, ReasonType},
		"http package":     {`{"registryType":"npm","identifier":"tool","version":"1.0.0","transport":{"type":"streamable-http","url":"http://localhost:3000/mcp"}}`, ReasonTransport},
		"private registry": {`{"registryType":"npm","registryBaseUrl":"https://npm.acme.internal","identifier":"tool","version":"1.0.0"}`, ReasonBaseURL},
		"other runtime":    {`{"registryType":"npm","identifier":"tool","version":"1.0.0","runtimeHint":"node","runtimeArguments":[{"type":"positional","value":"--inspect"}]}`, ReasonRuntime},
		"docker flags":     {`{"registryType":"docker","identifier":"acme/tool","version":"1.0.0","packageArguments":[{"type":"named","name":"-i","value":"-i"},{"type":"positional","value":"acme/tool"}]}`, ReasonDockerFlags},
		"spaced flag":      {`{"registryType":"pypi","identifier":"tool","version":"1.0","packageArguments":[{"type":"named","name":"--directory /path/to/x","value":"--directory /path/to/x"}]}`, ReasonMalformed},
		"not an image":     {`{"registryType":"oci","identifier":"@acme/tool","version":"1.0.0"}`, ReasonMalformed},
		"placeholder":      {`{"registryType":"npm","identifier":"tool","version":"1.0.0","packageArguments":[{"type":"positional","value":"<YOUR_KEY>","isRequired":true}]}`, ReasonPlaceholder},
		"example password": {`{"registryType":"npm","identifier":"tool","version":"1.0.0","packageArguments":[{"type":"positional","value":"mongodb://me:pass@localhost/db","isRequired":true}]}`, ReasonPlaceholder},
		"mcpb no digest":   {`{"registryType":"mcpb","identifier":"https://x.dev/t.mcpb"}`, ReasonNoDigest},
		"mcpb offline":     {`{"registryType":"mcpb","identifier":"https://x.dev/t.mcpb","fileSha256":"` + strings.Repeat("ab", 32) + `"}`, ReasonOffline},
	}
	for name, tc := range cases {
		_, err := Map(doc(t, "["+tc.pkg+"]", ""), Options{})
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != tc.reason {
			t.Errorf("%s: err = %v, want %q", name, err, tc.reason)
		}
	}
	if _, err := Map(doc(t, "", ""), Options{}); err == nil || err.(*Refusal).Reason != ReasonNothing {
		t.Errorf("nothing: %v", err)
	}
}

func TestServerAndVariableNames(t *testing.T) {
	for in, want := range map[string]string{"io.github.acme/weather": "weather", "com.x/My Tool.v2": "My-Tool-v2", "a/" + strings.Repeat("x", 80): strings.Repeat("x", 64), "a/...": "server"} {
		if got := ServerName(in); got != want {
			t.Errorf("ServerName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[[2]string]string{{"github", "Authorization"}: "GITHUB_AUTHORIZATION", {"my-srv", "x-api-key"}: "MY_SRV_X_API_KEY", {"1pass", "token"}: "MCP_1PASS_TOKEN"} {
		if got := VariableName(in[0], in[1]); got != want {
			t.Errorf("VariableName(%q) = %q, want %q", in, got, want)
		}
	}
}
