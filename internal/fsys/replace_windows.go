package fsys

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replace moves tmp over name with MoveFileEx and MOVEFILE_WRITE_THROUGH (the move is
// flushed to disk before it returns). Windows has no exchange rename: with want, the
// caller compared name with it just before, and a write landing between that compare
// and this move is lost (docs/writes.md). A name expected absent is never replaced:
// without MOVEFILE_REPLACE_EXISTING the move fails when a file appeared there, which
// is reported as ErrChanged. A sharing violation or a denied access (a virus scanner,
// an indexer or a backup tool holding the file open for a moment, or a read-only
// destination) is retried for up to a second. The destination's ACL is not carried
// over: the new file has the ACL it inherited from its directory when it was created.
func replace(tmp, name string, want *Snapshot) (handled bool, err error) {
	flags := uint32(windows.MOVEFILE_WRITE_THROUGH)
	if want == nil || want.Exists {
		flags |= windows.MOVEFILE_REPLACE_EXISTING
	}
	from, err := windows.UTF16PtrFromString(tmp)
	if err != nil {
		return true, err
	}
	to, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return true, err
	}
	deadline := time.Now().Add(time.Second)
	for try := 0; ; try++ {
		err := windows.MoveFileEx(from, to, flags)
		switch {
		case err == nil:
			return true, nil
		case flags&windows.MOVEFILE_REPLACE_EXISTING == 0 && (errors.Is(err, windows.ERROR_ALREADY_EXISTS) || errors.Is(err, windows.ERROR_FILE_EXISTS)):
			return true, ErrChanged
		case (errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_ACCESS_DENIED)) && time.Now().Before(deadline):
			time.Sleep(lockBackoff(try))
			continue
		}
		return true, &os.LinkError{Op: "rename", Old: tmp, New: name, Err: err}
	}
}
