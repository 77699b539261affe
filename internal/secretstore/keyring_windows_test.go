package secretstore

import (
	"context"
	"fmt"
	"os"
	"testing"
	"unicode/utf16"
	"unsafe"

	"golang.org/x/sys/windows"
)

// spec: S6 — the real Credential Manager (CredWriteW, CredReadW, CredDeleteW):
// stored under ACCOUNT@SERVICE, read, checked, replaced, deleted; a credential
// python-keyring stored under its simple name (SERVICE, user name ACCOUNT) resolves,
// one of another user name does not. The service is the test's own, so that a run on
// a person's Windows touches no credential of theirs.
func TestCredentialManagerReal(t *testing.T) {
	service := fmt.Sprintf("mcpwire-test-%d", os.Getpid())
	roundTrip(t, Env{}, "keyring:"+service+"/gh/GITHUB_TOKEN")

	// python-keyring's simple name: target SERVICE, user name ACCOUNT, UTF-16LE blob
	simple := service + "-simple"
	writeSimple(t, simple, "me", "SENTINEL-simple-0815")
	t.Cleanup(func() {
		if name, err := windows.UTF16PtrFromString(simple); err == nil {
			procCredDeleteW.Call(uintptr(unsafe.Pointer(name)), credTypeGeneric, 0)
		}
	})
	e := Env{}
	if v, err := e.Resolve(context.Background(), "keyring:"+simple+"/me"); err != nil || v != "SENTINEL-simple-0815" {
		t.Errorf("simple name: %q %v", v, err)
	}
	var se *Error
	if err := e.Check(context.Background(), "keyring:"+simple+"/someone-else"); err == nil || !asError(err, &se) || !se.Missing {
		t.Errorf("another user name: %v", err)
	}
}

func asError(err error, se **Error) bool {
	e, ok := err.(*Error)
	*se = e
	return ok
}

// writeSimple writes a generic credential as python-keyring's simple name does.
func writeSimple(t *testing.T, target, user, value string) {
	t.Helper()
	tp, _ := windows.UTF16PtrFromString(target)
	up, _ := windows.UTF16PtrFromString(user)
	blob := utf16.Encode([]rune(value))
	c := credential{Type: credTypeGeneric, TargetName: tp, UserName: up, Persist: credPersistLocalMachine,
		CredentialBlobSize: uint32(len(blob) * 2), CredentialBlob: (*byte)(unsafe.Pointer(&blob[0]))}
	if ok, _, err := procCredWriteW.Call(uintptr(unsafe.Pointer(&c)), 0); ok == 0 {
		t.Fatalf("CredWriteW: %v", err)
	}
}
