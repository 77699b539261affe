// Command jsonfloor reads a JSON file and passes over its tokens once with
// internal/jsonc's Walk, telling nothing to a visitor that does nothing: the floor
// of what a dry run adds to an inject, whose redaction must read every credential of
// the file (bench/hostile.sh, SPEC K7).
//
//	jsonfloor FILE
package main

import (
	"fmt"
	"os"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// nothing is a visitor that does nothing.
type nothing struct{}

func (nothing) Key(int, int)    {}
func (nothing) Open(int, bool)  {}
func (nothing) Close(int)       {}
func (nothing) Scalar(int, int) {}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: jsonfloor FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err == nil {
		err = jsonc.Walk(data, nothing{})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsonfloor:", err)
		os.Exit(1)
	}
}
