package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// manCommand prints the manual page, generated from the command definitions (U7).
func manCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "man",
		Usage: "print the manual page (roff); read it with: mcpwire man | man -l -",
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, ""); err != nil {
				return err
			}
			var b strings.Builder
			writeMan(&b, c.App)
			_, err := io.WriteString(env.Stdout, b.String())
			return err
		},
	}
}

// manEnvironment and manExit are the parts of the page no command definition holds.
var manEnvironment = [][2]string{
	{"AIWG_CONFIG_LAYERS", "configuration directories, lowest precedence first, separated like PATH; the last one is written to"},
	{"AIWG_CONFIG", "the single configuration directory when AIWG_CONFIG_LAYERS is not set (default ~/.aiwg)"},
	{"AIWG_MCP_CREDENTIAL_POLICY", "literal, references or none: the credential policy of this run, never below the organisation floor"},
	{"NO_COLOR", "when set to a non-empty value, mcpwire never colours its output; set but empty, it counts as unset (no-color.org). mcpwire colours only a terminal, and never with TERM=dumb"},
}

var manExit = [][2]string{
	{"0", "success"},
	{"1", "refused or failed; nothing was written"},
	{"2", "usage error"},
}

// writeMan renders app as a man(7) page: name, synopsis, global options, then every
// command (subcommands under their full path) with its arguments, aliases and flags.
// urfave/cli's own ToMan goes through Markdown, which drops text in angle brackets
// ("Bearer <value of VAR>") and leaves out each command's arguments; this writes roff
// directly.
func writeMan(w *strings.Builder, app *cli.App) {
	w.WriteString(".TH MCPWIRE 1 \"\" " + roffQuote("mcpwire "+version()) + " \"User Commands\"\n")
	w.WriteString(".SH NAME\nmcpwire \\- " + roffText(app.Usage) + "\n")
	w.WriteString(".SH SYNOPSIS\n.B mcpwire\n[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n")
	w.WriteString(".SH DESCRIPTION\n" + roffText("mcpwire keeps a layered registry of MCP servers and profiles and writes them into "+
		"each AI client's own configuration file, keeping comments and unrelated keys. "+
		"Flags may follow positional arguments; list flags take repeats and comma lists.") + "\n")
	w.WriteString(".SH GLOBAL OPTIONS\n")
	manFlags(w, app.Flags)
	w.WriteString(".SH COMMANDS\n")
	manCommands(w, "mcpwire", app.Commands)
	w.WriteString(".SH ENVIRONMENT\n")
	for _, e := range manEnvironment {
		w.WriteString(".TP\n.B " + roffText(e[0]) + "\n" + roffText(e[1]) + "\n")
	}
	w.WriteString(".SH EXIT STATUS\n")
	for _, e := range manExit {
		w.WriteString(".TP\n.B " + e[0] + "\n" + roffText(e[1]) + "\n")
	}
}

func manCommands(w *strings.Builder, parent string, cmds []*cli.Command) {
	for _, c := range cmds {
		if c.Hidden || c.Name == "help" {
			continue
		}
		path := parent + " " + c.Name
		w.WriteString(".SS " + roffQuote(strings.TrimSpace(path+" "+c.ArgsUsage)) + "\n")
		w.WriteString(roffText(c.Usage) + "\n")
		if len(c.Aliases) > 0 {
			w.WriteString(".br\n" + roffText("Also: "+strings.Join(c.Aliases, ", ")) + "\n")
		}
		manFlags(w, c.Flags)
		manCommands(w, path, c.Subcommands)
	}
}

// manFlags lists flags as tagged paragraphs: "--name VALUE" and the usage.
func manFlags(w *strings.Builder, flags []cli.Flag) {
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		var names []string
		for _, n := range f.Names() {
			dash := "\\-\\-"
			if len(n) == 1 {
				dash = "\\-"
			}
			names = append(names, "\\fB"+dash+roffText(n)+"\\fR")
		}
		tag := strings.Join(names, ", ")
		d, _ := f.(cli.DocGenerationFlag)
		if d != nil && d.TakesValue() {
			tag += " \\fIvalue\\fR"
		}
		w.WriteString(".TP\n" + tag + "\n")
		if d != nil {
			usage := d.GetUsage()
			if def := d.GetDefaultText(); def != "" && def != `""` && d.TakesValue() {
				usage += " (default: " + def + ")"
			}
			w.WriteString(roffText(usage) + "\n")
		}
	}
}

// roffText escapes text for a roff line: backslashes, hyphens (so that options copy
// as ASCII), a leading control character, and every non-ASCII character (as
// \[uXXXX], which groff and mandoc read without a preprocessor).
func roffText(s string) string {
	var b strings.Builder
	for _, r := range strings.ReplaceAll(s, "\n", " ") {
		switch {
		case r == '\\':
			b.WriteString("\\e")
		case r == '-':
			b.WriteString("\\-")
		case r > 0x7e:
			fmt.Fprintf(&b, "\\[u%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	s = b.String()
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = "\\&" + s
	}
	return s
}

// roffQuote makes s one quoted macro argument.
func roffQuote(s string) string {
	return `"` + strings.ReplaceAll(roffText(s), `"`, `\(dq`) + `"`
}
