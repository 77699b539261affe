// Package conformance checks what mcpwire writes against the real MCP clients
// (spec: Q3 Q5 V3 V4 F3).
//
// The suite installs pinned releases of Claude Code, Codex, Gemini CLI, opencode,
// GitHub Copilot CLI, Qwen Code, auggie, Amp, Kilo and Qoder, plus
// @modelcontextprotocol/server-everything as a real MCP server, with npm into a cache
// folder (npm/package.json and npm/package-lock.json are the pinned list). For each
// client and scope it builds mcpwire, injects a profile into a scratch HOME and
// project, and asks the client itself (`claude mcp get`, `codex mcp get --json`,
// `gemini mcp list`, `opencode mcp list`, …) what it loaded. The client wins: any
// disagreement fails the test and prints the client's output next to the files
// mcpwire wrote.
//
// The six clients of Q5 have drivers (driver_test.go and one file each), proven for
// now against files written by hand in the shapes each real client was seen to read;
// each clientCase switches to mcpwire with one line once mcpwire writes that client.
//
// The tests are behind the "conformance" build tag, so `go test ./...` does not run
// them:
//
//	go test -tags conformance -count=1 -timeout 30m ./conformance/...
//
// See README.md ("Conformance") for the cache folder, the environment the clients
// run with, and what each client prints.
package conformance
