package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdCount asserts how many regular files a directory holds (not recursive): "count N
// DIR" (a missing directory holds none). Ownership records are counted this way
// (SPEC C3: aliases share one record).
func cmdCount(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: count N DIR")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	entries, err := os.ReadDir(ts.MkAbs(args[1]))
	if err != nil && !os.IsNotExist(err) {
		ts.Fatalf("%v", err)
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() {
			n++
		}
	}
	if (n == want) == neg {
		ts.Fatalf("%s holds %d files, want %s%d", args[1], n, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// cmdGlob does what the scripts once asked of sh, on every system: "glob write PATTERN
// TEXT" writes TEXT into each file PATTERN matches and prints its name, "glob rm
// PATTERN" removes them, "glob cat PATTERN" prints their content (nothing when none
// matches). PATTERN is relative to the script's directory (filepath.Glob); write and
// rm need a match.
func cmdGlob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || (args[0] == "write") != (len(args) == 3) {
		ts.Fatalf("usage: glob write PATTERN TEXT | glob rm PATTERN | glob cat PATTERN")
	}
	names, err := filepath.Glob(ts.MkAbs(args[1]))
	ts.Check(err)
	out := ts.Stdout() // empty, not the last command's, when nothing matches
	if len(names) == 0 && args[0] != "cat" {
		ts.Fatalf("glob %s: no file matches", args[1])
	}
	for _, n := range names {
		switch args[0] {
		case "write":
			ts.Check(os.WriteFile(n, []byte(args[2]), 0o600))
			fmt.Fprintln(out, filepath.ToSlash(n))
		case "rm":
			ts.Check(os.Remove(n))
		case "cat": // JSON, its paths under $WORK as the scripts spell them (script_paths_test.go)
			w := &slashPaths{w: out, work: ts.Getenv(scriptWorkVar), json: true}
			fmt.Fprint(w, ts.ReadFile(n))
			w.Flush()
		default:
			ts.Fatalf("usage: glob write PATTERN TEXT | glob rm PATTERN | glob cat PATTERN")
		}
	}
}

// cmdReplace edits a file in place, as sed -i did: "replace FILE REGEXP TEXT" replaces
// every match of REGEXP (Go syntax; (?m) for lines, \z for the end) with TEXT, in
// which \n is a line end and $1 a group. The file keeps its mode.
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE REGEXP TEXT")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	name := ts.MkAbs(args[0])
	fi, err := os.Stat(name)
	ts.Check(err)
	text := re.ReplaceAllString(ts.ReadFile(args[0]), strings.ReplaceAll(args[2], `\n`, "\n"))
	ts.Check(os.WriteFile(name, []byte(text), fi.Mode().Perm()))
}

// cmdHardlink makes NEW a hard link to OLD, as ln does: "hardlink OLD NEW".
func cmdHardlink(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hardlink OLD NEW")
	}
	ts.Check(os.Link(ts.MkAbs(args[0]), ts.MkAbs(args[1])))
}

// cmdTemplate copies SRC to DST with each @NAME@ replaced by the script's variable
// NAME: "template mcp.tmpl .mcp.json" writes @WORK@ as $WORK. ($VARIABLES stay: a
// client file holds its own.)
func cmdTemplate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: template SRC DST")
	}
	text := regexp.MustCompile(`@[A-Za-z_][A-Za-z0-9_]*@`).ReplaceAllStringFunc(ts.ReadFile(args[0]), func(m string) string {
		return ts.Getenv(strings.Trim(m, "@"))
	})
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(text), 0o644))
}

// cmdUnwork writes FILE (or stdout, stderr) to OUT with the work directory written
// $WORK, as a golden section spells it: "unwork stdout got.txt" then "cmp got.txt
// want.txt" compares with a section MCPWIRE_UPDATE=1 can rewrite (testscript rewrites
// what cmp compares, not what cmpenv does). With NAMEs after OUT ("unwork stdout
// got.txt codex cursor"), only the paragraphs of FILE (blank-line separated) whose
// first word is one of them are written, in FILE's order: a listing of every client
// pinned for some of them, which a new client leaves as it is.
func cmdUnwork(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: unwork FILE OUT [NAME...]")
	}
	text := strings.ReplaceAll(ts.ReadFile(args[0]), ts.Getenv("WORK"), "$WORK")
	if names := args[2:]; len(names) > 0 {
		var kept []string
		found := map[string]bool{}
		for _, block := range strings.Split(text, "\n\n") {
			first, _, _ := strings.Cut(block, " ")
			if slices.Contains(names, first) {
				kept = append(kept, strings.TrimSuffix(block, "\n"))
				found[first] = true
			}
		}
		for _, n := range names {
			if !found[n] {
				ts.Fatalf("unwork: no paragraph of %s starts with %s", args[0], n)
			}
		}
		text = strings.Join(kept, "\n\n") + "\n"
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(text), 0o644))
}
