package fsys

import "io/fs"

// WriteFile writes a file a person named (an explicit --out) atomically: its parents
// are checked from the filesystem root (W5), a new file gets 0666 minus the umask, and
// an existing one keeps its mode.
func WriteFile(f FS, path string, data []byte) error {
	check := func() error { return CheckRealDirs(f, "/", path) }
	_, err := Apply(f, []Target{{
		Path:  path,
		Check: check,
		Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			mode := 0o666 &^ Umask()
			if cur.Exists {
				mode = cur.Mode.Perm()
			}
			return data, mode, false, nil
		},
	}})
	return err
}
