package jsonc

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping ("<", ">" and "&" are written as
// they are, as people write them in config files) and without the encoder's final
// newline: how mcpwire spells a value it writes into any JSON file.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
