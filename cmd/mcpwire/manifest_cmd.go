package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/registry/manifest"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
	"github.com/urfave/cli/v2"
)

// manifestFlags are server add's and server update's flags for --from (M1–M3).
func manifestFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "from", Usage: "add the server a manifest describes: a server.json, a registry listing, or a bundle (.mcpb); a file, - for stdin, or an https address"},
		&cli.StringFlag{Name: "name", Usage: "the listing's server to add: NAME[@VERSION] (io.github.OWNER/NAME; the newest version when none is given)"},
		&cli.StringFlag{Name: "package", Usage: "which of the manifest's packages or remotes: npm, pypi, oci, nuget, mcpb, remote (default: the first whose runtime is on PATH)"},
		argFlag("value", "a value for an input the manifest declares: KEY=VALUE (an argument's valueHint or name, a variable, an env var, a header, a user_config key); repeat for more, one per flag"),
		pairFlag("value-from", "take the manifest's input KEY from the client's variable VAR: KEY=VAR"),
		&cli.StringFlag{Name: "secrets", Value: string(manifest.SecretVariable), Usage: "what the manifest's secrets become: variable (the client's environment) or input (asked for by clients that prompt)"},
		&cli.StringFlag{Name: "sha256", Usage: "the SHA-256 the bundle must have (a digest mismatch is refused)"},
	}
}

// fromFlags lists the flags that only go with --from.
var fromFlags = []string{"name", "package", "value", "value-from", "secrets", "sha256"}

// otherServerFlags are the server flags that do not go with --from: the manifest
// says what they would.
var otherServerFlags = []string{"type", "command", "arg", "env", "env-plain", "env-from", "url", "header", "header-plain", "header-env", "bearer-env", "cwd"}

// checkFromFlags refuses flags given without --from, or against it.
func checkFromFlags(env *Env, c *cli.Context) error {
	if !c.IsSet("from") {
		for _, f := range fromFlags {
			if c.IsSet(f) {
				return usagef("--%s goes with --from", f)
			}
		}
		return nil
	}
	for _, f := range otherServerFlags {
		if c.IsSet(f) {
			return withHint(usagef("--%s and --from cannot be used together: the manifest says how the server starts", f),
				"add it from the manifest, then change it: mcpwire server update NAME --"+f+" …")
		}
	}
	if env.dashdash {
		return usagef("a command after -- and --from cannot be used together: the manifest says how the server starts")
	}
	switch s := c.String("secrets"); manifest.SecretMode(s) {
	case manifest.SecretVariable, manifest.SecretInput:
	default:
		return usagef("--secrets %s: want variable or input", s)
	}
	return pairErr(c, "value-from")
}

// installer wires the manifest package to this process.
func installer(env *Env, reg *registry.Registry) *manifest.Installer {
	return &manifest.Installer{
		Reg: reg, FS: env.FS, Fetch: manifest.HTTPFetcher(&http.Client{}), GOOS: runtime.GOOS,
		RuntimeVersion: runtimeVersion, Limits: mcpb.DefaultLimits,
	}
}

// runtimeVersion asks an installed runtime its version (a bundle's compatibility).
func runtimeVersion(name string) (string, error) {
	progs := []string{name}
	if name == "python" {
		progs = []string{"python3", "python"}
	}
	var last error
	for _, p := range progs {
		path, err := exec.LookPath(p)
		if err != nil {
			last = err
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
		cancel()
		if err != nil {
			last = err
			continue
		}
		return string(out), nil
	}
	return "", last
}

// manifestRequest reads --from and the flags that go with it.
func manifestRequest(env *Env, c *cli.Context) (manifest.Request, error) {
	values := map[string][]string{}
	for _, kv := range argList(c, "value") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return manifest.Request{}, usagef("--value: want KEY=VALUE (the key only: %s)", termtext.Quote(k))
		}
		values[k] = append(values[k], v)
	}
	if err := checkVarFlags(env, c); err != nil {
		return manifest.Request{}, err
	}
	from, _ := pairs(c, "value-from")
	src, err := manifest.ReadSource(c.String("from"), env.Stdin, env.FS, env.Cwd, manifest.HTTPFetcher(&http.Client{}), mcpb.DefaultLimits.ArchiveBytes)
	if err != nil {
		return manifest.Request{}, err
	}
	return manifest.Request{
		Source: src, Select: c.String("name"), SHA256: c.String("sha256"),
		Options: manifest.Options{
			Name: c.Args().First(), Package: c.String("package"), Values: values, From: from,
			Secrets: manifest.SecretMode(c.String("secrets")), LookPath: exec.LookPath,
		},
	}, nil
}

// serverAddFrom is server add [NAME] --from (M1–M3).
func serverAddFrom(env *Env, c *cli.Context) error {
	if c.NArg() > 1 {
		return usagef("%s --from takes at most a NAME; extra arguments: %s", commandPath(c), strings.Join(redactWords(c.Args().Slice()[1:]), " "))
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	req, err := manifestRequest(env, c)
	if err != nil {
		return err
	}
	res, err := installer(env, reg).Add(req)
	if err != nil {
		return err
	}
	printf(env.Stdout, "added server %q to %s\n", res.Server.Name, reg.ServerOrigin(res.Server.Name))
	printManifestResult(env, res)
	return nil
}

// serverUpdateFrom is server update NAME --from: the server becomes the manifest's, in
// one registry write (M3).
func serverUpdateFrom(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	if c.Bool("dry-run") {
		return usagef("--dry-run does not go with --from")
	}
	req, err := manifestRequest(env, c)
	if err != nil {
		return err
	}
	name := c.Args().First()
	res, err := installer(env, reg).Update(name, req)
	if err != nil {
		return err
	}
	printf(env.Stdout, "updated server %q in %s\n", name, reg.ServerOrigin(name))
	printManifestResult(env, res)
	if rec := res.Plan.Record; rec != nil && len(rec.Retired) > 0 {
		printf(env.Stdout, "kept %s: clients written before this update still start it; mcpwire inject writes them again, and the directory goes with the server\n", strings.Join(quoteAll(rec.Retired), ", "))
	}
	return nil
}

// printManifestResult says what was added and from what; secrets by name only.
func printManifestResult(env *Env, res *manifest.Result) {
	s, p := res.Server, res.Plan
	why := ""
	if p.Why != "" {
		why = " (" + p.Why + ")"
	}
	printf(env.Stdout, "  from: %s%s\n", termtext.Line(p.Choice), termtext.Line(why))
	printf(env.Stdout, "  %s: %s\n", map[bool]string{true: "url", false: "runs"}[s.Remote()], serverTarget(s.URL, s.Command, s.Args))
	if rec := p.Record; rec != nil && rec.Bundle != nil {
		state := "unpacked into"
		if !res.Fresh {
			state = "already unpacked in"
		}
		printf(env.Stdout, "  bundle: sha256 %s, %s %s\n", rec.Bundle.SHA256, state, termtext.Quote(rec.Bundle.Dir))
		switch sig := res.Signature; sig.Status {
		case "unsigned":
			printf(env.Stdout, "  signature: none\n")
		case "signed":
			printf(env.Stdout, "  signature: valid, by %q (issued by %q)\n", sig.Publisher, sig.Issuer)
		default:
			printf(env.Stdout, "  signature: valid, by %q\n", sig.Publisher)
			env.warn(fmt.Sprintf("the bundle is signed by %q, whom this system does not vouch for (%s): the signature proves only that the bundle was not changed since", sig.Publisher, sig.Reason))
		}
	}
	for _, n := range p.Notes {
		printf(env.Stdout, "  %s\n", termtext.Line(n))
	}
	for _, d := range res.Removed {
		printf(env.Stdout, "removed bundle directory %s (no server uses it)\n", termtext.Quote(d))
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = termtext.Quote(s)
	}
	return out
}

// showManifest is server show --manifest NAME (M4).
func showManifest(env *Env, c *cli.Context, s *registry.Server) error {
	doc, warns, err := manifest.Export(s, c.String("namespace"))
	if err != nil {
		return err
	}
	for _, w := range warns {
		env.warn(w)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = env.Stdout.Write(append(b, '\n'))
	return err
}

// pruneBundles removes the bundle directories no server uses any more (server remove).
func pruneBundles(env *Env, reg *registry.Registry) error {
	removed, err := installer(env, reg).Prune()
	for _, d := range removed {
		printf(env.Stdout, "removed bundle directory %s (no server uses it)\n", termtext.Quote(d))
	}
	return err
}
