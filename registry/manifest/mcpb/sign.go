package mcpb

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// A signed bundle (CLI.md, `mcpb sign`) is the ZIP archive followed by a signature
// block: "MCPB_SIG_V1", the length of a DER PKCS#7 SignedData as 4 bytes little
// endian, that SignedData (detached, SHA-256, over the archive's bytes, with the
// signing certificate and any intermediates), and "MCPB_SIG_END".
const (
	sigHeader = "MCPB_SIG_V1"
	sigFooter = "MCPB_SIG_END"
)

// SignatureBlock is the PKCS#7 data of a signed bundle.
type SignatureBlock struct{ DER []byte }

// SplitSignature separates a signed bundle's archive from its signature block (nil
// when the file ends with none). A block that starts but is cut or malformed is
// refused: it is a tampered or truncated signed bundle, not an unsigned one.
func SplitSignature(data []byte) (content []byte, sig *SignatureBlock, err error) {
	if !bytes.HasSuffix(data, []byte(sigFooter)) {
		return data, nil, nil
	}
	body := data[:len(data)-len(sigFooter)]
	h := bytes.LastIndex(body, []byte(sigHeader))
	if h < 0 {
		return nil, nil, refuse("", "the signature block has no %s header", sigHeader)
	}
	rest := body[h+len(sigHeader):]
	if len(rest) < 4 {
		return nil, nil, refuse("", "the signature block is truncated")
	}
	n := binary.LittleEndian.Uint32(rest)
	if uint64(n) != uint64(len(rest)-4) {
		return nil, nil, refuse("", "the signature block's length does not match its content")
	}
	return data[:h], &SignatureBlock{DER: rest[4:]}, nil
}

// Signature says what a bundle's signature proves.
type Signature struct {
	// Status is "unsigned", "self-signed" (valid, by a certificate that signed
	// itself), "untrusted" (valid, by a certificate this system's roots do not
	// vouch for as a code-signing one) or "signed" (valid, and the chain verifies
	// against this system's roots for code signing).
	Status string
	// Publisher and Issuer are the signing certificate's subject and issuer common
	// names; Fingerprint its SHA-256; Reason why a valid signature is not trusted.
	Publisher, Issuer, Fingerprint, Reason string
}

// OIDs of PKCS#7 and the algorithms mcpb sign uses.
var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidData          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidContentType   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSHA256        = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidRSA           = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidSHA256WithRSA = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidECDSASHA256   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
)

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"explicit,optional,tag:0"`
}

type signedData struct {
	Version          int
	DigestAlgorithms []pkix.AlgorithmIdentifier `asn1:"set"`
	ContentInfo      contentInfo
	Certificates     asn1.RawValue `asn1:"optional,tag:0"`
	CRLs             asn1.RawValue `asn1:"optional,tag:1"`
	SignerInfos      []signerInfo  `asn1:"set"`
}

type signerInfo struct {
	Version            int
	IssuerAndSerial    issuerAndSerial
	DigestAlgorithm    pkix.AlgorithmIdentifier
	AuthAttributes     asn1.RawValue `asn1:"optional,tag:0"`
	SignatureAlgorithm pkix.AlgorithmIdentifier
	Signature          []byte
	UnauthAttributes   asn1.RawValue `asn1:"optional,tag:1"`
}

type issuerAndSerial struct {
	Issuer asn1.RawValue
	Serial *big.Int
}

type attribute struct {
	Type   asn1.ObjectIdentifier
	Values asn1.RawValue `asn1:"set"`
}

// VerifyOptions are what a certificate chain is checked against.
type VerifyOptions struct {
	// Roots are the trusted roots; nil uses this system's.
	Roots *x509.CertPool
	// Now is the time the certificates must be valid at (zero: now).
	Now time.Time
}

// Verify checks a bundle's signature: the PKCS#7 structure, that its message digest
// is the SHA-256 of content, that the signer's certificate signed the authenticated
// attributes, and whether the certificate chain verifies against the roots for code
// signing. A signature that does not hold (a tampered bundle) is an error; a valid one
// by an untrusted certificate is a Signature with that Status. Revocation (OCSP,
// CRLs) is not checked: that needs the network.
func Verify(content []byte, sig *SignatureBlock, opt VerifyOptions) (Signature, error) {
	if sig == nil {
		return Signature{Status: "unsigned"}, nil
	}
	bad := func(format string, args ...any) (Signature, error) {
		return Signature{}, refuse("", "the signature does not hold: "+format, args...)
	}
	var ci contentInfo
	if rest, err := asn1.Unmarshal(sig.DER, &ci); err != nil || len(rest) > 0 || !ci.ContentType.Equal(oidSignedData) {
		return bad("not a PKCS#7 SignedData")
	}
	var sd signedData
	if _, err := asn1.Unmarshal(ci.Content.Bytes, &sd); err != nil {
		return bad("not a PKCS#7 SignedData (%v)", err)
	}
	if len(sd.SignerInfos) != 1 {
		return bad("%d signers, want 1", len(sd.SignerInfos))
	}
	if len(sd.ContentInfo.Content.Bytes) > 0 {
		return bad("the signature is not detached")
	}
	certs, err := x509.ParseCertificates(sd.Certificates.Bytes)
	if err != nil || len(certs) == 0 {
		return bad("no certificate")
	}
	si := sd.SignerInfos[0]
	if !si.DigestAlgorithm.Algorithm.Equal(oidSHA256) {
		return bad("digest algorithm %v, want SHA-256", si.DigestAlgorithm.Algorithm)
	}
	signer := certs[0]
	for _, c := range certs {
		if c.SerialNumber.Cmp(si.IssuerAndSerial.Serial) == 0 && bytes.Equal(c.RawIssuer, si.IssuerAndSerial.Issuer.FullBytes) {
			signer = c
		}
	}
	if len(si.AuthAttributes.Bytes) == 0 {
		return bad("no authenticated attributes")
	}
	digest, ctype, err := readAttributes(si.AuthAttributes.Bytes)
	if err != nil {
		return bad("%v", err)
	}
	if ctype != nil && !ctype.Equal(oidData) {
		return bad("content type %v, want data", ctype)
	}
	sum := sha256.Sum256(content)
	if !bytes.Equal(digest, sum[:]) {
		return bad("the bundle's SHA-256 is not the one signed (the archive was changed after it was signed)")
	}
	// the signature covers the DER of the attributes as a SET OF (tag 0x31), not as
	// the [0] IMPLICIT they are stored in
	signed := append([]byte{0x31}, si.AuthAttributes.FullBytes[1:]...)
	h := sha256.Sum256(signed)
	switch pub := signer.PublicKey.(type) {
	case *rsa.PublicKey:
		if a := si.SignatureAlgorithm.Algorithm; !a.Equal(oidRSA) && !a.Equal(oidSHA256WithRSA) {
			return bad("signature algorithm %v with an RSA key", a)
		}
		if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, h[:], si.Signature); err != nil {
			return bad("the certificate did not sign it")
		}
	case *ecdsa.PublicKey:
		if !si.SignatureAlgorithm.Algorithm.Equal(oidECDSASHA256) {
			return bad("signature algorithm %v with an ECDSA key", si.SignatureAlgorithm.Algorithm)
		}
		if !ecdsa.VerifyASN1(pub, h[:], si.Signature) {
			return bad("the certificate did not sign it")
		}
	default:
		return bad("a %T key", pub)
	}
	fp := sha256.Sum256(signer.Raw)
	out := Signature{Publisher: signer.Subject.CommonName, Issuer: signer.Issuer.CommonName, Fingerprint: hex.EncodeToString(fp[:])}
	inter := x509.NewCertPool()
	for _, c := range certs {
		if c != signer {
			inter.AddCert(c)
		}
	}
	vo := x509.VerifyOptions{Roots: opt.Roots, Intermediates: inter, CurrentTime: opt.Now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}
	if vo.Roots == nil {
		if vo.Roots, err = x509.SystemCertPool(); err != nil {
			vo.Roots = x509.NewCertPool()
		}
	}
	_, verr := signer.Verify(vo)
	switch {
	case verr == nil:
		out.Status = "signed"
	case bytes.Equal(signer.RawIssuer, signer.RawSubject) && signer.CheckSignature(signer.SignatureAlgorithm, signer.RawTBSCertificate, signer.Signature) == nil:
		out.Status, out.Reason = "self-signed", "the certificate signed itself"
	default:
		out.Status, out.Reason = "untrusted", verr.Error()
	}
	return out, nil
}

// readAttributes returns the message digest and content type of the authenticated
// attributes (the content of the [0] IMPLICIT SET OF Attribute).
func readAttributes(b []byte) (digest []byte, ctype asn1.ObjectIdentifier, err error) {
	for len(b) > 0 {
		var a attribute
		if b, err = asn1.Unmarshal(b, &a); err != nil {
			return nil, nil, fmt.Errorf("malformed attributes")
		}
		switch {
		case a.Type.Equal(oidMessageDigest):
			if _, err := asn1.Unmarshal(a.Values.Bytes, &digest); err != nil {
				return nil, nil, fmt.Errorf("malformed message digest")
			}
		case a.Type.Equal(oidContentType):
			if _, err := asn1.Unmarshal(a.Values.Bytes, &ctype); err != nil {
				return nil, nil, fmt.Errorf("malformed content type")
			}
		}
	}
	if digest == nil {
		return nil, nil, errors.New("no message digest attribute")
	}
	return digest, ctype, nil
}
