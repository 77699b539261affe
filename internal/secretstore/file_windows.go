package secretstore

import "os"

// ownerOnly checks nothing on Windows: who may read a file is its ACL, which mcpwire
// does not read (docs/secrets.md).
func ownerOnly(os.FileInfo) error { return nil }
