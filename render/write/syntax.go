package write

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/hint"
)

// checkSyntax refuses to write entries into a file its client would not read whole
// (V9): one that is not strict JSON where the client reads only that (the provider's
// StrictJSON, or this file's Strict: Copilot CLI's project files), one with a trailing
// comma where the client drops or resets the file over it (Qwen Code, Qoder CLI), one
// holding a reference where the client skips the file over one (Kilo's project files).
// mcpwire's own edits add neither: what is refused is already in the file. Removing
// entries (uninject) is allowed. A trailing comma is named by its line in the file as
// it was (orig), else in the edited bytes.
func (e *fileEdit) checkSyntax(orig, out []byte) error {
	d := e.syntax
	if len(e.set) == 0 || d == nil {
		return e.checkStrict(orig, out)
	}
	if d.Strict && !json.Valid(bytes.TrimPrefix(out, utf8BOM)) {
		return e.strictError(orig, out)
	}
	if d.NoRefs {
		if line := refLine(out, e.p.Refs.Open); line > 0 {
			return hint.Wrap(fmt.Errorf("%s: line %d holds a reference to an environment variable, and %s skips a whole file holding one, with every server in it",
				e.path, line, e.p.Display), "remove it, then run again")
		}
	}
	if !d.NoTrailingComma {
		return e.checkStrict(orig, out)
	}
	if line := trailingComma(out); line > 0 {
		if l := trailingComma(orig); l > 0 {
			line = l
		}
		return hint.Wrap(fmt.Errorf("%s: line %d has a trailing comma, and %s does not read a file with one", e.path, line, e.p.Display), "remove it, then run again")
	}
	return e.checkStrict(orig, out)
}

// refLine returns the line of the first reference opening (open: "{env:") outside a
// comment line, 0 when there is none or open is "".
func refLine(b []byte, open string) int {
	if open == "" || !bytes.Contains(b, []byte(open)) {
		return 0
	}
	for i, l := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(l); !bytes.HasPrefix(t, []byte("//")) && bytes.Contains(t, []byte(open)) {
			return i + 1
		}
	}
	return 0
}

// trailingComma returns the line of the first comma followed only by blanks and
// comments before a closing bracket or brace, 0 when there is none.
func trailingComma(b []byte) int {
	comma, _ := jsonExtras(b)
	return comma
}

// looseLine returns the first line holding what strict JSON lacks — a comment or a
// trailing comma — and says which, 0 when there is neither.
func looseLine(b []byte) (int, string) {
	comma, comment := jsonExtras(b)
	switch {
	case comment > 0 && (comma == 0 || comment <= comma):
		return comment, "holds a comment"
	case comma > 0:
		return comma, "has a trailing comma"
	}
	return 0, ""
}

// jsonExtras returns the lines of the first trailing comma (a comma followed only by
// blanks and comments before a closing bracket or brace) and of the first comment, 0
// for none. The input is JSONC the editor has parsed, so strings and comments are
// well formed.
func jsonExtras(b []byte) (commaAt, commentAt int) {
	line, commaLine := 1, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\n':
			line++
		case c == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			commaLine = 0
		case c == '/' && i+1 < len(b) && (b[i+1] == '/' || b[i+1] == '*'):
			if commentAt == 0 {
				commentAt = line
			}
			i, line = skipComment(b, i, line)
		case c == ',':
			commaLine = line
		case c == '}' || c == ']':
			if commaLine > 0 && commaAt == 0 {
				commaAt = commaLine
			}
			commaLine = 0
		case c != ' ' && c != '\t' && c != '\r':
			commaLine = 0
		}
	}
	return commaAt, commentAt
}

// skipComment skips the comment starting at b[i] ("//" or "/*"): it returns the index
// of its last byte (before the newline that ends a line comment) and the line there.
func skipComment(b []byte, i, line int) (int, int) {
	if b[i+1] == '/' {
		for i < len(b) && b[i] != '\n' {
			i++
		}
		return i - 1, line // the newline is counted by the caller's loop
	}
	for i += 2; i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/'); i++ {
		if b[i] == '\n' {
			line++
		}
	}
	return i + 1, line
}
