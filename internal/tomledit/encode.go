package tomledit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// KV is one key/value of a table rendered by [Table] or of an [Inline] table.
type KV struct {
	Key   string
	Value any
}

// Inline is an ordered list of key/values rendered as a one-line inline table, such as
// { A = "x", "B-C" = "y" }.
type Inline []KV

// Table renders a TOML table block: the header [key.name] followed by one `k = v` line per entry of
// kvs, in order, each line ended by newline ("\n" or "\r\n"; see [Doc.Newline]).
//
// Keys are written bare when they match [A-Za-z0-9_-]+ and as basic quoted strings otherwise.
// Values may be string, bool, any Go integer type, float32/float64, []string, []any (of supported
// values) and [Inline]. Strings are basic strings with TOML escapes (\", \\, \b, \t, \n, \f, \r and
// \uXXXX for other control characters); invalid UTF-8 is written as U+FFFD. Floats always carry a
// decimal point or an exponent (10 is written 10.0). Table panics on any other value type, which is
// a programming error.
func Table(key, name string, kvs []KV, newline string) []byte {
	var b strings.Builder
	b.WriteString("[")
	b.WriteString(formatKey(key))
	b.WriteString(".")
	b.WriteString(formatKey(name))
	b.WriteString("]")
	b.WriteString(newline)
	writeKVs(&b, kvs, newline)
	return []byte(b.String())
}

// isBareKey reports whether k can be written without quotes.
func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !isBareKeyChar(k[i]) {
			return false
		}
	}
	return true
}

// formatKey renders one key part, quoting it when it is not a bare key.
func formatKey(k string) string {
	if isBareKey(k) {
		return k
	}
	return Quote(k)
}

// formatPath renders a dotted key path.
func formatPath(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = formatKey(p)
	}
	return strings.Join(parts, ".")
}

// Quote renders s as a TOML basic string, with its quotes.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// formatValue renders one value.
func formatValue(v any) string {
	switch v := v.(type) {
	case string:
		return Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.FormatInt(int64(v), 10)
	case int8:
		return strconv.FormatInt(int64(v), 10)
	case int16:
		return strconv.FormatInt(int64(v), 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint:
		return formatUint(uint64(v))
	case uint8:
		return formatUint(uint64(v))
	case uint16:
		return formatUint(uint64(v))
	case uint32:
		return formatUint(uint64(v))
	case uint64:
		return formatUint(v)
	case float32:
		return formatFloat(float64(v))
	case float64:
		return formatFloat(v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = Quote(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = formatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case Inline:
		if len(v) == 0 {
			return "{}"
		}
		parts := make([]string, len(v))
		for i, kv := range v {
			parts[i] = formatKey(kv.Key) + " = " + formatValue(kv.Value)
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	panic(fmt.Sprintf("tomledit: cannot encode a value of type %T", v))
}

func formatUint(v uint64) string {
	if v > math.MaxInt64 {
		panic(fmt.Sprintf("tomledit: integer %d does not fit in a TOML integer", v))
	}
	return strconv.FormatUint(v, 10)
}

// formatFloat renders f so that it always reads back as a float.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	var s string
	if a := math.Abs(f); a == 0 || a >= 1e-4 && a < 1e16 {
		s = strconv.FormatFloat(f, 'f', -1, 64)
	} else {
		s = strconv.FormatFloat(f, 'e', -1, 64)
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// Item renders one entry of an array of tables: the header [[key]] followed by one `k = v` line per
// entry of kvs, as Table does.
func Item(key string, kvs []KV, newline string) []byte {
	var b strings.Builder
	b.WriteString("[[")
	b.WriteString(formatKey(key))
	b.WriteString("]]")
	b.WriteString(newline)
	writeKVs(&b, kvs, newline)
	return []byte(b.String())
}

func writeKVs(b *strings.Builder, kvs []KV, newline string) {
	for _, kv := range kvs {
		b.WriteString(formatKey(kv.Key))
		b.WriteString(" = ")
		b.WriteString(formatValue(kv.Value))
		b.WriteString(newline)
	}
}
