package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/termtext"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// writeJSON prints one JSON document (indented, HTML characters unescaped). DEL and
// the C1 control characters, which encoding/json leaves as they are, are written as
// \u escapes too (K4): the document means the same, and no byte of it drives a
// terminal or is changed by the guard on stdout (termtext.Writer).
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSONControls(buf.Bytes()))
	return err
}

// escapeJSONControls spells DEL (0x7f) and the C1 controls (U+0080–U+009F) of a JSON
// document as \u escapes. They can stand only inside its strings, where the escape
// means the same character.
func escapeJSONControls(b []byte) []byte {
	if !bytes.ContainsRune(b, 0x7f) && !bytes.Contains(b, []byte{0xc2}) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == 0x7f:
			out = append(out, `\u007f`...)
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] < 0xa0:
			out = fmt.Appendf(out, `\u%04x`, b[i+1])
			i++
		default:
			out = append(out, c)
		}
	}
	return out
}

// writeOut writes an explicit --out file atomically (fsys.WriteFile), and says so.
func writeOut(env *Env, path string, data []byte) error {
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Cwd, path)
	}
	if err := fsys.WriteFile(env.FS, path, data); err != nil {
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
