package mcpb_test

import (
	"crypto/x509"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb/mcpbtest"
)

var (
	signersOnce       sync.Once
	root, leaf, alone *mcpbtest.Signer
)

// signers makes the test certificates once: a CA and a certificate it issued, and
// a self-signed one.
func signers() {
	signersOnce.Do(func() {
		root = mcpbtest.NewSigner("mcpwire test root", nil, true)
		leaf = mcpbtest.NewSigner("mcpwire test publisher", root, false)
		alone = mcpbtest.NewSigner("self-signed publisher", nil, false)
	})
}

// spec: M3
func TestVerifySignature(t *testing.T) {
	signers()
	bundle := mcpbtest.Build(manifestEntry(), mcpbtest.Entry{Name: "server/index.js", Data: "x"})
	roots, none := x509.NewCertPool(), x509.NewCertPool()
	roots.AddCert(root.Cert)
	cases := []struct {
		name   string
		data   []byte
		roots  *x509.CertPool
		status string
		err    string
	}{
		{"unsigned", bundle, roots, "unsigned", ""},
		{"trusted chain", mcpbtest.Sign(bundle, leaf, root.Cert), roots, "signed", ""},
		{"self-signed", mcpbtest.Sign(bundle, alone), roots, "self-signed", ""},
		{"untrusted chain", mcpbtest.Sign(bundle, leaf, root.Cert), none, "untrusted", ""},
		{"tampered", tamper(mcpbtest.Sign(bundle, leaf, root.Cert)), roots, "", "was changed after it was signed"},
		{"truncated block", mcpbtest.Sign(bundle, leaf)[:len(bundle)+20], roots, "unsigned", ""},
		{"cut inside the block", cut(mcpbtest.Sign(bundle, leaf)), roots, "", "signature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			content, sig, err := mcpb.SplitSignature(tc.data)
			if err == nil {
				var s mcpb.Signature
				s, err = mcpb.Verify(content, sig, mcpb.VerifyOptions{Roots: tc.roots})
				if err == nil && s.Status != tc.status {
					t.Fatalf("status %q, want %q (%+v)", s.Status, tc.status, s)
				}
			}
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

// spec: M3
func TestOpenRefusesATamperedSignedBundle(t *testing.T) {
	signers()
	bundle := mcpbtest.Build(manifestEntry(), mcpbtest.Entry{Name: "server/index.js", Data: "console.log('original')", Store: true})
	signed := mcpbtest.Sign(bundle, alone)
	a, err := mcpb.Open(signed, mcpb.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcpb.Verify(a.Content, a.Signed, mcpb.VerifyOptions{}); err != nil {
		t.Fatalf("the signed bundle: %v", err)
	}
	evil := []byte(strings.Replace(string(signed), "original", "evil!!!!", 1))
	a, err = mcpb.Open(evil, mcpb.DefaultLimits)
	if err == nil {
		_, err = mcpb.Verify(a.Content, a.Signed, mcpb.VerifyOptions{})
	}
	if err == nil {
		t.Fatal("a changed signed bundle is accepted")
	}
}

// tamper flips a byte of the archive, before the signature block.
func tamper(b []byte) []byte {
	out := append([]byte{}, b...)
	out[40] ^= 0xff
	return out
}

// cut removes bytes from inside the signature block, keeping its footer.
func cut(b []byte) []byte {
	i := strings.Index(string(b), "MCPB_SIG_V1")
	return append(append([]byte{}, b[:i+30]...), b[i+40:]...)
}
