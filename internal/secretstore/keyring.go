package secretstore

// keyringStore is the operating system's credential store, keyring:SERVICE/ACCOUNT:
// the Secret Service on Linux and the BSDs (keyring_secretservice.go), the login
// keychain on macOS (keyring_darwin.go), Credential Manager on Windows
// (keyring_windows.go). Each uses the names python-keyring uses, so that an item it
// stored (keyring set SERVICE ACCOUNT) resolves, and the other way round.
type keyringStore struct{ e Env }

// keyringLabel is the label of an item mcpwire stores.
func keyringLabel(service, account string) string { return "mcpwire: " + service + "/" + account }
