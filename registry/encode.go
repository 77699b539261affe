package registry

import (
	"slices"
	"unicode/utf8"
)

// appendServer appends the JSON of a server as the encoder writes it
// (jsonc.Marshal of its fields in their order, then Extra): field by field, without
// reflection (K7: an import writes 200,000 servers). It leaves to the encoder, and
// reports false for, a server holding a field of another shape than strings, lists
// and maps of strings (inputs, auth, oauth, timeout, worker qualification).
func appendServer(b []byte, s *Server) ([]byte, bool) {
	if len(s.Inputs) > 0 || len(s.Auth) > 0 || len(s.OAuth) > 0 || len(s.Timeout) > 0 || len(s.WorkerQualification) > 0 {
		return b, false
	}
	b = append(b, `{"name":`...)
	b = appendString(b, s.Name)
	b = appendText(b, "type", s.Type)
	b = appendText(b, "command", s.Command)
	b = appendList(b, "args", s.Args)
	b = appendMap(b, "env", s.Env)
	b = appendList(b, "plainEnv", s.PlainEnv)
	b = appendMap(b, "envFrom", s.EnvFrom)
	b = appendText(b, "url", s.URL)
	b = appendMap(b, "headers", s.Headers)
	b = appendList(b, "plainHeaders", s.PlainHeaders)
	b = appendMap(b, "headerEnv", s.HeaderEnv)
	b = appendText(b, "bearerEnv", s.BearerEnv)
	b = appendMap(b, "envInput", s.EnvInput)
	b = appendMap(b, "headerInput", s.HeaderInput)
	b = appendText(b, "bearerInput", s.BearerInput)
	b = appendMap(b, "envSecret", s.EnvSecret)
	b = appendMap(b, "headerSecret", s.HeaderSecret)
	b = appendText(b, "bearerSecret", s.BearerSecret)
	b = appendText(b, "cwd", s.Cwd)
	if s.Enabled != nil {
		b = appendKey(b, "enabled")
		if *s.Enabled {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	}
	b = appendText(b, "description", s.Description)
	b = appendList(b, "injectedProviders", s.InjectedProviders)
	b = appendText(b, "addedAt", s.AddedAt)
	b = appendText(b, "updatedAt", s.UpdatedAt)
	return append(b, '}'), true
}

// appendKey appends ',' and a member's name (one of Server's, which need no escape).
func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// appendText appends a string member, none when it is empty (omitempty).
func appendText(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return appendString(appendKey(b, key), v)
}

// appendList appends a list of strings, none when it is empty.
func appendList(b []byte, key string, vs []string) []byte {
	if len(vs) == 0 {
		return b
	}
	b = append(appendKey(b, key), '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']')
}

// appendMap appends a map of strings by its keys in order, none when it is empty.
func appendMap(b []byte, key string, m map[string]string) []byte {
	if len(m) == 0 {
		return b
	}
	b = append(appendKey(b, key), '{')
	var buf [8]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
		b = appendString(b, m[k])
	}
	return append(b, '}')
}

// appendString appends s as a JSON string as encoding/json writes it without HTML
// escaping: '"', '\\' and control characters escaped (\b \f \n \r \t by their
// letter), bytes that are not UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
