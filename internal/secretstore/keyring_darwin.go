package secretstore

import (
	"context"
	"encoding/hex"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// The login keychain through security(1), a generic password of service SERVICE and
// account ACCOUNT:
//
//	get     security find-generic-password -s S -a A -w    the password and a line feed
//	check   the same, the value discarded
//	put     security -i, reading "add-generic-password -U -s S -a A -l LABEL -X HEX" on
//	        stdin: the password as hexadecimal, on stdin, never in argv
//	delete  security delete-generic-password -s S -a A
//
// Compiled and vetted on every run; not run here (docs/secrets.md).

func (s keyringStore) Get(ctx context.Context, r secretref.Ref) (string, error) {
	out, err := s.e.run(ctx, "security", []string{"find-generic-password", "-s", r.Service(), "-a", r.Account(), "-w"}, nil)
	if err != nil {
		if strings.Contains(err.Error(), "could not be found") {
			err.(*Error).Missing = true
		}
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

func (s keyringStore) Check(ctx context.Context, r secretref.Ref) error {
	_, err := s.Get(ctx, r)
	return err
}

func (s keyringStore) Put(ctx context.Context, r secretref.Ref, value string) error {
	line := "add-generic-password -U -s " + quoteSecurity(r.Service()) + " -a " + quoteSecurity(r.Account()) +
		" -l " + quoteSecurity(keyringLabel(r.Service(), r.Account())) + " -X " + hex.EncodeToString([]byte(value)) + "\n"
	_, err := s.e.run(ctx, "security", []string{"-i"}, []byte(line))
	return err
}

func (s keyringStore) Delete(ctx context.Context, r secretref.Ref) error {
	_, err := s.e.run(ctx, "security", []string{"delete-generic-password", "-s", r.Service(), "-a", r.Account()}, nil)
	return err
}

// quoteSecurity quotes a word for security's interactive mode (a reference holds no
// double quote).
func quoteSecurity(w string) string { return `"` + w + `"` }
