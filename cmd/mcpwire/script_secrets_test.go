package main

import (
	"io"
	"os"
	"regexp"

	"github.com/rogpeppe/go-internal/testscript"
)

// Every script is searched for secrets it printed (S3, R8): each mcpwire run appends
// its stdout and stderr to a file of the script's (scriptOutputsVar) — all but the
// stdout of mcpwire headers, whose job is to print the values for a client — and at
// the script's end that file must hold none of the scripts' secret values: the values
// the secret stores hold (SENTINEL-…) and the literal credentials the secret scripts
// give (ghp_S1LITERAL…, sk-live-S5HEADER…). A script that checks one command's output
// checks it again here, and so does every command whose output it does not check.

// scriptOutputsVar names the file the scripts' mcpwire appends its output to.
const scriptOutputsVar = "MCPWIRE_SCRIPT_OUTPUTS"

// scriptSecret matches a secret value of the scripts.
func scriptSecret() *regexp.Regexp {
	return regexp.MustCompile(`SENTINEL|S[1-6](LITERAL|PASTED|IMPORT|HEADER|BEARER|OTHER|CRASH|KEYRING)`)
}

// setupScriptSecrets makes the script's output file and checks it at the end.
func setupScriptSecrets(e *testscript.Env) {
	path := e.WorkDir + ".outputs"
	e.Setenv(scriptOutputsVar, path)
	e.Defer(func() {
		b, err := os.ReadFile(path)
		if err != nil {
			return // no mcpwire ran
		}
		if loc := scriptSecret().FindIndex(b); loc != nil {
			start := max(0, loc[0]-60)
			e.T().Fatal("mcpwire printed a secret value: …" + string(b[start:loc[0]]) + "<HERE>")
		}
	})
}

// scriptOutputs returns w and the script's output file together (w alone outside the
// scripts), and what closes the file.
func scriptOutputs(w io.Writer) (io.Writer, func()) {
	path := os.Getenv(scriptOutputsVar)
	if path == "" {
		return w, func() {}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return w, func() {}
	}
	return io.MultiWriter(w, f), func() { f.Close() }
}
