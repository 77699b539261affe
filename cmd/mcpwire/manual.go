package main

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// printManual prints the steps for a client without a config file mcpwire can write
// (ChatGPT Desktop: Developer Mode connectors). It writes nothing.
func printManual(env *Env, p *providers.Provider, req render.Request) error {
	steps, err := render.ManualSteps(req)
	if err != nil {
		return err
	}
	printf(env.Stdout, "%s has no config file mcpwire can write; add each server by hand:\n", p.Display)
	printf(env.Stdout, "  1. Enable Settings → Connectors → Advanced → Developer mode.\n")
	for _, s := range steps {
		printf(env.Stdout, "  2. Add a connector named %q with command %s and args %s\n", s.Name, s.Command, quoteList(s.Args))
	}
	printf(env.Stdout, "  3. Restart %s.\n", p.Display)
	printf(env.Stdout, "  4. Start a new chat, open the connector/tools menu, and check that the server and its tools are listed.\n")
	return nil
}

func quoteList(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, " ")
}
