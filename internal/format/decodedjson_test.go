package format

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// FuzzMarshalDecoded: decoded data is encoded as json.Marshal encodes it, byte for
// byte: whatever JSON decodes to, and the integers, floats and odd strings TOML and
// YAML decode to.
func FuzzMarshalDecoded(f *testing.F) {
	for _, s := range []string{`{"b":[1,"x",true,null,{"c":"d<&>"}],"a":"\u2028é\u0001","":{}}`, `[]`, `"plain"`, `{"k":1.5e300,"z":-0.0000001}`} {
		f.Add([]byte(s), int64(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, n int64) {
		var v any
		if json.Unmarshal(b, &v) != nil {
			return
		}
		for _, x := range []any{v, map[string]any{"n": n, "u": uint64(math.MaxUint64), "i": int(n), "v": v, "l": []any{v, nil}}, []any(nil), map[string]any(nil)} {
			want, werr := json.Marshal(x)
			got, gerr := marshalDecoded(x)
			if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("%#v: %s (%v), json.Marshal %s (%v)", x, got, gerr, want, werr)
			}
		}
	})
}
