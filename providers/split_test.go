package providers

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// FuzzSplitMatchesEncodingJSON: the fast paths of reading an entry (split.go) give
// what encoding/json gives, or step aside: the members of an object, and strings,
// string lists, string maps, booleans and numbers.
//
// spec: K7
func FuzzSplitMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"command":"x","args":["-y","p"],"env":{"A":"b"}}`, `{}`, `{"a":1,"a":2}`, `{ "k" : [ "x" , "y" ] }`,
		`{"s":"caf\u00e9","t":"a\"b","u":"\ud800"}`, `["a","b"]`, `"x"`, `{"m":{"a":"b","a":"c"}}`, `{"n":[1,"x"]}`, "{\"x\":\"\xff\"}",
		`300`, `-1.5e3`, `1e400`, `-0`, `0.1`, `true`, `false`, ` true`, `null`} {
		f.Add([]byte(s))
	}
	// past indexFrom members, a name repeated on both sides of it
	var long []string
	for i := range 2 * indexFrom {
		long = append(long, fmt.Sprintf(`"m%d":%d`, i%(indexFrom+3), i))
	}
	f.Add([]byte("{" + strings.Join(long, ",") + "}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var ms members
		if splitObject(b, &ms) {
			var want map[string]json.RawMessage
			if err := json.Unmarshal(b, &want); err != nil || len(ms.list) != len(want) {
				t.Fatalf("%q: split %v, encoding/json %v (%v)", b, ms.list, want, err)
			}
			for k, v := range want {
				if got, _ := ms.get(k); string(got) != string(v) {
					t.Fatalf("%q: member %q split %q, encoding/json %q", b, k, got, v)
				}
			}
		}
		for _, dst := range []func() any{func() any { return new(string) }, func() any { return new([]string) }, func() any { return new(map[string]string) },
			func() any { return new(bool) }, func() any { return new(float64) }} {
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

// The members of an entry are found by name, the last of a name winning, and removed,
// whether they are few (searched in order) or many (indexed).
func TestMembers(t *testing.T) {
	for _, n := range []int{3, indexFrom - 1, indexFrom, 3 * indexFrom} {
		var ms members
		for i := range n {
			ms.set(fmt.Sprintf("k%d", i), json.RawMessage(fmt.Sprint(i)))
		}
		ms.set("k1", json.RawMessage(`"again"`))
		if got, _ := ms.get("k1"); string(got) != `"again"` || len(ms.list) != n {
			t.Fatalf("%d members: k1 = %s, %d members listed", n, got, len(ms.list))
		}
		ms.remove("k0")
		if _, ok := ms.get("k0"); ok || len(ms.list) != n-1 {
			t.Fatalf("%d members: k0 still there after remove", n)
		}
		for i := 2; i < n; i++ {
			if got, ok := ms.get(fmt.Sprintf("k%d", i)); !ok || string(got) != fmt.Sprint(i) {
				t.Fatalf("%d members: k%d = %s after remove", n, i, got)
			}
		}
	}
}
