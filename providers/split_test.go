package providers

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzSplitMatchesEncodingJSON: the fast paths of reading an entry (split.go) give
// what encoding/json gives, or step aside: the members of an object, and strings,
// string lists and string maps.
//
// spec: K7
func FuzzSplitMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"command":"x","args":["-y","p"],"env":{"A":"b"}}`, `{}`, `{"a":1,"a":2}`, `{ "k" : [ "x" , "y" ] }`,
		`{"s":"caf\u00e9","t":"a\"b","u":"\ud800"}`, `["a","b"]`, `"x"`, `{"m":{"a":"b","a":"c"}}`, `{"n":[1,"x"]}`, "{\"x\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		if m, ok := splitObject(b); ok {
			var want map[string]json.RawMessage
			if err := json.Unmarshal(b, &want); err != nil || len(m) != len(want) {
				t.Fatalf("%q: split %v, encoding/json %v (%v)", b, m, want, err)
			}
			for k, v := range want {
				if string(m[k]) != string(v) {
					t.Fatalf("%q: member %q split %q, encoding/json %q", b, k, m[k], v)
				}
			}
		}
		for _, dst := range []func() any{func() any { return new(string) }, func() any { return new([]string) }, func() any { return new(map[string]string) }} {
			got, want := dst(), dst()
			if !quickDecode(b, got) {
				continue
			}
			if err := json.Unmarshal(b, want); err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: quick %#v, encoding/json %#v (%v)", b, got, want, err)
			}
		}
	})
}
