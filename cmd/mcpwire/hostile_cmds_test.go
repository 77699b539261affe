package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdCRLF rewrites files with CRLF line endings: "crlf FILE..." (SPEC K8: a file
// written on Windows).
func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: crlf FILE...")
	}
	for _, a := range args {
		p := ts.MkAbs(a)
		data, err := os.ReadFile(p)
		ts.Check(err)
		ts.Check(os.WriteFile(p, []byte(strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n", "\r\n")), 0o644))
	}
}

// cmdHostile writes a hostile file (SPEC K1): "hostile KIND FILE [N]", KIND one of
// bomb (a YAML "billion laughs" of N levels of nine aliases each, 9^N nodes once
// expanded), nest-yaml, nest-json (N levels of [ ]), sparse (a file of N MiB of
// zeros, which takes no disk space).
func cmdHostile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: hostile bomb|nest-yaml|nest-json|sparse FILE [N]")
	}
	n := 10
	if len(args) > 2 {
		var err error
		n, err = strconv.Atoi(args[2])
		ts.Check(err)
	}
	p := ts.MkAbs(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	var b strings.Builder
	switch args[0] {
	case "bomb":
		b.WriteString("name: bomb\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: a0\n    command: x\n    args: &a0 [x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < n; i++ {
			a := fmt.Sprintf("*a%d", i-1)
			fmt.Fprintf(&b, "  - name: a%d\n    command: x\n    args: &a%d [%s]\n", i, i, strings.Repeat(a+", ", 8)+a)
		}
	case "nest-yaml":
		b.WriteString("extensions: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
	case "nest-json":
		b.WriteString(`{"mcpServers": {}, "x": ` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}\n")
	case "sparse":
		f, err := os.Create(p)
		ts.Check(err)
		ts.Check(f.Truncate(int64(n) << 20))
		ts.Check(f.Close())
		return
	default:
		ts.Fatalf("unknown kind %q", args[0])
	}
	ts.Check(os.WriteFile(p, []byte(b.String()), 0o644))
}
