package secretstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// passStore is pass, the standard Unix password manager (passwordstore.org): one
// GPG-encrypted file per entry under $PASSWORD_STORE_DIR (default ~/.password-store),
// whose first line is the password.
//
//	get     pass show -- PATH             the first line of its output
//	check   PATH.gpg is a file of the store (nothing is decrypted)
//	put     pass insert --multiline --force -- PATH, the value and a line feed on stdin
//	delete  pass rm --force -- PATH
type passStore struct{ e Env }

func (s passStore) Get(ctx context.Context, r secretref.Ref) (string, error) {
	out, err := s.e.run(ctx, "pass", []string{"show", "--", r.Path}, nil)
	if err != nil {
		if strings.Contains(err.Error(), "is not in the password store") {
			err.(*Error).Missing = true
		}
		return "", err
	}
	return firstLine(string(out)), nil
}

// Check looks for the entry's file: whether it can be decrypted shows when the server
// starts, and a check never asks for a passphrase.
func (s passStore) Check(_ context.Context, r secretref.Ref) error {
	dir := s.dir()
	fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(r.Path)+".gpg"))
	switch {
	case err == nil && fi.Mode().IsRegular():
		return nil
	case err == nil || os.IsNotExist(err):
		return &Error{Msg: "pass: no such entry in the password store " + dir, Missing: true}
	}
	return &Error{Msg: "pass: " + err.Error()}
}

func (s passStore) Put(ctx context.Context, r secretref.Ref, value string) error {
	if strings.ContainsAny(value, "\r\n") {
		return &Error{Msg: "pass keeps the password on an entry's first line, and this value has several lines"}
	}
	_, err := s.e.run(ctx, "pass", []string{"insert", "--multiline", "--force", "--", r.Path}, []byte(value+"\n"))
	return err
}

func (s passStore) Delete(ctx context.Context, r secretref.Ref) error {
	_, err := s.e.run(ctx, "pass", []string{"rm", "--force", "--", r.Path}, nil)
	return err
}

// dir is the password store's directory.
func (s passStore) dir() string {
	if d := s.e.getenv("PASSWORD_STORE_DIR"); d != "" {
		return d
	}
	return filepath.Join(s.e.Home, ".password-store")
}
