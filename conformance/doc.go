// Package conformance checks what mcpwire writes against the real MCP clients
// (spec: Q3 Q5 V3 V4 F3).
//
// The suite installs pinned releases of Claude Code, Codex, Gemini CLI, opencode,
// GitHub Copilot CLI, Qwen Code, auggie, Amp, Kilo, Qoder, Factory droid, Grok Build,
// Continue CLI, Cline and oh-my-pi, plus @modelcontextprotocol/server-everything as a
// real MCP server and Bun, with npm into a cache folder (npm/package.json and
// npm/package-lock.json are the pinned list; MCPWIRE_CONFORMANCE_LATEST=1 takes the
// newest published clients instead, latest_test.go). For each
// client and scope it builds mcpwire, injects a profile into a scratch HOME and
// project, and asks the client itself (`claude mcp get`, `codex mcp get --json`,
// `gemini mcp list`, `opencode mcp list`, …) what it loaded. The client wins: any
// disagreement fails the test and prints the client's output next to the files
// mcpwire wrote.
//
// The clients of Q5 and issue 27 have drivers (driver_test.go and one file each), run
// on what mcpwire writes in every scope, and proven against files written by hand in
// the shapes each real client was seen to read, one server missing and one disabled
// (the negative check). Where a client shows no list, the servers say who reached them
// (trace_test.go), and a loopback model sees the tools the client offers (model_test.go).
//
// The tests are behind the "conformance" build tag, so `go test ./...` does not run
// them:
//
//	go test -tags conformance -count=1 -timeout 80m ./conformance/...
//
// See README.md ("Conformance") for the cache folder, the environment the clients
// run with, and what each client prints.
package conformance
