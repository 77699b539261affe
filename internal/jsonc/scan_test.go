package jsonc

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", "line 1, column 1: empty document"},
		{"whitespace only", " \n\t\n", "line 3, column 1: empty document"},
		{"comment only", "// nothing\n", "line 2, column 1: empty document"},
		{"unterminated string", "{\n  \"a\": \"abc\n}", "line 2, column 8: unterminated string"},
		{"unterminated string at end", `{"a": "abc`, "line 1, column 7: unterminated string"},
		{"unterminated block comment", "{\n  /* open\n  \"a\": 1\n}", "line 2, column 3: unterminated comment"},
		{"lone slash", `{"a": 1 / 2}`, "line 1, column 9: invalid character '/', a comment starts with // or /*"},
		{"missing colon", "{\n  \"a\" 1\n}", "line 2, column 7: expected ':' after object key, found '1'"},
		{"missing comma", "{\n  \"a\": 1\n  \"b\": 2\n}", "line 3, column 3: invalid character '\"' after object member, expected ',' or '}'"},
		{"extra closing brace", `{"a":1}}`, "line 1, column 8: invalid character '}' after the top-level value"},
		{"two values", "{} {}", "line 1, column 4: invalid character '{' after the top-level value"},
		{"bare word value", `{"a": yes}`, `line 1, column 7: invalid value, strings must be in double quotes`},
		{"bare word key", `{a: 1}`, `line 1, column 2: object key must be in double quotes`},
		{"single quotes", `{"a": 'x'}`, `line 1, column 7: invalid character "'", strings must be in double quotes`},
		{"misspelt literal", `[tru]`, `line 1, column 2: invalid literal, expected true`},
		{"literal run-on", `[nulls]`, `line 1, column 2: invalid literal, expected true`},
		{"control character", "[\"a\tb\"]", "line 1, column 4: invalid control character U+0009 in string"},
		{"invalid escape", `["a\x"]`, `line 1, column 4: invalid escape sequence in string`},
		{"short unicode escape", `["\u12"]`, `line 1, column 3: invalid escape sequence in string, expected four hex digits`},
		{"leading zero", `[01]`, `line 1, column 2: invalid number: leading zero`},
		{"negative leading zero", `[-01]`, `line 1, column 2: invalid number: leading zero`},
		{"dot without digits", `[1.]`, `line 1, column 2: invalid number: expected a digit after the decimal point`},
		{"lone minus", `[-]`, `line 1, column 2: invalid number: expected a digit after '-'`},
		{"empty exponent", `[1e+]`, `line 1, column 2: invalid number: expected a digit in the exponent`},
		{"leading dot", `[.5]`, `line 1, column 2: invalid character '.', expected a value`},
		{"plus sign", `[+1]`, `line 1, column 2: invalid character '+', expected a value`},
		{"hex number", `[0x1]`, `line 1, column 3: invalid character 'x' after array element, expected ',' or ']'`},
		{"lone comma", `[,]`, `line 1, column 2: invalid character ',', expected a value`},
		{"double comma", `[1,,]`, `line 1, column 4: invalid character ',', expected a value`},
		{"comma in empty object", `{,}`, `line 1, column 2: invalid character ',', expected a double-quoted object key`},
		{"trailing comma then colon", `{"a":1,:}`, `line 1, column 8: invalid character ':', expected a double-quoted object key`},
		{"unclosed object", "{\"a\": 1", "line 1, column 8: unexpected end of input, expected ',' or '}'"},
		{"unclosed array", "[1,", "line 1, column 4: unexpected end of input, expected a value"},
		{"key without value", `{"a":`, "line 1, column 6: unexpected end of input, expected a value"},
		{"key at end", `{"a"`, "line 1, column 5: unexpected end of input, expected ':' after object key"},
		{"mismatched bracket", `[1}`, "line 1, column 3: invalid character '}' after array element, expected ',' or ']'"},
		{"byte order mark", "\ufeff{}", "line 1, column 1: invalid character U+FEFF (byte order mark), expected a value"},
		{"invalid utf-8 in comment", "// \xff\n{}", "line 1, column 4: invalid UTF-8 in comment"},
		{"line separator in comment", "// a\u2028b\n{}", "line 1, column 5: invalid character U+2028 in line comment"},
		{"nul byte", "{\x00}", "line 1, column 2: invalid character U+0000, expected a double-quoted object key"},
		{"nesting depth", strings.Repeat("[", 10000), "line 1, column 1001: nesting depth exceeds 1000"},
		{"nesting depth of objects", strings.Repeat(`{"a":`, 10000), "line 1, column 5001: nesting depth exceeds 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want error %q", tt.in, tt.want)
			}
			if got := err.Error(); !strings.HasPrefix(got, tt.want) {
				t.Errorf("Parse(%q) error:\ngot:  %s\nwant: %s", tt.in, got, tt.want)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *SyntaxError", err)
			}
			if got, want := errors.Is(err, ErrEmpty), strings.Contains(tt.want, "empty document"); got != want {
				t.Errorf("errors.Is(err, ErrEmpty) = %v, want %v", got, want)
			}
		})
	}
}

func TestParseValid(t *testing.T) {
	tests := []string{
		`{}`, `[]`, `""`, `0`, `-0`, `-0.5e-10`, `1E+2`, `true`, `false`, `null`,
		"{\"a\":1,}", "[1,2,]", "[[],{},]",
		"/* a */ {/* b */\"a\"/* c */:/* d */1/* e */,/* f */}/* g */",
		"{\"a\": 1} // no newline at the end",
		"{\r\n\t\"a\" : [ 1 , 2 ]\r\n}\r\n",
		`{"\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t": "é😀"}`,
		"[\"\xff\xfe\"]", // like encoding/json, strings need not be UTF-8
		"// \u00e9 comment\n{}",
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
		`{"a":{"a":{"a":{}}}}`,
	}
	for _, in := range tests {
		d, err := Parse([]byte(in))
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := string(d.Bytes()); got != in {
			t.Errorf("Bytes() = %q, want %q", got, in)
		}
	}
}
