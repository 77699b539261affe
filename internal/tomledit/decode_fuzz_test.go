package tomledit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	toml "github.com/pelletier/go-toml/v2"
)

// matchGoTOML fails t unless Decode and toml.Unmarshal both refuse src, or both accept it and
// give equal data (NaN equal to NaN).
func matchGoTOML(t testing.TB, src []byte) {
	t.Helper()
	got, err := Decode(src)
	var want map[string]any
	werr := toml.Unmarshal(src, &want)
	switch {
	case err != nil && werr == nil:
		t.Fatalf("Decode refuses what go-toml accepts: %v\n%q", err, src)
	case err == nil && werr != nil:
		t.Fatalf("Decode accepts what go-toml refuses (%v)\n%q", werr, src)
	case err == nil && !equal(got, want):
		t.Fatalf("Decode gives %#v\ngo-toml gives %#v\n%q", got, want, src)
	}
}

// tomlTestCase is a document of the toml-test suite and whether it is valid TOML.
type tomlTestCase struct {
	name, input string
	valid       bool
}

// tomlTestSuite returns the toml-test documents go-toml's own tests embed (its generated
// toml_testgen_test.go, in the module cache), read with go/parser. Where there is no go
// command (the Windows tests .ci/run runs under wine), MCPWIRE_GOTOML_DIR names the
// module's directory.
func tomlTestSuite() ([]tomlTestCase, error) {
	dir := os.Getenv("MCPWIRE_GOTOML_DIR")
	if dir == "" {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/pelletier/go-toml/v2").Output()
		if err != nil {
			return nil, err
		}
		dir = strings.TrimSpace(string(out))
	}
	path := filepath.Join(dir, "toml_testgen_test.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, err
	}
	var cases []tomlTestCase
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		tc := tomlTestCase{name: fn.Name.Name}
		found := false
		for _, st := range fn.Body.List {
			switch st := st.(type) {
			case *ast.AssignStmt:
				if id, ok := st.Lhs[0].(*ast.Ident); ok && id.Name == "input" {
					if lit, ok := st.Rhs[0].(*ast.BasicLit); ok {
						tc.input, err = strconv.Unquote(lit.Value)
						found = err == nil
					}
				}
			case *ast.ExprStmt:
				if call, ok := st.X.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok {
						tc.valid = id.Name == "testgenValid"
					}
				}
			}
		}
		if found {
			cases = append(cases, tc)
		}
	}
	return cases, nil
}

// TestDecodeTOMLTestSuite runs every document of the toml-test suite (as go-toml v2.4.3 ships
// it) through Decode and toml.Unmarshal: they must agree on each.
func TestDecodeTOMLTestSuite(t *testing.T) {
	cases, err := tomlTestSuite()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 600 {
		t.Fatalf("only %d toml-test documents found", len(cases))
	}
	valid, asSpec := 0, 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { matchGoTOML(t, []byte(tc.input)) })
		if tc.valid {
			valid++
		}
		if _, err := Decode([]byte(tc.input)); (err == nil) == tc.valid {
			asSpec++
		}
	}
	t.Logf("%d toml-test documents (%d valid): Decode agrees with go-toml on all, with the suite on %d", len(cases), valid, asSpec)
}

// decodeSeeds returns the documents FuzzDecodeMatchesGoTOML starts from: the other fuzzers'
// seeds, the TOML fixtures, the tracker cases and the toml-test suite.
func decodeSeeds() []string {
	seeds := fuzzSeeds()
	for _, f := range fixtures.All() {
		if strings.HasSuffix(f.Name, ".toml") {
			seeds = append(seeds, string(fixtures.File(f.Name)))
		}
	}
	for _, tc := range trackerCases {
		seeds = append(seeds, tc.in)
	}
	suite, _ := tomlTestSuite()
	for _, tc := range suite {
		seeds = append(seeds, tc.input)
	}
	return seeds
}

// FuzzDecodeMatchesGoTOML checks that Decode accepts and refuses the documents toml.Unmarshal
// accepts and refuses, and decodes them to the same data.
func FuzzDecodeMatchesGoTOML(f *testing.F) {
	for _, s := range decodeSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { matchGoTOML(t, []byte(src)) })
}
