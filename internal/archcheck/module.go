package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// module is the Go source of the module at a root, read as text: every .go file of
// every directory, whatever its build constraints (the Windows and macOS files count
// as much as the Linux ones), parsed without type checking.
type module struct {
	root, path string // its directory and module path
	pkgs       map[string]*pkg
	fset       *token.FileSet
}

// pkg is one directory's package: its own files, and those of its external test
// package (package x_test) apart.
type pkg struct {
	path   string // import path
	dir    string // slash path relative to the module root ("." for the root)
	name   string // package name of its non-test files
	files  []*file
	hasSrc bool // it has a non-test file: it is a package others can import
}

// file is one parsed Go file.
type file struct {
	name    string // slash path relative to the module root
	test    bool   // a _test.go file (of the package or its external test package)
	ast     *ast.File
	imports map[string]string // the name a file uses for an import → its path
}

// loadModule reads the module at root.
func loadModule(root string) (*module, error) {
	modPath, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	m := &module{root: root, path: modPath, pkgs: map[string]*pkg{}, fset: token.NewFileSet()}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		return m.add(p, rel)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// add parses one file into its directory's package.
func (m *module) add(abs, rel string) error {
	f, err := parser.ParseFile(m.fset, abs, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	if ignored(f) {
		return nil
	}
	dir := path.Dir(rel)
	ip := m.path
	if dir != "." {
		ip += "/" + dir
	}
	p := m.pkgs[ip]
	if p == nil {
		p = &pkg{path: ip, dir: dir}
		m.pkgs[ip] = p
	}
	fl := &file{name: rel, test: strings.HasSuffix(rel, "_test.go"), ast: f, imports: map[string]string{}}
	for _, is := range f.Imports {
		ipath, _ := strconv.Unquote(is.Path.Value)
		name := path.Base(ipath)
		if is.Name != nil {
			name = is.Name.Name
		} else if v := path.Base(ipath); strings.HasPrefix(v, "v") && len(ipath) > len(v)+1 {
			if _, err := strconv.Atoi(v[1:]); err == nil {
				name = path.Base(path.Dir(ipath)) // module/v2
			}
		}
		fl.imports[name] = ipath
	}
	if !fl.test {
		p.hasSrc = true
		p.name = f.Name.Name
	}
	p.files = append(p.files, fl)
	return nil
}

// ignored reports a file excluded from every build (//go:build ignore).
func ignored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if c.Text == "//go:build ignore" {
				return true
			}
		}
	}
	return false
}

// modulePath reads the module line of a go.mod file.
func modulePath(gomod string) (string, error) {
	fh, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

// own reports whether an import path is a package of the module.
func (m *module) own(ip string) bool {
	return ip == m.path || strings.HasPrefix(ip, m.path+"/")
}

// rel returns an import path relative to the module ("." for the module itself).
func (m *module) rel(ip string) string {
	if ip == m.path {
		return "."
	}
	return strings.TrimPrefix(ip, m.path+"/")
}

// sorted returns the packages others can import (those with non-test files), by path.
func (m *module) sorted() []*pkg {
	var out []*pkg
	for _, p := range m.pkgs {
		if p.hasSrc {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *pkg) int { return strings.Compare(a.path, b.path) })
	return out
}

// imports returns the module's packages p imports from its non-test files (test
// false) or from its test files (test true), sorted and without repeats.
func (m *module) imports(p *pkg, test bool) []string {
	var out []string
	for _, f := range p.files {
		if f.test != test {
			continue
		}
		for _, ip := range f.imports {
			if m.own(ip) && ip != p.path {
				out = append(out, ip)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
