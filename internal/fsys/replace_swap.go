//go:build linux || darwin

package fsys

import (
	"errors"
	"os"
)

// swapHook, when set (tests only), runs at the stages of replace after the swap:
// "swapped" (before the displaced file is examined), "swapback" and "remove" (an error
// it returns there is the failure of that step).
var swapHook func(stage string) error

func swapStage(stage string) error {
	if swapHook == nil {
		return nil
	}
	return swapHook(stage)
}

// replace puts tmp at name, checking once more that name still holds want (W8),
// without the gap a compare followed by a rename leaves: another program renaming its
// file over name between the two would be lost. An existing name is swapped with tmp
// atomically (exchange: renameat2 RENAME_EXCHANGE on Linux, renamex_np RENAME_SWAP on
// macOS), and the file that left name is compared with want:
//
//   - it is the file expected: mcpwire's file is in place, and the old one is removed
//     (if that fails, it is left behind as tmp: the write happened all the same, so
//     replace reports success and the caller records it);
//   - it is someone else's, and name still holds mcpwire's file: they are swapped
//     back and ErrChanged is returned (tmp then holds mcpwire's file again, which the
//     caller removes);
//   - it is someone else's, and name no longer holds mcpwire's file either (a third
//     write replaced it, as it would have replaced the displaced file without
//     mcpwire): the superseded file is dropped and ErrChanged is returned, so the edit
//     is redone on the newest content;
//   - it is someone else's, and swapping back fails: that file is never deleted; it
//     stays at tmp and a *[DisplacedError] with Written says so.
//
// A name expected absent is created with a rename that refuses an existing name
// (renameNoReplace). handled is false when the filesystem cannot do this; the caller
// then renames plainly.
func replace(tmp, name string, want *Snapshot) (handled bool, err error) {
	if want == nil {
		return false, nil
	}
	if !want.Exists {
		err := renameNoReplace(tmp, name)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, os.ErrExist):
			return true, ErrChanged
		case unsupported(err):
			return false, nil
		}
		return true, &os.LinkError{Op: "rename", Old: tmp, New: name, Err: err}
	}
	ours, err := os.Lstat(tmp)
	if err != nil {
		return true, err
	}
	err = exchange(tmp, name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return true, ErrChanged // name was removed after the compare
	case err != nil && unsupported(err):
		return false, nil
	case err != nil:
		return true, &os.LinkError{Op: "rename", Old: tmp, New: name, Err: err}
	}
	// tmp now names the file that was at name; from here on, mcpwire's file may be in
	// place, so every outcome must say whether it is
	_ = swapStage("swapped")
	if displacedIsExpected(tmp, want) {
		if err := swapStage("remove"); err == nil {
			_ = os.Remove(tmp) // best effort: the old file may stay behind as tmp
		}
		return true, nil
	}
	// someone else's file: put it back, unless name no longer holds ours either
	cur, err := os.Lstat(name)
	if err != nil || !os.SameFile(cur, ours) {
		// A newer write has replaced mcpwire's file since: it would have replaced the
		// displaced file just the same had mcpwire not been there, so that file is
		// superseded. Drop it and redo the edit on the newest content.
		_ = os.Remove(tmp)
		return true, ErrChanged
	}
	err = swapStage("swapback")
	if err == nil {
		err = exchange(tmp, name)
	}
	if err != nil {
		return true, &DisplacedError{Name: name, Kept: tmp, Written: true, Err: err}
	}
	return true, ErrChanged
}

// displacedIsExpected reports whether the file the swap displaced to tmp is the one
// want describes. The same file, unchanged since it was read (inode, size, mtime and
// mode: the compare before the swap has just read it whole), is recognised from one
// lstat, so that the old file is removed at once: until then it stays under the
// temporary name, where a kill -9 would leave it (with a 50 MB ~/.claude.json, reading
// it back whole took tens of milliseconds). Anything else is compared byte by byte.
func displacedIsExpected(tmp string, want *Snapshot) bool {
	if fi, err := os.Lstat(tmp); err == nil && want.stat != nil && sameStat(fi, want.stat) {
		return true
	}
	same, err := (OS{}).sameContent(tmp, *want)
	return err == nil && same
}
