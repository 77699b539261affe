// Command archcheck measures the shape of mcpwire's import graph and API, so that a
// restructuring can be compared before and after (issue 26):
//
//	go run ./internal/archcheck [-v] [root]
//
// It prints the number of packages, the depth of the import graph (the packages on a
// longest chain of non-test imports among the module's own packages, as
// `go list -deps` would follow them), the package-level exported names of the
// non-main packages (functions, types, constants, variables; not methods or fields),
// and how many of those no other package names (and how many only other packages'
// tests name), then the same for the program's API alone — the packages outside
// internal/ and fixtures — counting only uses from other packages' non-test code
// (issue 26's count). -v lists the chain and the unused names.
//
// It reads source text only (go/parser, no type checking), every file whatever its
// build constraints; a use is a selector pkg.Name through a file's import of that
// package, from a file of another directory (a package's external tests are its own).
//
// Its tests hold the rules of the layout: imports flow down (docs/architecture.md),
// no production package imports test support, and the words of the docs resolve in
// the repository (docs/rules.md).
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	verbose := flag.Bool("v", false, "list the longest chain and the unused exported names")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	m, err := loadModule(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "archcheck:", err)
		os.Exit(1)
	}
	mt := measure(m)
	none, testsOnly := mt.unused()
	fmt.Printf("packages:                  %d\n", mt.packages)
	fmt.Printf("depth (longest chain):     %d\n", len(mt.chain))
	fmt.Printf("exported names:            %d\n", len(mt.exports))
	fmt.Printf("unused outside package:    %d (and %d used outside only by tests)\n", none, testsOnly)
	apiExports, apiUnused := mt.api()
	fmt.Printf("API outside internal/ and fixtures: %d exported, %d unused by another package's non-test code\n", apiExports, apiUnused)
	if !*verbose {
		return
	}
	fmt.Printf("\nchain: %s\n\nunused outside their package:\n", chainString(mt.chain))
	for _, e := range mt.exports {
		if !e.outside {
			fmt.Printf("  %s.%s\n", e.pkg, e.name)
		}
	}
	fmt.Println("\nused outside only by tests:")
	for _, e := range mt.exports {
		if e.outside && !e.prodUse {
			fmt.Printf("  %s.%s\n", e.pkg, e.name)
		}
	}
}
