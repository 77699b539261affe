package jsonc

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// genClaudeJSON generates a ~/.claude.json of at least size bytes, shaped
// like the real one: a few top-level settings, a huge "projects" object of
// small entries, and a small "mcpServers" object. It is written the way
// Claude Code writes it (JSON.stringify with two-space indentation).
func genClaudeJSON(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 4096)
	b.WriteString("{\n  \"numStartups\": 5,\n  \"installMethod\": \"npm\",\n  \"autoUpdates\": true,\n" +
		"  \"tipsHistory\": {\n    \"new-user-warmup\": 1,\n    \"memory-command\": 7\n  },\n  \"projects\": {\n")
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    \"/home/u/src/project-%d\": {\n      \"allowedTools\": [],\n      \"history\": [", i)
		for h := range 1 + i%5 {
			if h > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n        {\n          \"display\": \"fix the failing test in pkg/%d and explain \\\"why\\\" it broke\\n"+
				"then run go test ./... — naïve café ✓ %d\",\n          \"pastedContents\": {}\n        }", i, h)
		}
		fmt.Fprintf(&b, "\n      ],\n      \"mcpContextUris\": [],\n      \"mcpServers\": {},\n"+
			"      \"enabledMcpjsonServers\": [],\n      \"disabledMcpjsonServers\": [],\n"+
			"      \"hasTrustDialogAccepted\": %t,\n      \"projectOnboardingSeenCount\": %d,\n"+
			"      \"hasClaudeMdExternalIncludesApproved\": false,\n      \"lastCost\": %d.%06d,\n"+
			"      \"lastAPIDuration\": %d,\n      \"lastTotalInputTokens\": %d,\n"+
			"      \"exampleFiles\": [\n        \"main.go\",\n        \"render/jsonc/scan.go\"\n      ],\n"+
			"      \"lastSessionId\": \"%08x-1d2e-4f5a-8b9c-0d1e2f3a4b5c\"\n    }",
			i%3 == 0, i%7, i%13, i*7919%1000000, 1000+i*31, i*1237, i)
	}
	b.WriteString("\n  },\n  \"mcpServers\": {\n    \"github\": {\n      \"type\": \"http\",\n" +
		"      \"url\": \"https://api.githubcopilot.com/mcp/\"\n    }\n  },\n  \"userID\": \"4c1f\"\n}\n")
	return b.Bytes()
}

// BenchmarkEditLargeClaudeJSON measures the whole edit of a 50 MB
// ~/.claude.json: Parse, Set(["mcpServers", "x"], …) and WriteTo.
func BenchmarkEditLargeClaudeJSON(b *testing.B) {
	data := genClaudeJSON(50 << 20)
	value := []byte(`{"type":"stdio","command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"],"env":{"A":"<b>&"}}`)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Set([]string{"mcpServers", "x"}, value); err != nil {
			b.Fatal(err)
		}
		if _, err := d.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLargeClaudeJSON measures Parse alone on the same file.
func BenchmarkParseLargeClaudeJSON(b *testing.B) {
	data := genClaudeJSON(50 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
