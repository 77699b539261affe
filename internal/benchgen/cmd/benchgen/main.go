// Command benchgen writes a large layered registry into a directory and prints the
// AIWG_CONFIG_LAYERS value for it: benchgen DIR [SCALE].
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/benchgen"
)

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: benchgen DIR [SCALE]")
		os.Exit(2)
	}
	spec := benchgen.Full
	if len(os.Args) == 3 {
		f, err := strconv.ParseFloat(os.Args[2], 64)
		if err != nil || f <= 0 {
			fmt.Fprintln(os.Stderr, "benchgen: SCALE must be a positive number")
			os.Exit(2)
		}
		spec = spec.Scale(f)
	}
	dirs, err := benchgen.Write(os.Args[1], spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
	fmt.Println(strings.Join(dirs, string(os.PathListSeparator)))
}
