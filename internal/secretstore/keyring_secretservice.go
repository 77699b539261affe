//go:build !darwin && !windows

package secretstore

import (
	"context"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// The Secret Service (freedesktop.org; gnome-keyring, KeePassXC, KWallet) through
// libsecret's secret-tool, attributes service=SERVICE username=ACCOUNT:
//
//	get     secret-tool lookup service S username A    the secret on stdout; exit 1 and
//	        no output when there is none
//	check   the same, the value discarded
//	put     secret-tool store --label=… service S username A, the value on stdin
//	delete  secret-tool clear service S username A

func keyringAttrs(r secretref.Ref) []string {
	return []string{"service", r.Service(), "username", r.Account()}
}

func (s keyringStore) Get(ctx context.Context, r secretref.Ref) (string, error) {
	out, err := s.e.run(ctx, "secret-tool", append([]string{"lookup"}, keyringAttrs(r)...), nil)
	if err != nil {
		if err.(*Error).Msg == "secret-tool: exit status 1" {
			return "", &Error{Msg: "secret-tool: no such item in the Secret Service (service " + r.Service() + ", username " + r.Account() + ")", Missing: true}
		}
		return "", err
	}
	return string(out), nil
}

func (s keyringStore) Check(ctx context.Context, r secretref.Ref) error {
	_, err := s.Get(ctx, r)
	return err
}

func (s keyringStore) Put(ctx context.Context, r secretref.Ref, value string) error {
	args := append([]string{"store", "--label=" + keyringLabel(r.Service(), r.Account())}, keyringAttrs(r)...)
	_, err := s.e.run(ctx, "secret-tool", args, []byte(value))
	return err
}

func (s keyringStore) Delete(ctx context.Context, r secretref.Ref) error {
	_, err := s.e.run(ctx, "secret-tool", append([]string{"clear"}, keyringAttrs(r)...), nil)
	return err
}
