//go:build !darwin && !windows

package secretstore

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
)

// The Secret Service is the keyring of the systems other than macOS and Windows
// (keyring_secretservice.go).

// spec: S6 — the real Secret Service (gnome-keyring in a private D-Bus session)
// through secret-tool.
func TestSecretServiceReal(t *testing.T) {
	if !storetest.InSecretService(t) {
		return
	}
	roundTrip(t, Env{}, "keyring:mcpwire/gh/GITHUB_TOKEN")
	if secretref.Keyring != "keyring" {
		t.Fatal("store name")
	}
}
