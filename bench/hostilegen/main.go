// Command hostilegen writes the inputs of bench/hostile.sh (issue 25, SPEC K1, K7):
//
//	hostilegen mcpjson N FILE    a .mcp.json of N entries
//	hostilegen extensions BYTES FILE  a Goose-like config.yaml of about BYTES bytes
//	hostilegen minify FROM TO    FROM's JSON without white space outside strings
//	hostilegen bomb N FILE       a Continue block file whose aliases expand to 9^N nodes
//	hostilegen nest N FILE       a Goose config.yaml nested N levels deep
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: hostilegen mcpjson|extensions|minify|bomb|nest N|FROM FILE")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "hostilegen:", err)
		os.Exit(1)
	}
}

func run(kind, arg, out string) error {
	if kind == "minify" {
		return minify(arg, out)
	}
	n, err := strconv.Atoi(arg)
	if err != nil {
		return err
	}
	var b strings.Builder
	switch kind {
	case "mcpjson":
		b.WriteString("{\"mcpServers\": {\n")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "  \"s%d\": {\"command\": \"x\", \"args\": [\"-y\", \"p\"]}", i)
		}
		b.WriteString("\n}}\n")
	case "extensions":
		b.WriteString("# config\nGOOSE_MODE: auto\nextensions:\n")
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "  own%d:\n    type: stdio\n    name: own%d\n    enabled: true\n    cmd: x\n    args: [\"-y\", \"pkg\"]\n    envs: {}\n", i, i)
		}
	case "bomb":
		b.WriteString("name: bomb\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: a0\n    command: x\n    args: &a0 [x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < n; i++ {
			a := fmt.Sprintf("*a%d", i-1)
			fmt.Fprintf(&b, "  - name: a%d\n    command: x\n    args: &a%d [%s]\n", i, i, strings.Repeat(a+", ", 8)+a)
		}
	case "nest":
		b.WriteString("extensions: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
	default:
		return fmt.Errorf("unknown kind %q", kind)
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// minify copies the JSON file from to to without white space outside strings.
func minify(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	f, err := os.Create(to)
	if err != nil {
		return err
	}
	r, w := bufio.NewReader(in), bufio.NewWriter(f)
	quoted, escaped := false, false
	for {
		c, err := r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ' ' || c == '\n' || c == '\t' || c == '\r'):
			continue
		}
		w.WriteByte(c)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
