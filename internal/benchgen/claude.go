package benchgen

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

// WriteClaudeJSON writes a ~/.claude.json of about size bytes to path, shaped like the
// one Claude Code keeps: a projects map of many entries with history, then
// top-level settings and one user-scope server, "personal".
func WriteClaudeJSON(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := claudeJSON(w, size); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func claudeJSON(w io.Writer, size int64) error {
	cw := &counter{w: w}
	fmt.Fprintf(cw, "{\n  \"numStartups\": 412,\n  \"installMethod\": \"npm-global\",\n  \"autoUpdates\": true,\n  \"tipsHistory\": {\n    \"new-user-warmup\": 7\n  },\n  \"projects\": {\n")
	for i := 0; cw.n < size && cw.err == nil; i++ {
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
	return cw.err
}

type counter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if c.err == nil {
		c.err = err
	}
	return n, err
}
