package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcptestMain is a tiny MCP server for the probe tests, registered as the
// testscript command "mcptest" (so it is also on PATH for the Go tests). It offers
// the tools named by -tools over stdio, or over HTTP with -http (streamable HTTP at
// /mcp, SSE at /sse).
//
//	-tools a,b,c         tool names (default echo,search_docs,search_code)
//	-page-size N         tools/list page size (default 2: probe must follow cursors)
//	-cwd-tool            also offer "cwd_<base name of the working directory>"
//	-require-env K=V     exit 1 unless $K is V (repeat)
//	-same-env A=B        exit 1 unless $A is set and equals $B (checks envFrom without
//	                     putting the value in the arguments; repeat)
//	-leak-env K          print "K=<value>" on stderr and exit 1 (a careless server)
//	-hang                never answer; ignore SIGTERM and SIGINT (only SIGKILL stops it)
//	-delay D             wait D before answering anything (a server slow to start)
//	-pid-file F          write the process id to F
//	-http ADDR           serve HTTP on ADDR (127.0.0.1:0 picks a port)
//	-addr-file F         with -http: write the base URL to F once listening
//	-require-header H=V  with -http: answer 401 unless header H is V (repeat)
func mcptestMain() {
	fs := flag.NewFlagSet("mcptest", flag.ExitOnError)
	tools := fs.String("tools", "echo,search_docs,search_code", "")
	pageSize := fs.Int("page-size", 2, "")
	cwdTool := fs.Bool("cwd-tool", false, "")
	hang := fs.Bool("hang", false, "")
	delay := fs.Duration("delay", 0, "")
	pidFile := fs.String("pid-file", "", "")
	addr := fs.String("http", "", "")
	addrFile := fs.String("addr-file", "", "")
	leakEnv := fs.String("leak-env", "", "")
	var requireEnv, sameEnv, requireHeader pairList
	fs.Var(&requireEnv, "require-env", "")
	fs.Var(&sameEnv, "same-env", "")
	fs.Var(&requireHeader, "require-header", "")
	fs.Parse(os.Args[1:])

	if *pidFile != "" {
		writeFileAtomic(*pidFile, fmt.Sprint(os.Getpid()))
	}
	if *leakEnv != "" {
		fmt.Fprintf(os.Stderr, "mcptest: starting with %s=%s\n", *leakEnv, os.Getenv(*leakEnv))
		os.Exit(1)
	}
	if *hang {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
		for { // not select {}: with no signal goroutine (Windows), Go calls that a deadlock
			time.Sleep(time.Hour)
		}
	}
	for _, kv := range requireEnv {
		if os.Getenv(kv[0]) != kv[1] {
			fmt.Fprintf(os.Stderr, "mcptest: environment variable %s does not have the expected value\n", kv[0])
			os.Exit(1)
		}
	}
	for _, kv := range sameEnv {
		if v := os.Getenv(kv[0]); v == "" || v != os.Getenv(kv[1]) {
			fmt.Fprintf(os.Stderr, "mcptest: environment variable %s is not the value of %s\n", kv[0], kv[1])
			os.Exit(1)
		}
	}
	time.Sleep(*delay)
	names := strings.Split(*tools, ",")
	if *cwdTool {
		wd, _ := os.Getwd()
		names = append(names, "cwd_"+filepath.Base(wd))
	}
	srv := newTestMCPServer(names, *pageSize)
	if *addr == "" {
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
			os.Exit(1)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
		os.Exit(1)
	}
	if *addrFile != "" {
		writeFileAtomic(*addrFile, "http://"+ln.Addr().String())
	}
	required := map[string]string{}
	for _, kv := range requireHeader {
		required[kv[0]] = kv[1]
	}
	http.Serve(ln, testMCPHandler(srv, required))
}

// newTestMCPServer returns a server offering the named tools (each echoes its input).
func newTestMCPServer(tools []string, pageSize int) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "v0.0.1"}, &mcp.ServerOptions{PageSize: pageSize})
	for _, n := range tools {
		if n == "" {
			continue
		}
		srv.AddTool(&mcp.Tool{Name: n, Description: "test tool " + n, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: n}}}, nil
			})
	}
	return srv
}

// testMCPHandler serves srv with streamable HTTP at /mcp and SSE at /sse, answering
// 401 to requests that lack a required header value.
func testMCPHandler(srv *mcp.Server, required map[string]string) http.Handler {
	get := func(*http.Request) *mcp.Server { return srv }
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/sse", mcp.NewSSEHandler(get, nil))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for h, v := range required {
			if r.Header.Get(h) != v {
				http.Error(w, "missing or wrong "+h, http.StatusUnauthorized)
				return
			}
		}
		mux.ServeHTTP(w, r)
	})
}

// pairList is a repeatable K=V flag.
type pairList [][2]string

func (p *pairList) String() string { return fmt.Sprint(*p) }

func (p *pairList) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("%q is not K=V", v)
	}
	*p = append(*p, [2]string{k, val})
	return nil
}

func writeFileAtomic(path, content string) {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err == nil {
		os.Rename(tmp, path)
	}
}
