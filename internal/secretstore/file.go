package secretstore

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// maxFile bounds a secret file.
const maxFile = 1 << 20

// fileStore reads file:PATH, a file only its owner may read or write (as container
// secrets are mounted, /run/secrets/NAME): its content without one final line feed.
// Symbolic links are followed (Kubernetes mounts secrets as links into ..data); the
// file they reach must be a regular file, owner-only on Unix (ownerOnly), of at most
// 1 MiB. mcpwire never writes such files (import --secrets-to takes pass, keyring
// and op).
type fileStore struct{}

func (fileStore) Get(_ context.Context, r secretref.Ref) (string, error) {
	f, err := open(r.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return "", &Error{Msg: err.Error()}
	}
	if len(b) > maxFile {
		return "", &Error{Msg: "the file is larger than 1 MiB"}
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

func (fileStore) Check(_ context.Context, r secretref.Ref) error {
	f, err := open(r.Path)
	if err != nil {
		return err
	}
	return f.Close()
}

func (fileStore) Put(context.Context, secretref.Ref, string) error {
	return &Error{Msg: "mcpwire does not write secret files; store into pass, keyring or op"}
}

func (fileStore) Delete(context.Context, secretref.Ref) error {
	return &Error{Msg: "mcpwire does not remove secret files"}
}

// open opens a secret file after checking what it is.
func open(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, &Error{Msg: "no such file", Missing: true}
		}
		return nil, &Error{Msg: strings.TrimPrefix(err.Error(), "open "+path+": ")}
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &Error{Msg: "not a regular file"}
	}
	if err == nil {
		err = ownerOnly(fi)
	}
	if err != nil {
		f.Close()
		if _, ok := err.(*Error); !ok {
			err = &Error{Msg: err.Error()}
		}
		return nil, err
	}
	return f, nil
}
