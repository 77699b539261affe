// Command yamlfloor parses a YAML file with go.yaml.in/yaml/v3 into its node tree, as
// mcpwire's internal/yamledit does before anything else: the floor of any command that
// reads the file (bench/hostile.sh, SPEC K7).
//
//	yamlfloor FILE
package main

import (
	"bytes"
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: yamlfloor FILE")
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "yamlfloor:", err)
		os.Exit(1)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(src)).Decode(&doc); err != nil {
		fmt.Fprintln(os.Stderr, "yamlfloor:", err)
		os.Exit(1)
	}
}
