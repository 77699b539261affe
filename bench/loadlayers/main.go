// Command loadlayers is the floor of `mcpwire server list`: a Go process that reads
// and parses every layer file of AIWG_CONFIG_LAYERS (layers.LoadAll, the first step of
// every command) and prints how many entries it found, and does nothing else: no
// decoding or validation of the entries, no merge, no output table. Run by
// bench/server-list.sh beside the list.
package main

import (
	"fmt"
	"os"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
)

func main() {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	cfg, err := layers.Resolve(os.Getenv, "", home, cwd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadlayers:", err)
		os.Exit(1)
	}
	set, err := layers.LoadAll(fsys.NewOS(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadlayers:", err)
		os.Exit(1)
	}
	n := 0
	for _, l := range set.Layers {
		n += len(l.Servers.Entries) + len(l.Profiles.Entries)
	}
	fmt.Println(n, "entries")
}
