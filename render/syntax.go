package render

import (
	"bytes"
	"encoding/json"
	"fmt"
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
		return e.checkStrict(out)
	}
	if d.Strict && !json.Valid(bytes.TrimPrefix(out, utf8BOM)) {
		return &StrictError{Provider: e.p, Path: e.path}
	}
	if d.NoRefs {
		if line := refLine(out, e.p.Refs.Open()); line > 0 {
			return fmt.Errorf("%s: line %d holds a reference to an environment variable, and %s skips a whole file holding one, with every server in it; remove it, then run again",
				e.path, line, e.p.Display)
		}
	}
	if !d.NoTrailingComma {
		return e.checkStrict(out)
	}
	if line := trailingComma(out); line > 0 {
		if l := trailingComma(orig); l > 0 {
			line = l
		}
		return fmt.Errorf("%s: line %d has a trailing comma, and %s does not read a file with one; remove it, then run again", e.path, line, e.p.Display)
	}
	return e.checkStrict(out)
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
// comments before a closing bracket or brace, 0 when there is none. The input is JSONC
// the editor has parsed, so strings and comments are well formed.
func trailingComma(b []byte) int {
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
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i-- // the newline is counted by the loop
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			for i += 2; i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/'); i++ {
				if b[i] == '\n' {
					line++
				}
			}
			i++
		case c == ',':
			commaLine = line
		case c == '}' || c == ']':
			if commaLine > 0 {
				return commaLine
			}
		case c != ' ' && c != '\t' && c != '\r':
			commaLine = 0
		}
	}
	return 0
}
