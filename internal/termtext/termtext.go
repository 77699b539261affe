// Package termtext keeps text that others wrote from driving the terminal (K4). A
// cloned repository's .mcp.json, a teammate's config or a layer file may hold server
// names, commands, arguments and messages with escape sequences (clear the screen,
// set the title, hide text) or newlines that forge a line of mcpwire's own output.
// Everything mcpwire prints as text goes through this package:
//
//   - Quote, for one value taken from a file (a name, a path, a command, an argument,
//     a member): printed as it is when it is plain, else as a Go string literal in
//     double quotes, the way git quotes an odd path ("fs\n  owned", "\x1b]0;pwned\a").
//   - Line, for a line of mcpwire's own text that holds such values (an error, a
//     warning, a table cell): its control characters are escaped in place, without
//     quotes, so that it stays one line.
//   - Writer, around stdout and stderr: whatever reaches the stream, a control
//     character other than a tab or a line end is escaped there too.
//
// The escapes are Go's (strconv): \n, \t, \r, \a, \x1b, \u0085, \u202e, and \xff for a
// byte that is not UTF-8. --json output is exact JSON and needs none of this: its
// encoder escapes every control character.
package termtext

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Plain reports whether s prints as itself: valid UTF-8 of printable characters
// (strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII
// space), not starting with a double quote (so that a quoted value is never mistaken
// for a plain one).
func Plain(s string) bool {
	if strings.HasPrefix(s, `"`) {
		return false
	}
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !strconv.IsPrint(r) {
			return false
		}
		i += n
	}
	return true
}

// Quote returns a value taken from a file for printing: s itself when it is Plain,
// else s as a double-quoted Go string literal (strconv.Quote), in which control
// characters, invisible format characters (bidirectional overrides, zero-width
// spaces), bytes that are not UTF-8, quotes and backslashes are escaped.
func Quote(s string) string {
	if Plain(s) {
		return s
	}
	return strconv.Quote(s)
}

// Quotes applies Quote to every value of ss, in a new slice.
func Quotes(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Quote(s)
	}
	return out
}

// Line returns one line of text with every character that is not printable escaped
// in place: control characters (newlines and tabs included), invisible format
// characters and bytes that are not UTF-8. Printable text, quotes and backslashes
// are kept, so that a message naming a Windows path reads as it did. It is for
// mcpwire's own lines that carry values from files: errors, warnings, table cells.
func Line(s string) string {
	i := 0
	for i < len(s) {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !strconv.IsPrint(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case r >= 0x20 && r < 0x7f || r >= 0x80 && strconv.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// hex2 spells a byte as two lower-case hex digits.
func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// Writer escapes, in everything written through it, the characters that drive a
// terminal: C0 control characters other than a tab and a line feed (a carriage return
// too, unless a line feed follows it: the CRLF of a Windows file's line in a diff),
// DEL, and the C1 control characters U+0080–U+009F. It is the backstop under Quote
// and Line: whatever a command prints on stdout or stderr, no escape sequence from a
// file reaches the terminal. mcpwire's own colours and progress line are written to
// the stream beneath it.
type Writer struct {
	w io.Writer
	// held is a byte of the last write whose meaning depends on the next one: a
	// carriage return (a line feed may follow) or the first byte of a two-byte
	// sequence that may be a C1 control (0xc2).
	held byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Underlying returns the stream the Writer writes to.
func (g *Writer) Underlying() io.Writer { return g.w }

// Write writes p with its control characters escaped. It reports len(p) on success:
// every byte of p was handled, escaped or held for the next write.
func (g *Writer) Write(p []byte) (int, error) {
	if g.held == 0 && clean(p) {
		if _, err := g.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	out := make([]byte, 0, len(p)+16)
	in := p
	if g.held != 0 {
		in = append([]byte{g.held}, p...)
		g.held = 0
	}
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '\t' || c == '\n':
			out = append(out, c)
		case c == '\r':
			switch {
			case i+1 == len(in):
				g.held = c
			case in[i+1] == '\n':
				out = append(out, c)
			default:
				out = append(out, `\r`...)
			}
		case c < 0x20 || c == 0x7f:
			out = append(out, escape(rune(c))...)
		case c == 0xc2:
			switch {
			case i+1 == len(in):
				g.held = c
			case in[i+1] >= 0x80 && in[i+1] < 0xa0:
				out = append(out, escape(rune(in[i+1]))...)
				i++
			default:
				out = append(out, c)
			}
		default:
			out = append(out, c)
		}
	}
	if _, err := g.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a byte held back by the last write (a final carriage return is
// escaped).
func (g *Writer) Flush() error {
	if g.held == 0 {
		return nil
	}
	b := []byte{g.held}
	if g.held == '\r' {
		b = []byte(`\r`)
	}
	g.held = 0
	_, err := g.w.Write(b)
	return err
}

// clean reports whether p holds nothing Write changes: no control character but tab
// and line feed, no carriage return, DEL or 0xc2 lead byte.
func clean(p []byte) bool {
	for _, c := range p {
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f || c == 0xc2 {
			return false
		}
	}
	return true
}

// escape spells a control character as Go does: \n, \x1b, \u0085.
func escape(r rune) string {
	q := strconv.QuoteRune(r)
	return q[1 : len(q)-1]
}

// Join quotes every value of ss (Quote) and joins them with sep.
func Join(ss []string, sep string) string {
	if len(ss) == 1 {
		return Quote(ss[0])
	}
	return strings.Join(Quotes(ss), sep)
}
