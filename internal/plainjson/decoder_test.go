package plainjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// doc is what the tests decode: a struct of the shapes the decoder reads.
type doc struct {
	Name  string            `json:"name"`
	List  []string          `json:"list"`
	Map   map[string]string `json:"map"`
	Inner *doc              `json:"inner"`
}

var docFields = []string{"name", "list", "map", "inner"}

// decode reads a doc as the records' decoders do; false when it steps aside.
func decode(d *Decoder, out *doc) {
	for key := range d.Members {
		switch key {
		case "name":
			d.String(&out.Name)
		case "list":
			d.Strings(&out.List)
		case "map":
			d.StringMap(&out.Map)
		case "inner":
			if d.Null() {
				out.Inner = nil
				continue
			}
			if out.Inner == nil {
				out.Inner = new(doc)
			}
			decode(d, out.Inner)
		default:
			d.Skip(key, docFields)
		}
	}
}

// TestDecoder: what the decoder reads is what encoding/json makes of it; what it
// refuses is outside plain JSON, or decoded by encoding/json otherwise than a plain
// reading would.
func TestDecoder(t *testing.T) {
	for _, c := range []struct {
		in      string
		refused bool
	}{
		{in: `{}`},
		{in: " \t\r\n{ \"name\" : \"x\" , \"list\" : [ ] , \"map\" : { } } \n"},
		{in: `{"name": "café", "list": ["a", "b"], "map": {"k": "v", "k": "w"}, "inner": {"name": "y"}}`},
		{in: `{"name": "x", "name": null, "list": ["a"], "list": null, "map": {"a": "b"}, "map": {"c": "d"}}`},
		{in: `{"inner": {"name": "a"}, "inner": {"list": []}, "other": [true, false, null, {"a": [[]]}, "s"], "": {}}`},
		{in: `{"name": "a\"b"}`, refused: true},
		{in: `{"name": "a\u0062"}`, refused: true},
		{in: "{\"name\": \"a\x01\"}", refused: true},
		{in: "{\"name\": \"\xff\"}", refused: true},
		{in: "{\"name\": \"\xed\xa0\x80\"}", refused: true}, // a surrogate half, replaced by encoding/json
		{in: `{"other": 1}`, refused: true},
		{in: `{"other": -0.5e3}`, refused: true},
		{in: `{"NAME": "x"}`, refused: true},
		{in: `{"Inner": null}`, refused: true},
		{in: "{\"\u017fame\": \"x\"}", refused: true}, // non-ASCII, which encoding/json folds
		{in: `{"list": ["a", null]}`, refused: true},
		{in: `{"map": {"a": null}}`, refused: true},
		{in: `{"map": []}`, refused: true},
		{in: `{"name": ["x"]}`, refused: true},
		{in: `{"name": true}`, refused: true},
		{in: `{"other": nul}`, refused: true},
		{in: `{"other": tru}`, refused: true},
		{in: `{"other": [1]}`, refused: true},
		{in: `{"other": [,]}`, refused: true},
		{in: `{"other": {"a" "b"}}`, refused: true},
		{in: `{"name": "x",}`, refused: true},
		{in: `{"name": "x"} x`, refused: true},
		{in: `{"name": "x"}{}`, refused: true},
		{in: "{}\x00", refused: true},
		{in: `{"name": "x"`, refused: true},
		{in: `{"name": "x`, refused: true},
		{in: "\ufeff{}", refused: true},
		{in: `null`, refused: true},
		{in: `[]`, refused: true},
		{in: ``, refused: true},
		{in: `{"other": ` + strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1) + `}`, refused: true},
	} {
		got, want := doc{Name: "before"}, doc{Name: "before"}
		d := NewDecoder([]byte(c.in))
		decode(&d, &got)
		ok := d.End()
		if ok == c.refused {
			t.Errorf("%q: read %v, want %v", c.in, ok, !c.refused)
		}
		if !ok {
			continue
		}
		if err := json.Unmarshal([]byte(c.in), &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: read %+v, encoding/json %+v (%v)", c.in, got, want, err)
		}
	}
}
