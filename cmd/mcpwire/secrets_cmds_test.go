package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts' secret stores (S6): "passstore" makes a real password store with a
// throwaway GPG key (GNUPGHOME, PASSWORD_STORE_DIR set for the rest of the script;
// the agent stopped at its end) and "opstore" points the 1Password CLI stand-in, on
// PATH as op (storetest.OpMain), at a store file of the script's. A store whose
// programs are missing is the condition [!pass] (the script skips, saying why),
// unless MCPWIRE_REQUIRE_STORES is set (.ci/run installs them): then the condition
// holds and passstore fails.

// scriptCondition is the scripts' own conditions: pass, which never holds on Windows
// (pass is a Unix program: there exec_secrets_every_system_S2 and the crash test run
// the 1Password CLI's stand-in, owner-only files and Credential Manager).
func scriptCondition(cond string) (bool, error) {
	if cond == "pass" {
		return runtime.GOOS != "windows" && (storetest.Missing(storetest.PassPrograms...) == "" || os.Getenv(storetest.RequireVar) != ""), nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

func cmdPassStore(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: passstore")
	}
	if p := storetest.Missing(storetest.PassPrograms...); p != "" {
		ts.Fatalf("%s is not installed", p)
	}
	vars, cleanup, err := storetest.NewPass(ts.Getenv("WORK"))
	ts.Defer(cleanup)
	ts.Check(err)
	setVars(ts, vars)
}

func cmdOpStore(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: opstore")
	}
	ts.Setenv(storetest.OpVar, filepath.Join(ts.Getenv("WORK"), "op-items.json"))
}

func setVars(ts *testscript.TestScript, vars []string) {
	for _, kv := range vars {
		for i := 0; i < len(kv); i++ {
			if kv[i] == '=' {
				ts.Setenv(kv[:i], kv[i+1:])
				break
			}
		}
	}
}
