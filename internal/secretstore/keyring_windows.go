package secretstore

import (
	"context"
	"errors"
	"syscall"
	"unicode/utf16"
	"unsafe"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"golang.org/x/sys/windows"
)

// Credential Manager through advapi32's CredReadW, CredWriteW and CredDeleteW: a
// generic credential named ACCOUNT@SERVICE (python-keyring's compound name), or
// SERVICE whose user name is ACCOUNT (its simple name); mcpwire writes the compound
// name, its value as UTF-16LE as python-keyring does, and reads UTF-8 values too.
// Compiled and vetted on every run; not run here (docs/secrets.md).

var (
	advapi32        = windows.NewLazySystemDLL("advapi32.dll")
	procCredReadW   = advapi32.NewProc("CredReadW")
	procCredWriteW  = advapi32.NewProc("CredWriteW")
	procCredDeleteW = advapi32.NewProc("CredDeleteW")
	procCredFree    = advapi32.NewProc("CredFree")
)

const (
	credTypeGeneric         = 1
	credPersistLocalMachine = 2
	errNotFound             = syscall.Errno(1168) // ERROR_NOT_FOUND
)

// credential is CREDENTIALW.
type credential struct {
	Flags              uint32
	Type               uint32
	TargetName         *uint16
	Comment            *uint16
	LastWritten        windows.Filetime
	CredentialBlobSize uint32
	CredentialBlob     *byte
	Persist            uint32
	AttributeCount     uint32
	Attributes         uintptr
	TargetAlias        *uint16
	UserName           *uint16
}

func (s keyringStore) Get(_ context.Context, r secretref.Ref) (string, error) {
	v, _, err := credRead(r.Account() + "@" + r.Service())
	if errors.Is(err, errNotFound) {
		var user string
		v, user, err = credRead(r.Service())
		if err == nil && user != r.Account() {
			err = errNotFound
		}
	}
	if errors.Is(err, errNotFound) {
		return "", &Error{Msg: "Credential Manager: no generic credential " + r.Account() + "@" + r.Service(), Missing: true}
	}
	if err != nil {
		return "", &Error{Msg: "Credential Manager: " + err.Error()}
	}
	return v, nil
}

func (s keyringStore) Check(ctx context.Context, r secretref.Ref) error {
	_, err := s.Get(ctx, r)
	return err
}

func (s keyringStore) Put(_ context.Context, r secretref.Ref, value string) error {
	target, err := windows.UTF16PtrFromString(r.Account() + "@" + r.Service())
	if err != nil {
		return &Error{Msg: "Credential Manager: " + err.Error()}
	}
	user, _ := windows.UTF16PtrFromString(r.Account())
	comment, _ := windows.UTF16PtrFromString(keyringLabel(r.Service(), r.Account()))
	blob := utf16.Encode([]rune(value))
	c := credential{Type: credTypeGeneric, TargetName: target, UserName: user, Comment: comment, Persist: credPersistLocalMachine,
		CredentialBlobSize: uint32(len(blob) * 2)}
	if len(blob) > 0 {
		c.CredentialBlob = (*byte)(unsafe.Pointer(&blob[0]))
	}
	if ok, _, err := procCredWriteW.Call(uintptr(unsafe.Pointer(&c)), 0); ok == 0 {
		return &Error{Msg: "Credential Manager: " + err.Error()}
	}
	return nil
}

func (s keyringStore) Delete(_ context.Context, r secretref.Ref) error {
	target, err := windows.UTF16PtrFromString(r.Account() + "@" + r.Service())
	if err != nil {
		return &Error{Msg: "Credential Manager: " + err.Error()}
	}
	if ok, _, err := procCredDeleteW.Call(uintptr(unsafe.Pointer(target)), credTypeGeneric, 0); ok == 0 {
		return &Error{Msg: "Credential Manager: " + err.Error()}
	}
	return nil
}

// credRead reads a generic credential: its value and user name.
func credRead(target string) (string, string, error) {
	name, err := windows.UTF16PtrFromString(target)
	if err != nil {
		return "", "", err
	}
	var c *credential
	if ok, _, err := procCredReadW.Call(uintptr(unsafe.Pointer(name)), credTypeGeneric, 0, uintptr(unsafe.Pointer(&c))); ok == 0 {
		return "", "", err
	}
	defer procCredFree.Call(uintptr(unsafe.Pointer(c)))
	blob := unsafe.Slice(c.CredentialBlob, c.CredentialBlobSize)
	return decodeBlob(blob), windows.UTF16PtrToString(c.UserName), nil
}

// decodeBlob reads a credential's value: UTF-16LE when it looks like it (an even
// length, and a zero high byte in its first character), else UTF-8.
func decodeBlob(b []byte) string {
	if len(b) >= 2 && len(b)%2 == 0 && b[1] == 0 {
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(u))
	}
	return string(b)
}
