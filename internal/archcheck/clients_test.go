package main

import (
	"go/ast"
	"go/token"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
)

// clientFile is the file of package providers that holds a client: its name with
// "-" as "_" (claude-code: providers/claude_code.go).
func clientFile(name string) string {
	return "providers/" + strings.ReplaceAll(name, "-", "_") + ".go"
}

// dataDirs hold data about the clients, not code that works on them: the test
// fixtures, the benchmark generators and the conformance suite, which drives the real
// clients.
var dataDirs = []string{"fixtures/", "internal/benchgen/", "bench/", "conformance/"}

// helpFields are the members of a command's definition that hold its help text,
// which is documentation: it may name clients as examples. In a client's file, the
// members of its entry that say something to the person or cite its sources may name
// the clients it relates to (Continue CLI reads Continue's user file).
var helpFields = map[string]bool{"Usage": true, "UsageText": true, "Description": true, "ArgsUsage": true,
	"ProjectNote": true, "Absent": true, "NoEphemeral": true, "Sources": true}

// english are the names and aliases of clients that are also English words: they
// count only as a whole string ("cursor", not "a pagination cursor").
var english = map[string]bool{"code": true, "cursor": true, "continue": true, "factory": true, "amp": true,
	"warp": true, "goose": true, "crush": true, "zed": true}

// word matches a client's name, alias or display name as a whole word of a string: not inside a path, a file name or an address
// (claude-tool-permissions, opencode.json, code.claude.com).
func word(w string, display bool) *regexp.Regexp {
	q := regexp.QuoteMeta(w)
	if !display && english[w] {
		return regexp.MustCompile(`^` + q + `$`)
	}
	return regexp.MustCompile(`(^|[^A-Za-z0-9_./-])` + q + `($|[^A-Za-z0-9_./-])`)
}

// TestClientNamesStayInTheirFiles: a client's name, alias or display name is spelled
// only in its own file (providers/<client>.go), so that nothing else can branch on it:
// not in a comparison, a switch, a map key, a local constant or a message, whatever
// the package (issue 26). Help text, test files and the directories of data about the
// clients (fixtures, benchmark generators, the conformance suite) may name them. The
// compiler keeps the rest apart: the client types and the shape of their entries are
// package providers' own, and it exports no variable (no client, no spelling of one).
func TestClientNamesStayInTheirFiles(t *testing.T) {
	m := loadRoot(t)
	type vocab struct {
		client string
		re     *regexp.Regexp
		what   string
	}
	var words []vocab
	own := map[string][]*regexp.Regexp{} // a client file's own names, masked first
	for _, p := range providers.All() {
		file := clientFile(p.Name)
		b, err := os.ReadFile(path.Join(root, file))
		if err != nil || !strings.Contains(string(b), `Name: "`+p.Name+`"`) {
			t.Errorf("%s: its entry is not in %s", p.Name, file)
		}
		words = append(words, vocab{p.Name, word(p.Display, true), p.Display})
		own[file] = append(own[file], word(p.Display, true))
		for _, w := range append([]string{p.Name}, p.Aliases...) {
			words = append(words, vocab{p.Name, word(w, false), w})
			own[file] = append(own[file], word(w, false))
		}
	}
	for _, f := range m.pkgs[m.path+"/providers"].files {
		for _, d := range f.ast.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if n.IsExported() && !f.test && i < len(vs.Values) && clientValue(vs.Values[i]) {
							t.Errorf("%s: providers exports %s: a client, or its spelling, would be nameable outside its file", m.fset.Position(n.Pos()), n.Name)
						}
					}
				}
			}
		}
	}
	checked := 0
	for _, pk := range m.sorted() {
		for _, f := range pk.files {
			if f.test || inDataDir(f.name) {
				continue
			}
			help := helpLiterals(f.ast)
			ast.Inspect(f.ast, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || help[lit] {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				checked++
				for _, re := range own[f.name] {
					// its own names, which may hold another's (Continue CLI, Continue)
					s = re.ReplaceAllString(s, "$1 $2")
				}
				for _, v := range words {
					if f.name != clientFile(v.client) && v.re.MatchString(s) {
						t.Errorf("%s: %s names %s (%q), whose file is %s", m.fset.Position(lit.Pos()), strconv.Quote(s), v.client, v.what, clientFile(v.client))
					}
				}
				return true
			})
		}
	}
	if checked == 0 {
		t.Error("no string literal checked")
	}
}

// clientValue reports whether an expression is a client's entry or spelling: a
// Provider or a policy.Spelling literal.
func clientValue(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = u.X
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	switch t := cl.Type.(type) {
	case *ast.Ident:
		return t.Name == "Provider"
	case *ast.SelectorExpr:
		return t.Sel.Name == "Spelling"
	}
	return false
}

// inDataDir reports whether a file is data about the clients.
func inDataDir(name string) bool {
	for _, d := range dataDirs {
		if strings.HasPrefix(name, d) {
			return true
		}
	}
	return false
}

// helpLiterals are the string literals of a file that are help text: values of the
// helpFields of a composite literal, concatenated or not.
func helpLiterals(f *ast.File) map[*ast.BasicLit]bool {
	out := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		if k, ok := kv.Key.(*ast.Ident); !ok || !helpFields[k.Name] {
			return true
		}
		ast.Inspect(kv.Value, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok {
				out[lit] = true
			}
			return true
		})
		return true
	})
	return out
}
