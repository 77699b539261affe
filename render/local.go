package render

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// entryRecordPath returns the ownership record of the entries at one servers path of a
// destination (C6): the record of the file, or for a project's own servers in a file
// shared by every project (Claude Code's local scope) a record of their own, so that
// the same server name at user and local scope is owned apart.
func entryRecordPath(layerDir, dest string, servers []string, nested bool) (string, string, error) {
	path, canon, err := RecordPath(layerDir, OwnershipDir, dest)
	if err != nil || !nested {
		return path, canon, err
	}
	sum := sha256.Sum256([]byte(canon + "\n" + strings.Join(servers, "\n")))
	return filepath.Join(filepath.Dir(path), hex.EncodeToString(sum[:])+".json"), canon, nil
}
