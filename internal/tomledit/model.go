package tomledit

import (
	"math"
	"reflect"
)

// decode parses src strictly (duplicate keys, redefined tables and every other syntax error are
// refused) into its data model; see Decode.
func decode(src []byte) (map[string]any, error) {
	return Decode(src)
}

// clone deep-copies a decoded value.
func clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = clone(e)
		}
		return out
	case []map[string]any:
		out := make([]map[string]any, len(v))
		for i, e := range v {
			out[i] = clone(e).(map[string]any)
		}
		return out
	}
	return v
}

// equal compares decoded values; unlike reflect.DeepEqual it treats NaN as equal to NaN,
// and unlike == it tells -0 from 0.
func equal(a, b any) bool {
	return equalValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

func equalValue(a, b reflect.Value) bool {
	for a.IsValid() && a.Kind() == reflect.Interface {
		a = a.Elem()
	}
	for b.IsValid() && b.Kind() == reflect.Interface {
		b = b.Elem()
	}
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y)
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			w := b.MapIndex(it.Key())
			if !w.IsValid() || !equalValue(it.Value(), w) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equalValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// equalModel compares two documents' data, treating an empty table or array at one of keys as
// equal to an absent key (removing the last sub-table removes the table itself when nothing else
// defines it, and removing the last entry of an array of tables the array).
func equalModel(got, want map[string]any, keys []string) bool {
	for _, key := range keys {
		if _, ok := got[key]; ok || !empty(want[key]) {
			continue
		}
		if _, ok := want[key]; ok {
			want = shallowWithout(want, key)
		}
	}
	return equal(got, want)
}

// empty reports whether v is an empty table or array.
func empty(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

func shallowWithout(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// describe names the TOML type of a decoded value for error messages.
func describe(v any) string {
	switch v := v.(type) {
	case map[string]any:
		return "a table"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case []map[string]any:
		return "an array of tables"
	case []any:
		if len(v) > 0 {
			tables := true
			for _, e := range v {
				if _, ok := e.(map[string]any); !ok {
					tables = false
				}
			}
			if tables {
				return "an array of tables"
			}
		}
		return "an array"
	}
	return "a date/time"
}
