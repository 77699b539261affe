// Command genclaude writes a large ~/.claude.json shaped like the one Claude Code
// keeps: a projects map of many entries with history, then top-level settings.
//
//	go run ./bench/genclaude -size 50 -out /tmp/h/.claude.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mcpwire/mcpwire/internal/benchgen"
)

func main() {
	size := flag.Int("size", 50, "approximate size in MB")
	out := flag.String("out", ".claude.json", "output file")
	flag.Parse()
	if err := benchgen.WriteClaudeJSON(*out, int64(*size)<<20); err != nil {
		fmt.Fprintln(os.Stderr, "genclaude:", err)
		os.Exit(1)
	}
}
