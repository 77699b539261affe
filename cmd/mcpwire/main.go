// Command mcpwire keeps a layered registry of MCP servers and profiles and writes
// them into the configuration files of AI clients.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// mcpwire runs for a fraction of a second and allocates a few tens of MB for a
	// large registry: collect garbage less often unless the user chose GOGC.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(Run(os.Args[1:]))
}
