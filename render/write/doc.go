// Package write writes client files: inject, uninject, install, an ephemeral file, a
// runtime home and the steps of a client configured by hand. It turns a selection of
// registry servers into edits of one client's own file, in that client's dialect, and
// writes them safely: credential policy first (P1–P10), then the entries and tool
// filters (V1–V7, F1–F4), then an atomic, transactional write through the filesystem
// seam (W1–W9) with ownership records (C6).
//
// A request (Request) is planned (plan.go: the values and entries, refused or
// skipped), reconciled with the file as it is under the lock (reconcile.go: the one
// ownership loop), and committed with the records in a transaction (inject.go,
// commit.go, stage_targets.go); ephemeral.go, runtimehome.go and manual.go are the
// outputs that are no client's shared file.
package write
