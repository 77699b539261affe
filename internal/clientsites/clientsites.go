// Package clientsites counts the places in mcpwire's source that branch on a client:
// a comparison or switch on one of the provider table's enum constants (Shape,
// DenyStyle, AllowStyle, OwnerMode, RefStyle, RemoteSupport), or on a client's name or
// alias spelled as a string literal. (A file's format, format.Format, is a syntax that
// clients share, not a client.) Per-client knowledge belongs in one dialect file
// per entry shape (render/dialect); this package lets a test keep it there.
//
// It reads source text only (go/parser, no type checking): the enum constants and the
// client names are taken from the providers package's own source.
package clientsites

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// enumTypes are the provider table's enum types.
var enumTypes = map[string]bool{
	"Shape": true, "DenyStyle": true, "AllowStyle": true,
	"OwnerMode": true, "RefStyle": true, "RemoteSupport": true,
}

// Site is one branch on a client.
type Site struct {
	File string // slash path relative to the module root
	Line int
	What string // the enum constant or client name it branches on
}

func (s Site) String() string { return fmt.Sprintf("%s:%d: %s", s.File, s.Line, s.What) }

// vocabulary is what counts as naming a client.
type vocabulary struct {
	consts map[string]bool // providers.<Const>
	names  map[string]bool // client names and aliases
}

// Count walks the module at root and returns every branch site outside the providers
// package and outside test files, sorted by file and line.
func Count(root string) ([]Site, error) {
	voc, err := readVocabulary(filepath.Join(root, "providers"))
	if err != nil {
		return nil, err
	}
	var out []Site
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (rel == "providers" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		sites, err := fileSites(path, rel, voc)
		out = append(out, sites...)
		return err
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, err
}

// readVocabulary reads the enum constants and the client names from the providers
// package's source.
func readVocabulary(dir string) (*vocabulary, error) {
	voc := &vocabulary{consts: map[string]bool{}, names: map[string]bool{}}
	fset := token.NewFileSet()
	ents, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	for _, path := range ents {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if id, ok := n.Type.(*ast.Ident); ok && enumTypes[id.Name] {
					for _, name := range n.Names {
						voc.consts[name.Name] = true
					}
				}
			case *ast.KeyValueExpr:
				// Name: "codex" in the table; "alias": "name" in the alias map
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Name" {
					if s, ok := stringLit(n.Value); ok {
						voc.names[s] = true
					}
				}
				if k, ok := stringLit(n.Key); ok {
					if v, ok := stringLit(n.Value); ok {
						voc.names[k], voc.names[v] = true, true
					}
				}
			}
			return true
		})
	}
	if len(voc.consts) == 0 || len(voc.names) == 0 {
		return nil, fmt.Errorf("%s: no enum constants or client names found", dir)
	}
	return voc, nil
}

func stringLit(e ast.Expr) (string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil
}

// naming reports what expression e names: a providers enum constant or a client name.
func (v *vocabulary) naming(e ast.Expr) string {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "providers" && v.consts[sel.Sel.Name] {
			return "providers." + sel.Sel.Name
		}
	}
	if s, ok := stringLit(e); ok && v.names[s] {
		return strconv.Quote(s)
	}
	return ""
}

// fileSites returns the branch sites of one file: every ==/!= with a client operand,
// every switch with a client case (one site per switch), and every other use of a
// client's name as a string literal (What starts with "name ").
func fileSites(path, rel string, voc *vocabulary) ([]Site, error) {
	return parse(path, nil, rel, voc)
}

// fileSitesSource is fileSites of source text.
func fileSitesSource(src, rel string, voc *vocabulary) ([]Site, error) {
	return parse(rel, src, rel, voc)
}

func parse(path string, src any, rel string, voc *vocabulary) ([]Site, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, err
	}
	var out []Site
	counted := map[token.Pos]bool{} // literals of a switch's cases, counted with it
	add := func(pos token.Pos, what string) {
		out = append(out, Site{File: rel, Line: fset.Position(pos).Line, What: what})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			if w := voc.naming(n.X) + voc.naming(n.Y); w != "" {
				add(n.Pos(), w)
			}
			return false // its literals are counted as the comparison
		case *ast.BasicLit:
			if name, ok := stringLit(n); ok && voc.names[name] && !counted[n.Pos()] {
				out = append(out, Site{File: rel, Line: fset.Position(n.Pos()).Line, What: "name " + strconv.Quote(name)})
			}
		case *ast.SwitchStmt:
			var what []string
			for _, st := range n.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					if w := voc.naming(e); w != "" {
						what = append(what, w)
					}
				}
			}
			if len(what) > 0 {
				add(n.Pos(), "switch "+strings.Join(what, ", "))
				for _, st := range n.Body.List {
					for _, e := range st.(*ast.CaseClause).List {
						counted[e.Pos()] = true
					}
				}
			}
		}
		return true
	})
	return out, nil
}
