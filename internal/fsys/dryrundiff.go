package fsys

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Diff describes what the dry run would change, path by path in the order they were
// first changed, comparing each path's state before its first change with its final
// state:
//
//   - a file created, changed or removed: a unified diff ("--- a/PATH", "+++ b/PATH",
//     "--- /dev/null" for a new file, "+++ /dev/null" for a removed one, @@ hunks with 3
//     lines of context), preceded by "new file mode 0600", "deleted file mode 0644" or
//     "mode 0644 -> 0600" when the mode is new, gone or changed;
//   - a directory created: "mkdir PATH (0700)"; removed: "rmdir PATH"; mode changed:
//     "chmod PATH (0755 -> 0700)";
//   - a symlink created: "symlink PATH -> TARGET"; removed: "remove PATH (symlink)".
//
// Paths whose final state equals the original produce nothing. Every line is passed
// through redact, when non-nil, before it is written (to hide secrets). The result is
// empty or ends with a newline.
func (d *DryRun) Diff(redact func(string) string) string {
	return d.DiffOnly(redact, nil)
}

// DiffOnly is Diff limited to the paths include accepts (all when nil); the others
// are listed as one "would also write PATH" (or "would also remove PATH") line each.
func (d *DryRun) DiffOnly(redact func(string) string, include func(path string) bool) string {
	var b strings.Builder
	emit := func(line string) {
		if redact != nil {
			line = redact(line)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	for _, p := range d.order {
		if include != nil && !include(p) {
			switch cur, old := d.nodes[p], d.orig[p]; {
			case cur.kind == kindFile && (old.kind != kindFile || !cur.content().Equal(old.bytes())):
				emit("would also write " + p)
			case old.kind == kindFile && cur.kind != kindFile:
				emit("would also remove " + p)
			}
			continue
		}
		diffPath(emit, p, d.orig[p], d.nodes[p])
	}
	return b.String()
}

// diffPath emits the change of one path from old to cur.
func diffPath(emit func(string), p string, old, cur *node) {
	if old.kind == cur.kind {
		switch old.kind {
		case kindFile:
			diffFile(emit, p, old, cur)
		case kindDir:
			if old.mode != cur.mode {
				emit(fmt.Sprintf("chmod %s (%s -> %s)", p, octal(old.mode), octal(cur.mode)))
			}
		case kindSymlink:
			if old.target != cur.target {
				emit(fmt.Sprintf("remove %s (symlink)", p))
				emit(fmt.Sprintf("symlink %s -> %s", p, cur.target))
			}
		}
		return
	}
	switch old.kind { // removal of the old state
	case kindFile:
		diffFile(emit, p, old, &node{kind: kindAbsent})
	case kindDir:
		emit("rmdir " + p)
	case kindSymlink:
		emit(fmt.Sprintf("remove %s (symlink)", p))
	}
	switch cur.kind { // creation of the new state
	case kindFile:
		diffFile(emit, p, &node{kind: kindAbsent}, cur)
	case kindDir:
		emit(fmt.Sprintf("mkdir %s (%s)", p, octal(cur.mode)))
	case kindSymlink:
		emit(fmt.Sprintf("symlink %s -> %s", p, cur.target))
	}
}

// diffFile emits the unified diff of a file from old to cur, either of which may be
// absent.
func diffFile(emit func(string), p string, old, cur *node) {
	from, to := "a/"+slashPath(p), "b/"+slashPath(p)
	switch {
	case old.kind == kindAbsent:
		emit("new file mode " + octal(cur.mode))
		from = "/dev/null"
	case cur.kind == kindAbsent:
		emit("deleted file mode " + octal(old.mode))
		to = "/dev/null"
	case old.mode == cur.mode && cur.content().Equal(old.bytes()):
		return
	case old.mode != cur.mode:
		emit(fmt.Sprintf("mode %s -> %s", octal(old.mode), octal(cur.mode)))
	}
	emit("--- " + from)
	emit("+++ " + to)
	writeHunksOf(emit, old.bytes(), cur.content())
}

// slashPath is p with forward slashes and no leading one, to follow "a/" or "b/".
func slashPath(p string) string {
	return strings.TrimPrefix(filepath.ToSlash(p), "/")
}

// octal formats permission bits as 0644.
func octal(m fs.FileMode) string { return fmt.Sprintf("%04o", uint32(m.Perm())) }
