package main

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// metrics are the numbers archcheck prints.
type metrics struct {
	packages int      // the module's importable packages, main packages included
	chain    []string // a longest import chain of non-test imports, top first
	exports  []export // package-level exported names of the non-main packages
}

// export is one package-level exported name and who uses it.
type export struct {
	pkg, name string // import path relative to the module, identifier
	outside   bool   // a file of another package names it (tests included)
	prodUse   bool   // a non-test file of another package names it
}

// unused counts the exports no other package names, and those only other packages'
// tests name.
func (mt *metrics) unused() (none, testsOnly int) {
	for _, e := range mt.exports {
		switch {
		case !e.outside:
			none++
		case !e.prodUse:
			testsOnly++
		}
	}
	return none, testsOnly
}

// api counts the exports of the program's own API — the packages outside internal/
// and fixtures — and those no other package's non-test code names (issue 26 counted
// 427 and 129 at b0cdc4b; this count gives 421 and 128 there).
func (mt *metrics) api() (exports, unused int) {
	for _, e := range mt.exports {
		if e.pkg == "fixtures" || e.pkg == "internal" || strings.HasPrefix(e.pkg, "internal/") || strings.HasPrefix(e.pkg, "fixtures/") {
			continue
		}
		exports++
		if !e.prodUse {
			unused++
		}
	}
	return exports, unused
}

// measure computes the metrics of a module.
func measure(m *module) *metrics {
	mt := &metrics{}
	pkgs := m.sorted()
	mt.packages = len(pkgs)
	mt.chain = longestChain(m, pkgs)
	used := uses(m)
	for _, p := range pkgs {
		if p.name == "main" {
			continue
		}
		for _, name := range exportedNames(p) {
			u := used[p.path+"."+name]
			mt.exports = append(mt.exports, export{pkg: m.rel(p.path), name: name, outside: u.any, prodUse: u.prod})
		}
	}
	return mt
}

// longestChain returns a longest chain of non-test imports among the module's
// packages, as paths relative to the module, the importer first.
func longestChain(m *module, pkgs []*pkg) []string {
	memo := map[string][]string{}
	var walk func(ip string) []string
	walk = func(ip string) []string {
		if c, ok := memo[ip]; ok {
			return c
		}
		memo[ip] = nil // a cycle cannot compile; this only stops the walk
		var best []string
		if p := m.pkgs[ip]; p != nil {
			for _, dep := range m.imports(p, false) {
				if c := walk(dep); len(c) > len(best) {
					best = c
				}
			}
		}
		c := append([]string{m.rel(ip)}, best...)
		memo[ip] = c
		return c
	}
	var best []string
	for _, p := range pkgs {
		if c := walk(p.path); len(c) > len(best) {
			best = c
		}
	}
	return best
}

// exportedNames lists the package-level exported identifiers of p's non-test files:
// functions (not methods), types, constants and variables, sorted, each once (a name
// declared per system counts once).
func exportedNames(p *pkg) []string {
	var out []string
	for _, f := range p.files {
		if f.test {
			continue
		}
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					out = append(out, d.Name.Name)
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							out = append(out, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								out = append(out, n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// use is how a package-level name is used from outside its package.
type use struct{ any, prod bool }

// uses finds every pkg.Name selector in the module naming one of the module's
// packages through a file's imports, keyed by "importpath.Name", counting only uses
// from another directory's package.
func uses(m *module) map[string]use {
	out := map[string]use{}
	for _, p := range m.pkgs {
		for _, f := range p.files {
			ast.Inspect(f.ast, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				ip, ok := f.imports[x.Name]
				if !ok || !m.own(ip) || ip == p.path {
					return true
				}
				k := ip + "." + sel.Sel.Name
				u := out[k]
				u.any = true
				u.prod = u.prod || !f.test
				out[k] = u
				return true
			})
		}
	}
	return out
}

// String renders the chain as "a → b → c".
func chainString(c []string) string { return strings.Join(c, " → ") }
