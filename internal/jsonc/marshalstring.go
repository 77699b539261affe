package jsonc

import "encoding/json"

// AppendMarshaled appends s as a JSON string exactly as encoding/json's Marshal
// writes it (HTML characters escaped, bytes that are not UTF-8 replaced): plain
// printable ASCII as it is, without a call to encoding/json, anything else by
// encoding/json itself. False only when encoding/json fails.
func AppendMarshaled(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(s)
			return append(b, q...), err == nil
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}
