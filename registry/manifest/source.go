package manifest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/hint"
)

// Fetcher downloads an https address, at most limit bytes (more is an error).
type Fetcher func(address string, limit int64) ([]byte, error)

// HTTPFetcher fetches with a client (http.DefaultClient when nil): https only, a
// 200 answer, within two minutes.
func HTTPFetcher(c *http.Client) Fetcher {
	if c == nil {
		c = http.DefaultClient
	}
	return func(address string, limit int64) ([]byte, error) {
		u, err := url.Parse(address)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return nil, fmt.Errorf("%s: only https addresses are fetched", Redact(address))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", Redact(address), errors.Unwrap(err))
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s: the server answered %s", Redact(address), resp.Status)
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", Redact(address), err)
		}
		if int64(len(b)) > limit {
			return nil, fmt.Errorf("%s: larger than %d bytes", Redact(address), limit)
		}
		return b, nil
	}
}

// Redact is an address as mcpwire prints and records it: without userinfo, query
// and fragment, which may carry credentials.
func Redact(address string) string {
	u, err := url.Parse(address)
	if err != nil {
		return "the address"
	}
	u.User, u.RawQuery, u.Fragment, u.RawFragment = nil, "", "", ""
	return u.String()
}

// Source is what --from gave.
type Source struct {
	// Data is its content; Origin the file's absolute path, the address (Redact) or
	// "-" for standard input.
	Data   []byte
	Origin string
	// URL reports that Origin is an address.
	URL bool
}

// ReadSource reads --from: a file (relative to cwd), "-" for stdin, or an https
// address through fetch (nil: offline). At most limit bytes.
func ReadSource(from string, stdin io.Reader, f fsys.FS, cwd string, fetch Fetcher, limit int64) (*Source, error) {
	switch {
	case from == "-":
		b, err := io.ReadAll(io.LimitReader(stdin, limit+1))
		if err != nil {
			return nil, fmt.Errorf("--from -: %v", err)
		}
		if int64(len(b)) > limit {
			return nil, fmt.Errorf("--from -: larger than %d bytes", limit)
		}
		return &Source{Data: b, Origin: "-"}, nil
	case strings.HasPrefix(from, "http://"):
		return nil, fmt.Errorf("--from %s: mcpwire fetches https addresses only", Redact(from))
	case strings.HasPrefix(from, "https://"):
		if fetch == nil {
			return nil, hint.Wrap(fmt.Errorf("--from %s: fetching an address needs the network", Redact(from)), "download it and give the file: --from FILE")
		}
		b, err := fetch(from, limit)
		if err != nil {
			return nil, err
		}
		return &Source{Data: b, Origin: Redact(from), URL: true}, nil
	}
	p := from
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	fi, err := f.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("--from %s: %v", from, unwrapPath(err))
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("--from %s: a directory, not a file", from)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("--from %s: %d bytes, over the limit of %d", from, fi.Size(), limit)
	}
	b, err := f.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("--from %s: %v", from, unwrapPath(err))
	}
	return &Source{Data: b, Origin: p}, nil
}

func unwrapPath(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// Kinds of a source.
const (
	KindServerJSON = "server.json"
	KindListing    = "listing"
	KindBundle     = "mcpb"
)

// Classify tells a bundle (a ZIP archive) from a listing and a server.json.
func Classify(data []byte) string {
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")) {
		return KindBundle
	}
	if IsListing(bytes.TrimPrefix(data, []byte("\ufeff"))) {
		return KindListing
	}
	return KindServerJSON
}
