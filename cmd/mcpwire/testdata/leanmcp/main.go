// Command leanmcp is the lightest MCP server the probe benchmarks can start: the
// standard library only, stdio, newline-delimited JSON-RPC. It waits -delay, then
// answers initialize (with the client's protocol version), tools/list (the tools named
// by -tools, one page) and ping; notifications are read and dropped. With -mark DIR it
// writes DIR/<pid> holding the times (Unix nanoseconds) it started and ended, so a
// test can see how many servers ran at once.
//
// The SDK-based test server (mcptest, the test binary itself) costs tens of
// milliseconds of CPU to start on a small machine, so twenty of them on two cores
// measure the machine's process start-up more than probe's concurrency; this one
// costs a few. It is built by the benchmarks (go build), not by go build ./...
// (testdata is not a package path).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	tools := flag.String("tools", "echo", "comma-separated tool names")
	delay := flag.Duration("delay", 0, "wait this long before answering anything")
	mark := flag.String("mark", "", "write DIR/<pid> with the start and end times")
	flag.Parse()
	start := time.Now()
	if *mark != "" {
		defer func() {
			span := fmt.Sprintf("%d %d\n", start.UnixNano(), time.Now().UnixNano())
			os.WriteFile(filepath.Join(*mark, fmt.Sprint(os.Getpid())), []byte(span), 0o600)
		}()
	}
	time.Sleep(*delay)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 16<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "initialize":
			reply["result"] = map[string]any{
				"protocolVersion": req.Params.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "leanmcp", "version": "0"},
			}
		case "tools/list":
			var list []any
			for _, n := range strings.Split(*tools, ",") {
				list = append(list, map[string]any{"name": n, "inputSchema": map[string]any{"type": "object"}})
			}
			reply["result"] = map[string]any{"tools": list}
		case "ping":
			reply["result"] = map[string]any{}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		out.Encode(reply)
	}
}
