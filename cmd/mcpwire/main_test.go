package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
	"github.com/mcpwire/mcpwire/internal/winetest"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcpwire": func() { os.Exit(scriptMain()) },
		"mcptest": mcptestMain,
		// the 1Password CLI's stand-in (S6): secrets_cmds_test.go
		"op": func() { os.Exit(storetest.OpMain()) },
		// a fresh, small process that runs a command and reports its peak memory
		// (inject_memory_test.go)
		"maxrss": maxrssMain,
	})
}

// TestScripts runs the end-to-end scripts in testdata/script (SPEC Q2). Set
// MCPWIRE_UPDATE=1 to rewrite golden sections. Under wine a script that failed only
// because wine could not start a process runs again (runScripts).
func TestScripts(t *testing.T) {
	runScripts(t, scriptParams("testdata/script"))
}

func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("MCPWIRE_UPDATE") != "",
		Setup:               setupScript,
		Condition:           scriptCondition,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mode":     cmdMode,
			"snap":     cmdSnap,
			"inode":    cmdInode,
			"jsoneq":   cmdJSONEq,
			"count":    cmdCount,
			"glob":     cmdGlob,
			"hardlink": cmdHardlink,
			"replace":  cmdReplace,
			"template": cmdTemplate,
			"unwork":   cmdUnwork,
			// "winetest.Skip Symlinks": the scripts' winetest.Skip (internal/winetest)
			"winetest.Skip": cmdWineSkip,
			// hostile input (K1, K2, K8): hostile_cmds_test.go
			"crlf":    cmdCRLF,
			"hostile": cmdHostile,
			"mkfifo":  cmdMkfifo,
			// manifests (M3): mkmcpb_test.go
			"mkmcpb": cmdMkmcpb,
			// secret stores (S6): secrets_cmds_test.go
			"passstore": cmdPassStore,
			"opstore":   cmdOpStore,
		},
	}
}

// setupScript puts HOME and the other per-user locations inside the work directory.
func setupScript(e *testscript.Env) error {
	e.Values[scriptT{}] = e.T()
	setupScriptPaths(e)
	setupScriptSecrets(e)
	home := filepath.Join(e.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	e.Setenv("HOME", home)
	e.Setenv("USERPROFILE", home)
	e.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	// %APPDATA% is XDG_CONFIG_HOME: Claude Desktop's file, at $APPDATA/Claude on Windows
	// and $XDG_CONFIG_HOME/Claude on Linux, is at the same place for the scripts
	e.Setenv("APPDATA", filepath.Join(home, ".config"))
	e.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	e.Setenv("TMPDIR", filepath.Join(e.WorkDir, "tmp"))
	for _, k := range []string{"AIWG_CONFIG", "AIWG_CONFIG_LAYERS", "AIWG_MCP_CREDENTIAL_POLICY", "AIWG_ROOT",
		"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_DESKTOP_APP_VERSION", "GROK_HOME", "PI_CODING_AGENT_DIR", "GEMINI_CLI_HOME"} {
		e.Setenv(k, "")
	}
	// an aiwg command on PATH, as install of the built-in entry expects (U9); a script
	// that tests its absence removes it: rm $WORK/bin/aiwg
	bin := filepath.Join(e.WorkDir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(bin, "aiwg"+scriptExt), []byte(scriptBody), 0o755); err != nil {
		return err
	}
	e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
	return os.MkdirAll(filepath.Join(e.WorkDir, "tmp"), 0o755)
}

// cmdWineSkip is winetest.Skip for a script: "winetest.Skip Symlinks".
func cmdWineSkip(ts *testscript.TestScript, neg bool, args []string) {
	limitations := map[string]winetest.Limitation{"Symlinks": winetest.Symlinks, "Speed": winetest.Speed}
	l, ok := limitations[strings.Join(args, " ")]
	if neg || !ok {
		ts.Fatalf("usage: winetest.Skip Symlinks|Speed")
	}
	winetest.Skip(ts.Value(scriptT{}).(testscript.T), l)
}

// scriptT is the key of the script's testscript.T among its values (setupScript).
type scriptT struct{}

// cmdMode asserts a file's permission bits: mode 0600 FILE... The bits are those the
// system gives a file or directory written with PERM (fsys.EffectiveMode: on Windows,
// 0666 for 0600, 0777 for a 0700 directory). A FILE may be a pattern (filepath.Glob)
// that matches at least one file.
func cmdMode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: mode PERM FILE...")
	}
	perm, err := strconv.ParseUint(args[0], 8, 32)
	ts.Check(err)
	var files []string
	for _, f := range args[1:] {
		if m, _ := filepath.Glob(ts.MkAbs(f)); len(m) > 0 && strings.ContainsAny(f, "*?[") {
			files = append(files, m...)
		} else {
			files = append(files, f)
		}
	}
	for _, f := range files {
		fi, err := os.Lstat(ts.MkAbs(f))
		ts.Check(err)
		want := uint64(fsys.EffectiveMode(fs.FileMode(perm)))
		if fi.IsDir() {
			want = uint64(fsys.EffectiveDirMode(fs.FileMode(perm)))
		}
		got := uint64(fi.Mode().Perm())
		if (got == want) == neg {
			ts.Fatalf("%s: mode %04o, want %s%04o", f, got, map[bool]string{true: "not ", false: ""}[neg], want)
		}
	}
}

var snaps sync.Map // script-scoped key → map[path]digest

// cmdSnap records or compares the content and mode of every file under the given
// paths: "snap save KEY PATH..." then "snap check KEY" (fails naming each change).
func cmdSnap(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: snap save KEY PATH... | snap check KEY")
	}
	key := ts.Getenv("WORK") + "\x00" + args[1]
	switch args[0] {
	case "save":
		if neg {
			ts.Fatalf("unsupported: ! snap save")
		}
		roots := make([]string, 0, len(args)-2)
		for _, p := range args[2:] {
			roots = append(roots, ts.MkAbs(p))
		}
		snaps.Store(key, snapshot(ts, roots))
		snaps.Store(key+"\x00roots", roots)
	case "check":
		old, ok := snaps.Load(key)
		if !ok {
			ts.Fatalf("no snapshot %q", args[1])
		}
		roots, _ := snaps.Load(key + "\x00roots")
		cur := snapshot(ts, roots.([]string))
		diff := fixtures.DiffTree(old.(map[string]string), cur)
		if (len(diff) == 0) == neg {
			if neg {
				ts.Fatalf("snapshot %q: nothing changed", args[1])
			}
			ts.Fatalf("snapshot %q changed:\n%s", args[1], strings.Join(diff, "\n"))
		}
	default:
		ts.Fatalf("usage: snap save KEY PATH... | snap check KEY")
	}
}

func snapshot(ts *testscript.TestScript, roots []string) map[string]string {
	out := map[string]string{}
	for _, root := range roots {
		st, err := fixtures.TreeState(root)
		if err != nil && !os.IsNotExist(err) {
			ts.Fatalf("snapshot %s: %v", root, err)
		}
		for p, v := range st {
			out[p] = v
		}
	}
	return out
}

var inodes sync.Map

// cmdInode records a file's identity and mtime, or asserts they did not
// change: "inode save FILE" then "inode same FILE" (W6). The identity is
// os.SameFile's (inode and device on Unix, volume serial and file index on
// Windows), so the check runs on every OS.
func cmdInode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: inode save|same FILE")
	}
	p := ts.MkAbs(args[1])
	fi, err := os.Stat(p)
	ts.Check(err)
	// Windows reads the file index lazily, from the path, on the first
	// SameFile: compare fi with itself now so the saved one is this file's.
	_ = os.SameFile(fi, fi)
	switch args[0] {
	case "save":
		inodes.Store(p, fi)
	case "same":
		v, ok := inodes.Load(p)
		if !ok {
			ts.Fatalf("inode same %s: no inode save before", args[1])
		}
		old := v.(os.FileInfo)
		same := os.SameFile(old, fi) && old.ModTime().Equal(fi.ModTime())
		if same == neg {
			ts.Fatalf("%s: file identity/mtime %v, saved %v (same: %v)", args[1], fi.ModTime(), old.ModTime(), same)
		}
	default:
		ts.Fatalf("usage: inode save|same FILE")
	}
}
