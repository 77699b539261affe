// Command mcpwire keeps a layered registry of MCP servers and profiles and writes
// them into the configuration files of AI clients.
package main

import "os"

func main() {
	setProcessGC()
	os.Exit(Run(os.Args[1:]))
}
