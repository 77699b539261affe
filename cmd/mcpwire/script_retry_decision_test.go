package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestWineStartFailure(t *testing.T) {
	const startFailed = "> exec mcpwire import claude-desktop\n" +
		`[fork/exec C:\users\root\Temp\testscript-main4211179595\bin\mcpwire.exe: Internal error.]` + "\n" +
		"FAIL: testdata\\script\\import_claude_desktop_B1.txtar:14: unexpected command failure\n"
	for _, tc := range []struct {
		name   string
		failed bool
		log    string
		want   bool
	}{
		{"wine's start failure", true, startFailed, true},
		{"passed, message in log", false, startFailed, false},
		{"genuine failure", true, "> exec mcpwire list\n[exit status 1]\nFAIL: testdata/script/list.txtar:3: unexpected command failure\n", false},
		{"other start failure", true, "> exec mcpwire list\n[fork/exec C:\\bin\\mcpwire.exe: Access is denied.]\nFAIL: x.txtar:1: unexpected command failure\n", false},
		{"message in the program's output", true, "> exec mcpwire list\n[stderr]\nmcpwire: error: fork/exec x: Internal error.\n[exit status 1]\nFAIL: x.txtar:1: unexpected command failure\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := wineStartFailure(tc.failed, tc.log); got != tc.want {
				t.Errorf("wineStartFailure(%v, %q) = %v, want %v", tc.failed, tc.log, got, tc.want)
			}
		})
	}
}

// TestScriptRetry runs a script whose command fails as wine's start failure twice,
// then passes: runScriptRetrying runs it three times and the test passes.
func TestScriptRetry(t *testing.T) {
	script := filepath.Join(t.TempDir(), "flaky.txtar")
	if err := os.WriteFile(script, []byte("flaky\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := 0
	runScriptRetrying(t, testscript.Params{
		Files: []string{script},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"flaky": func(ts *testscript.TestScript, neg bool, args []string) {
				if runs++; runs <= scriptRetries {
					ts.Logf(`[fork/exec C:\bin\mcpwire.exe: Internal error.]`)
					ts.Fatalf("unexpected command failure")
				}
			},
		},
	})
	if runs != scriptRetries+1 {
		t.Errorf("the script ran %d times, want %d", runs, scriptRetries+1)
	}
}
