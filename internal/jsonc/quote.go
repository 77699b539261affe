package jsonc

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// quote returns name as a JSON string token. Unlike encoding/json it
// escapes only what JSON requires ('"', '\\' and control characters): HTML
// characters stay as they are, and so do bytes that are not valid UTF-8, so
// that the key reads back exactly as name.
func quote(name string) []byte {
	b := make([]byte, 0, len(name)+2)
	b = append(b, '"')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xF])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// unquote decodes a valid JSON string token (quotes included). Escapes are
// decoded as encoding/json does (a lone surrogate becomes U+FFFD); raw bytes
// that are not valid UTF-8 are kept as they are.
func unquote(tok []byte) string {
	body := tok[1 : len(tok)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch e := body[i+1]; e {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(body[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					r2 = hex4(body[i+2 : i+6])
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					i += 6
					r = d
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		default: // '"', '\\', '/'
			out = append(out, e)
		}
		i += 2
	}
	return string(out)
}

func hex4(b []byte) rune {
	v, _ := strconv.ParseUint(string(b), 16, 32)
	return rune(v)
}

// keyIs reports whether the key token tok names name, without allocating
// in the common case of a key without escapes.
func keyIs(tok []byte, name string) bool {
	body := tok[1 : len(tok)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == name
	}
	return unquote(tok) == name
}
