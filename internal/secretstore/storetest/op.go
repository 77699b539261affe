package storetest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The 1Password CLI cannot be installed here (it is not in Debian, and it needs an
// account). OpMain is a stand-in program that keeps the contract mcpwire relies on
// (developer.1password.com/docs/cli/reference): "op read [--no-newline] [--] REF"
// prints the secret on stdout; "op item create --vault V [--format json] -" reads an
// item template on stdin; "op item delete ITEM --vault V"; every error is one
// "[ERROR] <date> <message>" line on stderr and exit status 1, in the wording of op 2
// for a missing vault, item or field and for a locked CLI. Its items live in the JSON
// file $MCPWIRE_OP_STANDIN ({"VAULT": {"ITEM": {"FIELD": "VALUE"}}}); the file
// $MCPWIRE_OP_STANDIN.locked makes it answer as when nobody is signed in; every call's
// arguments are appended to $MCPWIRE_OP_STANDIN.argv, one JSON array a line, for
// tests to check that no value ever travels there.
const OpVar = "MCPWIRE_OP_STANDIN"

// OpMain runs the stand-in with os.Args and returns its exit status.
func OpMain() int {
	store := os.Getenv(OpVar)
	if store == "" {
		return opFail("the stand-in needs " + OpVar)
	}
	if f, err := os.OpenFile(store+".argv", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		b, _ := json.Marshal(os.Args[1:])
		f.Write(append(b, '\n'))
		f.Close()
	}
	if _, err := os.Stat(store + ".locked"); err == nil {
		return opFail("You are not currently signed in. Please run `op signin --help` for instructions")
	}
	items := map[string]map[string]map[string]string{}
	if b, err := os.ReadFile(store); err == nil {
		if err := json.Unmarshal(b, &items); err != nil {
			return opFail("stand-in store: " + err.Error())
		}
	}
	args := os.Args[1:]
	switch {
	case len(args) >= 2 && args[0] == "read":
		return opRead(items, args[1:])
	case len(args) >= 2 && args[0] == "item" && args[1] == "create":
		return opCreate(store, items, args[2:])
	case len(args) >= 3 && args[0] == "item" && args[1] == "delete":
		return opDelete(store, items, args[2:])
	}
	return opFail(fmt.Sprintf("unknown command %q for \"op\"", strings.Join(args, " ")))
}

func opRead(items map[string]map[string]map[string]string, args []string) int {
	newline, ref := true, ""
	for _, a := range args {
		switch a {
		case "--no-newline", "-n":
			newline = false
		case "--":
		default:
			ref = a
		}
	}
	path, ok := strings.CutPrefix(ref, "op://")
	parts := strings.Split(path, "/")
	if !ok || len(parts) < 3 || len(parts) > 4 {
		return opFail("could not read secret '" + ref + "': invalid secret reference")
	}
	vault, item, field := parts[0], parts[1], parts[len(parts)-1]
	v, ok := items[vault]
	if !ok {
		return opFail(fmt.Sprintf("could not read secret '%s': error initializing client: %q isn't a vault in this account. Specify the vault with its ID or name.", ref, vault))
	}
	it, ok := v[item]
	if !ok {
		return opFail(fmt.Sprintf("could not read secret '%s': %q isn't an item in the %q vault. Specify the item with its UUID, name, or domain.", ref, item, vault))
	}
	value, ok := it[field]
	if !ok {
		return opFail(fmt.Sprintf("could not read secret '%s': item '%s/%s' does not have a field '%s'", ref, vault, item, field))
	}
	io.WriteString(os.Stdout, value)
	if newline {
		io.WriteString(os.Stdout, "\n")
	}
	return 0
}

func opCreate(store string, items map[string]map[string]map[string]string, args []string) int {
	vault := ""
	for i, a := range args {
		if a == "--vault" && i+1 < len(args) {
			vault = args[i+1]
		}
	}
	if vault == "" || args[len(args)-1] != "-" {
		return opFail("the stand-in takes op item create --vault VAULT [--format json] - (a template on stdin)")
	}
	var tmpl struct {
		Title  string `json:"title"`
		Fields []struct{ ID, Label, Value string }
	}
	if err := json.NewDecoder(os.Stdin).Decode(&tmpl); err != nil {
		return opFail("could not parse the item template: " + err.Error())
	}
	if items[vault] == nil {
		items[vault] = map[string]map[string]string{}
	}
	it := map[string]string{}
	for _, f := range tmpl.Fields {
		it[f.Label] = f.Value
	}
	items[vault][tmpl.Title] = it
	if err := opSave(store, items); err != nil {
		return opFail(err.Error())
	}
	fmt.Printf("{\"id\": \"standin%d\", \"title\": %q}\n", len(items[vault]), tmpl.Title)
	return 0
}

func opDelete(store string, items map[string]map[string]map[string]string, args []string) int {
	item, vault := args[0], ""
	for i, a := range args {
		if a == "--vault" && i+1 < len(args) {
			vault = args[i+1]
		}
	}
	if _, ok := items[vault][item]; !ok {
		return opFail(fmt.Sprintf("%q isn't an item in the %q vault. Specify the item with its UUID, name, or domain.", item, vault))
	}
	delete(items[vault], item)
	if err := opSave(store, items); err != nil {
		return opFail(err.Error())
	}
	return 0
}

func opSave(store string, items map[string]map[string]map[string]string) error {
	b, _ := json.Marshal(items)
	return os.WriteFile(store, b, 0o600)
}

func opFail(msg string) int {
	fmt.Fprintf(os.Stderr, "[ERROR] %s %s\n", time.Now().Format("2006/01/02 15:04:05"), msg)
	return 1
}

// Op puts the stand-in on a PATH directory of the test's own: a copy of the running
// test binary named op, whose TestMain must call OpMain when it is started by that
// name (IsOp). It returns the variables to run with: PATH with that directory first,
// and the stand-in's store file.
func Op(t testing.TB, dir string) []string {
	t.Helper()
	bin := filepath.Join(dir, "op-bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	name := "op"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	// a link where the system allows it; a copy on Windows, which keeps a link to a
	// running program (this test) from being removed with the test's directory
	if runtime.GOOS == "windows" || os.Link(self, filepath.Join(bin, name)) != nil {
		b, err := os.ReadFile(self)
		if err == nil {
			err = os.WriteFile(filepath.Join(bin, name), b, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), OpVar + "=" + filepath.Join(dir, "op-items.json")}
}

// IsOp reports whether this process was started as the stand-in.
func IsOp() bool {
	return strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") == "op"
}
