package main

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/explain"
	"github.com/urfave/cli/v2"
)

func explainCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "whether a server is live in each client when it starts here, and the rule that decides it",
		ArgsUsage: "SERVER | --client NAME",
		Description: "explain SERVER: for each client with an entry of that name in a file it reads here (or each\n" +
			"--provider given), whether the client starts it when it starts in the directory, and the rule\n" +
			"that decides, with its file and line: which scope's entry wins, switches and disable lists,\n" +
			"trust and approval, the client's managed policy, the command on the PATH the client gets, the\n" +
			"variables the entry references (whether they are set, never their values). Exit 0 when the\n" +
			"server is live in every client asked about, 1 otherwise.\n\n" +
			"explain --client NAME: every server that client will load here, with its source file, and\n" +
			"the entries it reads but does not start, with why.",
		Flags: []cli.Flag{
			listFlag("provider", "only these clients (comma list or repeat)"),
			&cli.StringFlag{Name: "client", Usage: "list every server this client loads here"},
			&cli.StringFlag{Name: "project", Usage: "the directory the clients start in (default: the current directory)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error { return runExplain(env, c) },
	}
}

func runExplain(env *Env, c *cli.Context) error {
	client := c.String("client")
	switch {
	case client != "" && c.NArg() > 0:
		return usagef("explain takes SERVER or --client NAME, not both")
	case client != "" && c.IsSet("provider"):
		return usagef("explain --client NAME takes no --provider")
	case client == "":
		if err := exactArgs(c, 1, "SERVER"); err != nil {
			return err
		}
	}
	dir, err := startDir(env, c)
	if err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	req := explain.Request{Dir: dir, Env: env.pathEnv(dir), Getenv: env.Getenv, CheckSecret: env.checkSecret, Org: serverPolicy{reg}}
	if client != "" {
		p, err := providerList([]string{client}, false)
		if err != nil {
			return err
		}
		return explainClient(env, c, req, p[0])
	}
	name := c.Args().First()
	asked := c.IsSet("provider")
	if asked {
		if req.Providers, err = providerList(list(c, "provider"), false); err != nil {
			return err
		}
	} else {
		for _, p := range providers.All() {
			if !p.Manual() {
				req.Providers = append(req.Providers, p)
			}
		}
	}
	vs := explain.Server(env.FS, req, name, asked)
	doc := struct {
		Server  string            `json:"server"`
		Clients []explain.Verdict `json:"clients"` // E1's elements: its JSON members
	}{Server: name, Clients: nonNil(vs)}
	if err := printReport(env, c, doc, func() { printVerdicts(env, vs) }); err != nil {
		return err
	}
	switch {
	case len(vs) == 0:
		return withHint(fmt.Errorf("no client reads an entry named %s here", termtext.Quote(name)),
			"mcpwire explain --client NAME lists the servers a client loads here")
	case !explain.Live(vs):
		return &exitCodeError{code: exitFailed}
	}
	return nil
}

// serverPolicy is the layers' server policy as explain consults it (G2).
type serverPolicy struct{ r *registry.Registry }

// Judge says whether the policy denies an entry, with its rule and file.
func (p serverPolicy) Judge(name string, s *registry.Server) (bool, providers.Rule) {
	d := p.r.Denied(name, s)
	if d == nil {
		return false, providers.Rule{}
	}
	return true, providers.Rule{Text: "denied by the server policy: " + d.Rule + " in " + d.File, File: d.File}
}

// startDir is the directory the clients start in: --project, else the working
// directory (each client finds its own project from there).
func startDir(env *Env, c *cli.Context) (string, error) {
	p := c.String("project")
	if p == "" {
		return env.Cwd, nil
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(env.Cwd, p)
	}
	p = filepath.Clean(p)
	return p, checkProjectDir(env, p)
}

// printVerdicts prints one line per verdict: client, scope, the rule, and where it is.
func printVerdicts(env *Env, vs []explain.Verdict) {
	rows := make([][]string, 0, len(vs))
	for _, v := range vs {
		scope := string(v.Scope)
		if scope == "" {
			scope = "-"
		}
		rows = append(rows, []string{v.Provider, scope, at(v.File, v.Line), v.Reason})
	}
	table(env.Stdout, "", rows)
}

// at is a file and line as people cite them ("-" for none).
func at(file string, line int) string {
	switch {
	case file == "":
		return "-"
	case line == 0:
		return termtext.Quote(file)
	}
	return termtext.Quote(file) + ":" + strconv.Itoa(line)
}

// explainServer is one server of explain --client's --json (E2).
type explainServer struct {
	Name  string          `json:"name"`
	Scope providers.Scope `json:"scope"`
	Live  bool            `json:"live"`
	// Loaded: the client loads the entry (it wins, nothing turns it off), whether or
	// not it can start it
	Loaded bool   `json:"loaded"`
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int    `json:"line"`
}

// explainClient lists what a client loads where it starts (E2): the servers it
// starts with their source files, then the entries it reads and does not start.
func explainClient(env *Env, c *cli.Context, req explain.Request, p *providers.Provider) error {
	vs := explain.Client(env.FS, req, p)
	doc := struct {
		Provider string          `json:"provider"`
		Dir      string          `json:"dir"`
		Servers  []explainServer `json:"servers"`
	}{Provider: p.Name, Dir: req.Dir, Servers: []explainServer{}}
	for _, v := range vs {
		doc.Servers = append(doc.Servers, explainServer{v.Server, v.Scope, v.Live, v.Loaded, v.Reason, v.Source, v.SourceLine})
	}
	return printReport(env, c, doc, func() {
		var live, not [][]string
		for _, v := range vs {
			name := termtext.Quote(v.Server)
			if v.Server == "" {
				name = "-" // a file the client cannot read
			}
			if v.Live {
				live = append(live, []string{name, string(v.Scope), at(v.Source, v.SourceLine)})
			} else {
				not = append(not, []string{name, string(v.Scope), at(v.Source, v.SourceLine), v.Reason})
			}
		}
		printf(env.Stdout, "%s, started in %s:\n", p.Display, termtext.Quote(req.Dir))
		if len(live) == 0 {
			printf(env.Stdout, "  loads no MCP server\n")
		} else {
			printf(env.Stdout, "  loads:\n")
			table(env.Stdout, "    ", live)
		}
		if len(not) > 0 {
			printf(env.Stdout, "  reads, and does not start:\n")
			table(env.Stdout, "    ", not)
		}
	})
}
