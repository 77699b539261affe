package jsonc

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/limits"
)

// depthOf is the deepest nesting of objects and arrays in src, counted outside
// strings and comments (src parsed, so well formed).
func depthOf(src []byte) int {
	deepest, depth := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			i++
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// FuzzDepthLimit: whatever Parse and Decode accept nests at most limits.Depth levels,
// and what they refuse for nesting is a *limits.Error giving its line, which matches
// limits.ErrRefused.
//
// spec: K1 K3
func FuzzDepthLimit(f *testing.F) {
	d := limits.Depth
	for _, s := range []string{
		strings.Repeat("[", d) + strings.Repeat("]", d),
		strings.Repeat("[", d+1) + strings.Repeat("]", d+1),
		`{"a": ` + strings.Repeat(`{"b": [`, d/2) + "1" + strings.Repeat("]}", d/2) + "}",
		"// c\n{\"s\": \"[[[[\", \"t\": /* [[ */ [[[]]]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := Parse(src)
		_, derr := Decode(src)
		for _, e := range []error{err, derr} {
			var le *limits.Error
			switch {
			case e == nil:
				if n := depthOf(src); n > limits.Depth {
					t.Fatalf("accepted %d levels", n)
				}
			case errors.As(e, &le):
				if !errors.Is(e, limits.ErrRefused) || le.Line < 1 || depthOf(src) <= limits.Depth {
					t.Fatalf("refusal %v", e)
				}
			}
		}
	})
}
