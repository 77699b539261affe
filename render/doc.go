// Package render is what writing client files (render/write) and reading them back
// (render/inspect) share: where a client's file is (dest.go, ClientPath, Destination,
// ScopeOf), where its entries sit in it and how they are spelled there (Layout), the
// file opened and its entries read back (ClientFile, ClientReader), and mcpwire's own
// records of what it wrote — the ownership records and their rules (ownership.go,
// C6), the records staged while a transaction runs (staging.go), the records of deny
// rules (permrecord.go), of ephemeral output (outrecord.go) and of created files
// (created.go, H7) — with the checks of secret references (secrets.go, S4).
package render
