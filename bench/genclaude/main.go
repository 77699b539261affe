// Command genclaude writes a large ~/.claude.json shaped like the one Claude Code
// keeps: a projects map of many entries with history, then top-level settings.
//
//	go run ./bench/genclaude -size 50 -out /tmp/h/.claude.json
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
)

func main() {
	size := flag.Int("size", 50, "approximate size in MB")
	out := flag.String("out", ".claude.json", "output file")
	flag.Parse()
	if err := write(*out, int64(*size)<<20); err != nil {
		fmt.Fprintln(os.Stderr, "genclaude:", err)
		os.Exit(1)
	}
}

func write(path string, target int64) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	cw := &counter{w: w}
	fmt.Fprintf(cw, "{\n  \"numStartups\": 412,\n  \"installMethod\": \"npm-global\",\n  \"autoUpdates\": true,\n  \"tipsHistory\": {\n    \"new-user-warmup\": 7\n  },\n  \"projects\": {\n")
	for i := 0; cw.n < target; i++ {
		if i > 0 {
			fmt.Fprint(cw, ",\n")
		}
		fmt.Fprintf(cw, "    \"/home/dev/src/project-%06d\": {\n      \"allowedTools\": [],\n      \"history\": [\n", i)
		for h := 0; h < 8; h++ {
			if h > 0 {
				fmt.Fprint(cw, ",\n")
			}
			fmt.Fprintf(cw, "        {\n          \"display\": \"refactor the parser in module %d step %d and add tests for \\\"edge\\\" cases\",\n          \"pastedContents\": {}\n        }", i, h)
		}
		fmt.Fprintf(cw, "\n      ],\n      \"mcpContextUris\": [],\n      \"mcpServers\": {},\n      \"enabledMcpjsonServers\": [],\n      \"disabledMcpjsonServers\": [],\n      \"hasTrustDialogAccepted\": true,\n      \"projectOnboardingSeenCount\": 3,\n      \"lastCost\": 0.4213,\n      \"lastDuration\": 812345\n    }")
	}
	fmt.Fprint(cw, "\n  },\n  \"mcpServers\": {\n    \"personal\": {\n      \"command\": \"notes-mcp\",\n      \"args\": []\n    }\n  },\n  \"userID\": \"0123456789abcdef\",\n  \"hasCompletedOnboarding\": true\n}\n")
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

type counter struct {
	w *bufio.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
