// Package mcpbtest builds MCP bundles for tests: ZIP archives with any entry names,
// links and modes (the hostile ones included), and signature blocks as mcpb sign
// writes them (PKCS#7 SignedData, detached, SHA-256).
package mcpbtest

import (
	"archive/zip"
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/binary"
	"io/fs"
	"math/big"
	"time"
)

// Entry is one entry of a test bundle.
type Entry struct {
	Name string
	Data string
	// Mode is the entry's mode (0: 0644 for a file); fs.ModeSymlink makes Data the
	// link's target, fs.ModeDir a directory.
	Mode fs.FileMode
	// Store keeps the entry uncompressed.
	Store bool
}

// Build returns a ZIP archive of the entries, in order.
func Build(entries ...Entry) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate}
		if e.Store {
			h.Method = zip.Store
		}
		mode := e.Mode
		if mode == 0 {
			mode = 0o644
		}
		h.SetMode(mode)
		h.Modified = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		f, err := w.CreateHeader(h)
		if err != nil {
			panic(err)
		}
		if _, err := f.Write([]byte(e.Data)); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Manifest is a minimal valid manifest.json with the given server block (JSON).
func Manifest(name, version, server string) string {
	return `{"manifest_version":"0.3","name":"` + name + `","version":"` + version +
		`","description":"a test bundle","author":{"name":"mcpwire tests"},"server":` + server + `}`
}

// Signer is a certificate and its key.
type Signer struct {
	Key  *rsa.PrivateKey
	Cert *x509.Certificate
}

// NewSigner makes a self-signed code-signing certificate (parent nil) or one issued
// by parent.
func NewSigner(cn string, parent *Signer, ca bool) *Signer {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		IsCA:         ca, BasicConstraintsValid: true,
	}
	signerCert, signerKey := tmpl, key
	if parent != nil {
		signerCert, signerKey = parent.Cert, parent.Key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signerCert, &key.PublicKey, signerKey)
	if err != nil {
		panic(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	return &Signer{Key: key, Cert: cert}
}

type attribute struct {
	Type   asn1.ObjectIdentifier
	Values asn1.RawValue `asn1:"set"`
}

type issuerAndSerial struct {
	Issuer asn1.RawValue
	Serial *big.Int
}

type signerInfo struct {
	Version            int
	IssuerAndSerial    issuerAndSerial
	DigestAlgorithm    pkix.AlgorithmIdentifier
	AuthAttributes     asn1.RawValue
	SignatureAlgorithm pkix.AlgorithmIdentifier
	Signature          []byte
}

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
}

type signedData struct {
	Version          int
	DigestAlgorithms []pkix.AlgorithmIdentifier `asn1:"set"`
	ContentInfo      contentInfo
	Certificates     asn1.RawValue
	SignerInfos      []signerInfo `asn1:"set"`
}

type outerInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue
}

var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidData          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidContentType   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSHA256        = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidRSA           = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
)

func mustMarshal(v any) []byte {
	b, err := asn1.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Sign appends a signature block over data, signed by s, with the chain's other
// certificates.
func Sign(data []byte, s *Signer, chain ...*x509.Certificate) []byte {
	sum := sha256.Sum256(data)
	ctype := attribute{Type: oidContentType}
	ctype.Values = asn1.RawValue{Class: asn1.ClassUniversal, Tag: asn1.TagSet, IsCompound: true, Bytes: mustMarshal(oidData)}
	md := attribute{Type: oidMessageDigest, Values: asn1.RawValue{Class: asn1.ClassUniversal, Tag: asn1.TagSet, IsCompound: true, Bytes: mustMarshal(sum[:])}}
	attrs := append(mustMarshal(ctype), mustMarshal(md)...)
	set := mustMarshal(asn1.RawValue{Class: asn1.ClassUniversal, Tag: asn1.TagSet, IsCompound: true, Bytes: attrs})
	h := sha256.Sum256(set)
	sig, err := rsa.SignPKCS1v15(rand.Reader, s.Key, crypto.SHA256, h[:])
	if err != nil {
		panic(err)
	}
	certs := s.Cert.Raw
	for _, c := range chain {
		certs = append(append([]byte{}, certs...), c.Raw...)
	}
	sd := signedData{
		Version:          1,
		DigestAlgorithms: []pkix.AlgorithmIdentifier{{Algorithm: oidSHA256}},
		ContentInfo:      contentInfo{ContentType: oidData},
		Certificates:     asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: certs},
		SignerInfos: []signerInfo{{
			Version:            1,
			IssuerAndSerial:    issuerAndSerial{Issuer: asn1.RawValue{FullBytes: s.Cert.RawIssuer}, Serial: s.Cert.SerialNumber},
			DigestAlgorithm:    pkix.AlgorithmIdentifier{Algorithm: oidSHA256},
			AuthAttributes:     asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: attrs},
			SignatureAlgorithm: pkix.AlgorithmIdentifier{Algorithm: oidRSA},
			Signature:          sig,
		}},
	}
	der := mustMarshal(outerInfo{ContentType: oidSignedData, Content: asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: mustMarshal(sd)}})
	var out bytes.Buffer
	out.Write(data)
	out.WriteString("MCPB_SIG_V1")
	_ = binary.Write(&out, binary.LittleEndian, uint32(len(der)))
	out.Write(der)
	out.WriteString("MCPB_SIG_END")
	return out.Bytes()
}
