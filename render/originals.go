package render

import (
	"encoding/json"
	"maps"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/format"
)

// H1: --force never destroys a person's entry. The entry it replaces is kept in the
// ownership record (0600), as it was, and put back when mcpwire removes its own entry
// of that name (uninject, a profile that no longer selects it, a server disabled for a
// client without a switch). A second --force over the same name keeps the first one:
// what mcpwire took over is what goes back.

// Original is an entry --force replaced: its exact source text (a JSON value, TOML
// tables, YAML lines; empty when it was not valid UTF-8, which a record cannot hold
// exactly) and its value as JSON, from which it is written again where its text
// cannot go back as it is.
type Original struct {
	Text  string          `json:"text,omitempty"`
	Value json.RawMessage `json:"value"`
}

// digest is the ownership digest of the entry put back (C6).
func (o Original) digest() string { return format.Digest(o.Value) }

// OriginalOf keeps an entry as it is in the file.
func OriginalOf(e format.Entry) Original {
	o := Original{Value: json.RawMessage(e.JSON())}
	if text := e.Text(); utf8.Valid(text) {
		o.Text = string(text)
	}
	return o
}

// sameOriginals reports whether two records keep the same originals.
func sameOriginals(a, b map[string]Original) bool {
	return maps.EqualFunc(a, b, func(x, y Original) bool { return x.Text == y.Text && string(x.Value) == string(y.Value) })
}
