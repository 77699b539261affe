// Package secretref is the model of a reference to a secret store (SPEC §14, S1): a
// value that names where a credential is kept — op://VAULT/ITEM[/SECTION]/FIELD
// (1Password CLI), pass:PATH (pass), keyring:SERVICE/ACCOUNT (the OS credential
// store), file:PATH (a file only its owner reads) — and never the credential itself.
// A reference is not a credential (P1, P7): it may go into a committed file, into a
// process's arguments and into output. This package parses and checks references and
// spells the command lines that carry them (mcpwire exec, mcpwire headers); it does
// no I/O (internal/secretstore resolves them).
package secretref

import (
	"errors"
	"strings"
)

// Store is the kind of store a reference names.
type Store string

// The stores (S1).
const (
	OnePassword Store = "op"
	Pass        Store = "pass"
	Keyring     Store = "keyring"
	File        Store = "file"
)

// prefixes are the spellings a reference starts with, per store.
var prefixes = []struct {
	prefix string
	store  Store
}{
	{"op://", OnePassword},
	{"pass:", Pass},
	{"keyring:", Keyring},
	{"file:", File},
}

// Forms is how references are written, for messages and hints.
const Forms = "op://VAULT/ITEM[/SECTION]/FIELD, pass:PATH, keyring:SERVICE/ACCOUNT or file:PATH"

// MaxLen bounds a reference.
const MaxLen = 1024

// Ref is one parsed reference.
type Ref struct {
	Store Store
	// Path is what follows the prefix: VAULT/ITEM[/SECTION]/FIELD[?QUERY] (op), the
	// entry's path (pass), SERVICE/ACCOUNT (keyring), the file's path (file).
	Path string
}

// String is the reference as written.
func (r Ref) String() string {
	for _, p := range prefixes {
		if p.store == r.Store {
			return p.prefix + r.Path
		}
	}
	return ""
}

// Service and Account are a keyring reference's two parts: the service up to the
// first "/", the account after it.
func (r Ref) Service() string {
	s, _, _ := strings.Cut(r.Path, "/")
	return s
}

// Account is the part of a keyring reference after the service.
func (r Ref) Account() string {
	_, a, _ := strings.Cut(r.Path, "/")
	return a
}

// StoreOf returns the store a value's prefix names (op://, pass:, keyring:, file:),
// whether or not the rest is a valid reference.
func StoreOf(v string) (Store, bool) {
	for _, p := range prefixes {
		if strings.HasPrefix(v, p.prefix) {
			return p.store, true
		}
	}
	return "", false
}

// Is reports whether v is a valid reference.
func Is(v string) bool {
	if _, ok := StoreOf(v); !ok {
		return false
	}
	_, err := Parse(v)
	return err == nil
}

// Parse reads a reference. Its errors say what is wrong with it and never quote it: a
// credential pasted where its reference belongs must not be printed.
func Parse(v string) (Ref, error) {
	store, ok := StoreOf(v)
	if !ok {
		return Ref{}, errors.New("not a secret reference (" + Forms + ")")
	}
	r := Ref{Store: store, Path: v[len(prefixOf(store)):]}
	if len(v) > MaxLen {
		return Ref{}, errors.New("a secret reference is at most 1024 bytes")
	}
	if r.Path == "" {
		return Ref{}, errors.New("an empty " + string(store) + " reference")
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7f || strings.IndexByte(forbidden, c) >= 0 {
			return Ref{}, errors.New(`a secret reference may not hold control characters or any of $ { } " % ` + "`" + ` (a client or a shell would expand them)`)
		}
	}
	var err error
	switch store {
	case OnePassword:
		err = checkOp(r.Path)
	case Pass:
		err = checkPass(r.Path)
	case Keyring:
		err = checkKeyring(r.Path)
	case File:
		err = checkFile(r.Path)
	}
	if err != nil {
		return Ref{}, err
	}
	return r, nil
}

// forbidden are the bytes no reference holds: what a client expands in a value
// (${VAR}, {env:VAR}), and what a shell expands inside double quotes (cmd.exe's %VAR%,
// a POSIX shell's $ and `) in a headers helper's command line.
const forbidden = "${}\"%`"

func prefixOf(s Store) string {
	for _, p := range prefixes {
		if p.store == s {
			return p.prefix
		}
	}
	return ""
}

// checkOp checks VAULT/ITEM[/SECTION]/FIELD[?QUERY] (developer.1password.com,
// "Secret reference syntax"): three or four names of letters, digits, "-", "_", "."
// and spaces (or an item's or vault's ID), then optional query parameters
// (?attribute=otp, ?ssh-format=openssh).
func checkOp(p string) error {
	const shape = "an op:// reference is op://VAULT/ITEM[/SECTION]/FIELD, each name of letters, digits, '-', '_', '.' and spaces"
	path, query, hasQuery := strings.Cut(p, "?")
	parts := strings.Split(path, "/")
	if len(parts) < 3 || len(parts) > 4 {
		return errors.New(shape)
	}
	for _, part := range parts {
		if strings.TrimSpace(part) == "" || !allBytes(part, opNameByte) {
			return errors.New(shape)
		}
	}
	if hasQuery {
		for _, kv := range strings.Split(query, "&") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" || !allBytes(k, queryByte) || !allBytes(v, queryByte) {
				return errors.New("an op:// reference's query is NAME=VALUE pairs (?attribute=otp)")
			}
		}
	}
	return nil
}

func opNameByte(c byte) bool { return alnum(c) || c == '-' || c == '_' || c == '.' || c == ' ' }
func queryByte(c byte) bool  { return alnum(c) || c == '-' || c == '_' || c == '.' }

// checkPass checks a pass entry's path: relative to the store, "/"-separated names, no
// "." or ".." and no name starting with "-" (pass would read it as an option).
func checkPass(p string) error {
	if strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		return errors.New("a pass: reference is the entry's path inside the store (pass:mcpwire/github/token), without a leading or trailing '/'")
	}
	for _, name := range strings.Split(p, "/") {
		if name == "" || name == "." || name == ".." || strings.HasPrefix(name, "-") {
			return errors.New("a pass: reference's path has no empty, '.' or '..' name, and no name starting with '-'")
		}
	}
	return nil
}

// checkKeyring checks SERVICE/ACCOUNT: both non-empty, the service without "/",
// neither starting with "-".
func checkKeyring(p string) error {
	s, a, ok := strings.Cut(p, "/")
	if !ok || s == "" || a == "" || strings.HasPrefix(s, "-") || strings.HasPrefix(a, "-") {
		return errors.New("a keyring: reference is keyring:SERVICE/ACCOUNT, both non-empty and neither starting with '-'")
	}
	return nil
}

// checkFile checks an absolute path, in the spelling of any system (a registry is
// shared between machines): /…, C:\… or C:/…, or \\server\share\….
func checkFile(p string) error {
	switch {
	case strings.HasPrefix(p, "/"), strings.HasPrefix(p, `\\`):
	case len(p) > 2 && alpha(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/'):
	default:
		return errors.New("a file: reference names an absolute path (file:/run/secrets/token): a server starts in a directory of its client's choosing")
	}
	return nil
}

func alpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func alnum(c byte) bool { return alpha(c) || c >= '0' && c <= '9' }

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return s != ""
}
