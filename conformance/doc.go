// Package conformance checks what mcpwire writes against the real MCP clients
// (spec: Q3 V3 V4 F3).
//
// The suite installs pinned releases of Claude Code, Codex, Gemini CLI and opencode,
// plus @modelcontextprotocol/server-everything as a real MCP server, with npm into a
// cache folder (npm/package.json and npm/package-lock.json are the pinned list). For
// each client and scope it builds mcpwire, injects a profile into a scratch HOME and
// project, and asks the client itself (`claude mcp get`, `codex mcp get --json`,
// `gemini mcp list`, `opencode mcp list`, …) what it loaded. The client wins: any
// disagreement fails the test and prints the client's output next to the files
// mcpwire wrote.
//
// The tests are behind the "conformance" build tag, so `go test ./...` does not run
// them:
//
//	go test -tags conformance -count=1 -timeout 30m ./conformance/...
//
// See README.md ("Conformance") for the cache folder, the environment the clients
// run with, and what each client prints.
package conformance
