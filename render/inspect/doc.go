// Package inspect reads client files back: their state for status (B4), their
// credentials and modes for audit, their entries for import, import --adopt (issue 14,
// B2) and server add-json's snippets. It writes no client file: import writes the
// registry, and --adopt the ownership records of the entries it adopts.
package inspect
