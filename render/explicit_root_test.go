package render_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplicitPathRootPortable: an explicit --out path (ephemeral output, its sidecar)
// is checked from the filesystem root (W5). fsys.CheckRealDirs takes "" (or "/") for
// that root and turns it into the path's volume root; string(filepath.Separator) is "\"
// on Windows, which CheckRealDirs takes for a directory named "\" that no path is
// inside, so every ephemeral output (and session --provider claude-code) would fail
// there. Go cannot run the Windows path code on another OS, so this test reads the
// source: no CheckRealDirs call in render, cmd/mcpwire or fsys.WriteFile may pass
// filepath.Separator.
//
// spec: W5 C5 X2
func TestExplicitPathRootPortable(t *testing.T) {
	var files []string
	for _, glob := range []string{"*.go", "write/*.go", "inspect/*.go", "../cmd/mcpwire/*.go", "../internal/fsys/*.go"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	fset := token.NewFileSet()
	calls := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "CheckRealDirs" || len(call.Args) < 2 {
				return true
			}
			calls++
			ast.Inspect(call.Args[1], func(a ast.Node) bool {
				if s, ok := a.(*ast.SelectorExpr); ok && s.Sel.Name == "Separator" {
					t.Errorf("%s: CheckRealDirs root uses filepath.Separator; pass \"\" for the filesystem root", fset.Position(call.Pos()))
				}
				return true
			})
			return true
		})
	}
	if calls == 0 {
		t.Fatal("no CheckRealDirs call found: the test reads the wrong files")
	}
}
