package main

import (
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/policy/redact"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// printManual prints the steps for a client without a config file mcpwire can write
// (ChatGPT Desktop: Developer Mode connectors). It writes nothing.
func printManual(env *Env, p *providers.Provider, req write.Request) error {
	steps, err := write.ManualSteps(req)
	if err != nil {
		return err
	}
	printf(env.Stdout, "%s has no config file mcpwire can write; add each server by hand:\n", p.Display)
	printf(env.Stdout, "  1. Enable Settings → Connectors → Advanced → Developer mode.\n")
	redacted := false
	for _, s := range steps {
		// credentials are never printed (R8): the person types them from their own store
		cmd, shown := redact.Launch(s.Command, s.Args)
		redacted = redacted || cmd != s.Command || !slices.Equal(shown, s.Args)
		args := "no args"
		if len(shown) > 0 {
			args = "args " + quoteList(shown)
		}
		printf(env.Stdout, "  2. Add a connector named %q with command %s and %s\n", s.Name, quoteList([]string{cmd}), args)
	}
	if redacted {
		printf(env.Stdout, "     Where a step shows REDACTED, type the real value from your own secret store: mcpwire does not print credentials.\n")
	}
	printf(env.Stdout, "  3. Restart %s.\n", p.Display)
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.Name
	}
	printf(env.Stdout, "  4. Verify: start a new chat, open the connector/tools menu, and confirm %s and %s tools are available.\n",
		strings.Join(names, ", "), map[bool]string{true: "its", false: "their"}[len(names) == 1])
	return nil
}

// quoteList spells arguments as a person types them into a connector's argument
// field: bare, as the product documents do, and in double quotes only when an
// argument is empty or holds blanks or quotes (a quote in it written \"). A
// backslash stays as it is: C:\Tools\srv.exe is typed so, not doubled.
func quoteList(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n\"'") {
			q[i] = `"` + strings.ReplaceAll(a, `"`, `\"`) + `"`
		}
	}
	return strings.Join(q, " ")
}
