package main

import (
	"bufio"
	"encoding/json"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/termtext"

	"github.com/mcpwire/mcpwire/render/fsys"
)

// writeJSON prints one JSON document (indented, HTML characters unescaped).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeOut writes an explicit --out file atomically. Its parents are checked from the
// filesystem root (W5); a new file gets 0666 minus the umask, an existing one keeps
// its mode.
func writeOut(env *Env, path string, data []byte) error {
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Cwd, path)
	}
	check := func() error { return fsys.CheckRealDirs(env.FS, "/", path) }
	_, err := fsys.Apply(env.FS, []fsys.Target{{
		Path:  path,
		Check: check,
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			mode := 0o666 &^ fsys.Umask()
			if cur.Exists {
				mode = cur.Mode.Perm()
			}
			return data, mode, false, nil
		},
	}})
	if err != nil {
		return err
	}
	printf(env.Stderr, "wrote %s\n", path)
	return nil
}

// lines returns rows with every cell one line of printable text (termtext.Line, K4):
// rows and cells that need no escape are shared, not copied.
func lines(rows [][]string) [][]string {
	out := rows
	for i, r := range rows {
		for j, c := range r {
			l := termtext.Line(c)
			if l == c {
				continue
			}
			if &out[0] == &rows[0] {
				out = slices.Clone(rows)
			}
			if &out[i][0] == &rows[i][0] {
				out[i] = slices.Clone(r)
			}
			out[i][j] = l
		}
	}
	return out
}

// table writes rows as aligned columns, like text/tabwriter with padding 2 and
// spaces: every column but the last is padded to its widest cell (counted in runes)
// plus two spaces. prefix starts every line. It is a plain two-pass loop, because
// `server list` prints 10,000 rows (issue 2, Speed).
func table(w io.Writer, prefix string, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	rows = lines(rows)
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	for _, r := range rows {
		for j, c := range r[:len(r)-1] {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	const pad = "                                                                "
	for _, r := range rows {
		bw.WriteString(prefix)
		for j, c := range r {
			bw.WriteString(c)
			if j == len(r)-1 {
				break
			}
			for n := widths[j] + 2 - utf8.RuneCountInString(c); n > 0; {
				k := min(n, len(pad))
				bw.WriteString(pad[:k])
				n -= k
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
