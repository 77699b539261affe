package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts spell paths the Unix way: $WORK/proj/.mcp.json, in arguments and in
// the output they expect. On Windows (the wine run of .ci/run, or a Windows machine)
// the harness makes that spelling hold for paths under the work directory, and only
// for them:
//
//   - $WORK is the work directory with forward slashes (C:/Users/.../script-x), which
//     Windows takes as well as backslashes, and which a regular expression can hold;
//   - the mcpwire of the scripts rewrites each path it prints that starts with the
//     work directory as Windows spells it (C:\Users\...\script-x\proj\.mcp.json) to
//     that form. A path whose rest already holds a forward slash (a mixed spelling,
//     C:\...\script-x\proj/.mcp.json, a defect) is left as printed, so is one quoted
//     with doubled backslashes (%q, another), except in a --json document on stdout,
//     where JSON itself doubles them.
//
// What the scripts check about Windows' own spelling, they check with the Go tests
// beside the code; docs/portability.md says so.
const scriptWorkVar = "MCPWIRE_SCRIPT_WORK"

// The scripts' variables for what differs between systems:
//
//	$root     the root of the filesystem holding $WORK (/, C:\)
//	$pathvar  how Go's "executable file not found in ..." names PATH ($PATH, %PATH%)
//	$cmdext   the extension of a command written as a script (none, .bat)
//	$q        the quote a launch line (a POSIX shell line) puts around a path under
//	          $WORK: none, or ' on Windows, whose paths hold backslashes
//	$diffwork $WORK as a dry run's diff names it after a/ and b/ (no leading slash)
//	$file0600, $dir0700  the modes a dry run shows for a new 0600 file and 0700
//	          directory (0666 and 0777 on Windows: fsys.EffectiveMode)
//
// The fake aiwg command on PATH is $WORK/bin/aiwg$cmdext.
var scriptExt, scriptBody = "", "#!/bin/sh\nexit 0\n"

func init() {
	if runtime.GOOS == "windows" {
		scriptExt, scriptBody = ".bat", "@exit /b 0\r\n"
	}
}

// setupScriptPaths sets $WORK (Windows: forward slashes) and the variables above, and
// tells the scripts' mcpwire what to rewrite (Windows only).
func setupScriptPaths(e *testscript.Env) {
	work, pathvar, q := e.WorkDir, "$PATH", ""
	if runtime.GOOS == "windows" {
		pathvar, q = "%PATH%", "'"
		e.Setenv("WORK", filepath.ToSlash(work))
		e.Setenv(scriptWorkVar, work)
	}
	e.Setenv("root", filepath.VolumeName(work)+string(filepath.Separator))
	e.Setenv("pathvar", pathvar)
	e.Setenv("cmdext", scriptExt)
	e.Setenv("q", q)
	e.Setenv("file0600", fmt.Sprintf("%04o", fsys.EffectiveMode(0o600)))
	e.Setenv("dir0700", fmt.Sprintf("%04o", fsys.EffectiveDirMode(0o700)))
	e.Setenv("diffwork", strings.TrimPrefix(filepath.ToSlash(work), "/"))
}

// scriptMain is the mcpwire command of the scripts.
func scriptMain() int {
	stdout, closeOut := scriptOutputs(os.Stdout)
	defer closeOut()
	stderr, closeErr := scriptOutputs(os.Stderr)
	defer closeErr()
	// the headers helper's stdout holds the values, for the client (S2)
	if code, ok := runDelivery(os.Args[1:], os.Stdout, stderr); ok {
		return code
	}
	env := NewOSEnv()
	env.Stdout, env.Stderr = stdout, stderr
	work := os.Getenv(scriptWorkVar)
	if work == "" {
		return Main(os.Args[1:], env)
	}
	out := &slashPaths{w: stdout, work: work, json: slices.Contains(os.Args[1:], "--json")}
	errs := &slashPaths{w: stderr, work: work}
	env.Stdout, env.Stderr = out, errs
	code := Main(os.Args[1:], env)
	out.Flush()
	errs.Flush()
	return code
}

// slashPaths rewrites, line by line, the paths under work that w receives (see above).
type slashPaths struct {
	w    io.Writer
	work string
	json bool
	buf  []byte
}

func (s *slashPaths) Write(p []byte) (int, error) {
	s.buf = append(s.buf, p...)
	if i := bytes.LastIndexByte(s.buf, '\n'); i >= 0 {
		text := s.rewrite(string(s.buf[:i+1]))
		s.buf = append(s.buf[:0], s.buf[i+1:]...)
		if _, err := io.WriteString(s.w, text); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what is left of an unfinished line.
func (s *slashPaths) Flush() {
	_, _ = io.WriteString(s.w, s.rewrite(string(s.buf)))
	s.buf = s.buf[:0]
}

func (s *slashPaths) rewrite(text string) string {
	if s.work == "" {
		return text
	}
	text = rewriteUnder(text, s.work, `\`)
	if s.json {
		text = rewriteUnder(text, s.work, `\\`)
	}
	return text
}

// rewriteUnder rewrites every path of text that starts with the directory work,
// spelled with the separator sep; the rest of the path ends at a line end, a quote,
// a colon, a comma or a bracket (not at a space: a path may hold one).
func rewriteUnder(text, work, sep string) string {
	spelled := strings.ReplaceAll(work, `\`, sep)
	slashed := strings.ReplaceAll(work, `\`, "/")
	var b strings.Builder
	for {
		i := strings.Index(text, spelled)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		rest := text[i+len(spelled):]
		end := strings.IndexAny(rest, "\t\r\n\"'`:,;()[]{}<>|")
		if end < 0 {
			end = len(rest)
		}
		if next := strings.Index(rest, " "+spelled); next >= 0 && next < end {
			end = next // another path under work on the line
		}
		b.WriteString(text[:i])
		if tail := rest[:end]; strings.Contains(tail, "/") {
			b.WriteString(spelled + tail)
		} else {
			b.WriteString(slashed + strings.ReplaceAll(tail, sep, "/"))
		}
		text = rest[end:]
	}
}

// TestSlashPaths: the rewriting of the scripts' mcpwire on Windows touches the paths
// under the work directory spelled the Windows way, and nothing else.
func TestSlashPaths(t *testing.T) {
	work := `C:\Users\me\Temp\script-x`
	for _, c := range []struct {
		in, want string
		json     bool
	}{
		{"wrote a to C:\\Users\\me\\Temp\\script-x\\proj\\.mcp.json (project scope)\n",
			"wrote a to C:/Users/me/Temp/script-x/proj/.mcp.json (project scope)\n", false},
		{"mcpwire: error: C:\\Users\\me\\Temp\\script-x\\a.json: invalid JSON\n",
			"mcpwire: error: C:/Users/me/Temp/script-x/a.json: invalid JSON\n", false},
		{"two: C:\\Users\\me\\Temp\\script-x and C:\\Users\\me\\Temp\\script-x\\b\n",
			"two: C:/Users/me/Temp/script-x and C:/Users/me/Temp/script-x/b\n", false},
		{"CODEX_HOME='C:\\Users\\me\\Temp\\script-x\\my codex\\rr' codex\n",
			"CODEX_HOME='C:/Users/me/Temp/script-x/my codex/rr' codex\n", false},
		// defects stay visible: a mixed spelling, doubled backslashes in text
		{"C:\\Users\\me\\Temp\\script-x\\proj/.mcp.json\n", "C:\\Users\\me\\Temp\\script-x\\proj/.mcp.json\n", false},
		{"layer \"C:\\\\Users\\\\me\\\\Temp\\\\script-x\\\\org\"\n", "layer \"C:\\\\Users\\\\me\\\\Temp\\\\script-x\\\\org\"\n", false},
		// JSON doubles them itself
		{"{\"path\": \"C:\\\\Users\\\\me\\\\Temp\\\\script-x\\\\org\\\\f.json\"}\n", "{\"path\": \"C:/Users/me/Temp/script-x/org/f.json\"}\n", true},
		// elsewhere: as printed
		{"D:\\other\\f.json C:\\Users\\me\\Temp\\script-y\n", "D:\\other\\f.json C:\\Users\\me\\Temp\\script-y\n", false},
	} {
		var b bytes.Buffer
		s := &slashPaths{w: &b, work: work, json: c.json}
		for _, r := range []byte(c.in) { // one byte at a time: lines are kept whole
			if _, err := s.Write([]byte{r}); err != nil {
				t.Fatal(err)
			}
		}
		s.Flush()
		if b.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, b.String(), c.want)
		}
	}
}
