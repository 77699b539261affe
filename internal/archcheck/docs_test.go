package main

import (
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the module's directory, relative to this test.
const root = "../.."

// ruleLine is one definition of docs/rules.md: "- **W7** …".
var ruleLine = regexp.MustCompile(`(?m)^- \*\*([A-Z][0-9]{1,2}|§[0-9]{1,2})\*\*`)

// ruleID is a rule ID as the code and the docs cite it: a capital and a number from 1
// (C0, a class of control characters, is none).
var ruleID = regexp.MustCompile(`\b[A-Z][1-9][0-9]?\b`)

// sectionID is a section of the specification, cited as "SPEC §3" or on a spec: line.
var sectionID = regexp.MustCompile(`(?:SPEC |spec:[^§\n]*)(§[0-9]{1,2})`)

// definedRules reads the IDs docs/rules.md defines.
func definedRules(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range ruleLine.FindAllStringSubmatch(string(b), -1) {
		if out[m[1]] {
			t.Errorf("docs/rules.md defines %s twice", m[1])
		}
		out[m[1]] = true
	}
	return out
}

// citation is a rule ID cited in a file.
type citation struct{ id, where string }

// cite adds the IDs text cites.
func cite(out []citation, text, where string) []citation {
	for _, id := range ruleID.FindAllString(text, -1) {
		out = append(out, citation{id, where})
	}
	for _, m := range sectionID.FindAllStringSubmatch(text, -1) {
		out = append(out, citation{m[1], where})
	}
	return out
}

// citations lists the rule IDs cited by the repository: in every comment of every Go
// file (tests included), in the comment lines of the testscripts and shell scripts,
// and in the docs and the README (docs/rules.md aside).
func citations(t *testing.T, m *module) []citation {
	t.Helper()
	var out []citation
	for _, p := range m.pkgs {
		for _, f := range p.files {
			for _, cg := range f.ast.Comments {
				out = cite(out, cg.Text(), f.name)
			}
		}
	}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && rel != ".ci" && strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		script := strings.HasSuffix(rel, ".sh") || strings.HasSuffix(rel, ".txtar") || rel == ".ci/run"
		doc := strings.HasSuffix(rel, ".md") && rel != "docs/rules.md"
		if !script && !doc {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		if script {
			text = commentLines(text)
		} else {
			text = proseOf(text)
		}
		out = cite(out, text, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// commentLines keeps the "# …" lines of a script (a testscript's archive files
// after its first "-- name --" line are data, not script).
func commentLines(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "-- ") {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// proseOf drops a Markdown file's fenced code blocks: commands and their flags, a
// compiler's optimisation level among them, not citations.
func proseOf(text string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestRuleIDsDefined: every rule ID a comment, test, script or doc cites is defined in
// docs/rules.md, so the words of the code resolve in the repository (issue 26: the
// specification the IDs come from is not in it).
func TestRuleIDsDefined(t *testing.T) {
	defined := definedRules(t)
	cited := citations(t, loadRoot(t))
	seen := map[string]bool{}
	for _, c := range cited {
		seen[c.id] = true
		if !defined[c.id] {
			t.Errorf("%s cites %s, which docs/rules.md does not define", c.where, c.id)
			defined[c.id] = true // once
		}
	}
	if len(seen) < 100 {
		t.Errorf("only %d rule IDs cited: the scan misses the citations", len(seen))
	}
}

// mdLink is an inline Markdown link's target.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinksResolve: every relative link of the docs and the READMEs names a file or
// directory inside the repository.
func TestDocLinksResolve(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, "conformance", "README.md"))
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			p, err := filepath.Abs(filepath.Join(filepath.Dir(f), filepath.FromSlash(target)))
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, f)
			if r, err := filepath.Rel(abs, p); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				t.Errorf("%s links to %s, outside the repository", rel, m[1])
			} else if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links to %s, which does not exist", rel, m[1])
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links checked", checked)
	}
}

// decls indexes the names the module's Go files declare (tests included).
type decls struct {
	pkg     map[string]map[string]bool // package name → its package-level names
	members map[string]map[string]bool // type name → its methods and fields (any package)
	all     map[string]bool            // every name declared at any level
}

func indexDecls(m *module) *decls {
	d := &decls{pkg: map[string]map[string]bool{}, members: map[string]map[string]bool{}, all: map[string]bool{}}
	member := func(typ, name string) {
		if d.members[typ] == nil {
			d.members[typ] = map[string]bool{}
		}
		d.members[typ][name] = true
		d.all[name] = true
	}
	for _, p := range m.pkgs {
		for _, f := range p.files {
			name := f.ast.Name.Name
			if d.pkg[name] == nil {
				d.pkg[name] = map[string]bool{}
			}
			top := d.pkg[name]
			for _, decl := range f.ast.Decls {
				switch decl := decl.(type) {
				case *ast.FuncDecl:
					if decl.Recv == nil {
						top[decl.Name.Name] = true
						d.all[decl.Name.Name] = true
						continue
					}
					if typ := recvType(decl.Recv.List[0].Type); typ != "" {
						member(typ, decl.Name.Name)
					}
				case *ast.GenDecl:
					for _, s := range decl.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							top[s.Name.Name] = true
							d.all[s.Name.Name] = true
							for _, f := range fieldsOf(s.Type) {
								member(s.Name.Name, f)
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								top[n.Name] = true
								d.all[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return d
}

// recvType is the name of a method's receiver type.
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// fieldsOf lists the fields of a struct type and the methods of an interface type.
func fieldsOf(e ast.Expr) []string {
	var list *ast.FieldList
	switch x := e.(type) {
	case *ast.StructType:
		list = x.Fields
	case *ast.InterfaceType:
		list = x.Methods
	default:
		return nil
	}
	var out []string
	for _, f := range list.List {
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
		if len(f.Names) == 0 { // embedded: its type's name
			if n := recvType(f.Type); n != "" {
				out = append(out, n)
			} else if sel, ok := f.Type.(*ast.SelectorExpr); ok {
				out = append(out, sel.Sel.Name)
			}
		}
	}
	return out
}

var (
	backticked = regexp.MustCompile("`([^`\n]+)`")
	goName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	repoPath   = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?$`)
	allCaps    = regexp.MustCompile(`^[A-Z0-9_]+$`)
	// dataFile is the name of a file that is no Go code (a bundle's `manifest.json`),
	// which a package's name may begin
	dataFile = regexp.MustCompile(`\.(json|jsonc|toml|yaml|yml|md|txt|js|mcpb)$`)
)

// TestArchitectureNamesExist: every Go file, package, type, interface, function and
// member docs/architecture.md names in backticks exists — `render/reconcile.go`,
// `dialect.go`, `fsys.Target.Batch`, `Dialect`, `Provider.ReadersOf` — so the map of
// the code cannot outlive the code. Lower-case words alone (`tools`, a client's
// member) and environment variables are not checked; nor are the code blocks.
func TestArchitectureNamesExist(t *testing.T) {
	m := loadRoot(t)
	d := indexDecls(m)
	b, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	var goFiles []string
	for _, p := range m.pkgs {
		for _, f := range p.files {
			goFiles = append(goFiles, baseName(f.name))
		}
	}
	checked := 0
	fenced := false
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, sm := range backticked.FindAllStringSubmatch(line, -1) {
			name := strings.TrimSuffix(sm[1], "()")
			if why := checkName(d, goFiles, name); why != "" {
				t.Errorf("docs/architecture.md names `%s`, %s", sm[1], why)
			} else {
				checked++
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d names checked", checked)
	}
}

// baseName returns the base name of a slash path.
func baseName(name string) string { return name[strings.LastIndexByte(name, '/')+1:] }

// checkName says why name, taken from backticks, names nothing that exists ("" when it
// does, or when it is no name of the code).
func checkName(d *decls, goFiles []string, name string) string {
	if repoPath.MatchString(name) && strings.Contains(strings.TrimSuffix(name, "/"), "/") {
		top := name[:strings.IndexByte(name, '/')]
		if fi, err := os.Stat(filepath.Join(root, top)); err != nil || !fi.IsDir() {
			return "" // a client's path, not the repository's
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
			return "a path that does not exist"
		}
		return ""
	}
	if strings.HasSuffix(name, ".go") && !strings.Contains(name, "/") {
		if !slices.Contains(goFiles, name) {
			return "a Go file that does not exist"
		}
		return ""
	}
	if !goName.MatchString(name) || allCaps.MatchString(name) || dataFile.MatchString(name) {
		return ""
	}
	parts := strings.Split(name, ".")
	first := parts[0]
	if top, ok := d.pkg[first]; ok && first != "main" {
		switch {
		case len(parts) == 1:
		case !top[parts[1]]:
			return "but package " + first + " declares no " + parts[1]
		case len(parts) > 2 && !d.members[parts[1]][parts[2]]:
			return "but " + first + "." + parts[1] + " has no " + parts[2]
		}
		return ""
	}
	if first[0] < 'A' || first[0] > 'Z' {
		return "" // a lower-case word: a client's member, a command, a field of a file
	}
	switch {
	case !d.all[first]:
		return "which no Go file declares"
	case len(parts) > 1 && !d.members[first][parts[1]]:
		return "but " + first + " has no " + parts[1]
	}
	return ""
}
