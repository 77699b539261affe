package termtext

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
)

// spec: K4
func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"github", "github"},
		{"@org/server-1.2", "@org/server-1.2"},
		{"a b", "a b"},
		{`C:\Users\me\.mcp.json`, `C:\Users\me\.mcp.json`},
		{"café ☕ 東京", "café ☕ 東京"},
		{"", ""},
		{"fs\n  owned", `"fs\n  owned"`},
		{"\x1b[2J\x1b[Hclear", `"\x1b[2J\x1b[Hclear"`},
		{"\x1b]0;title\a", `"\x1b]0;title\a"`},
		{"a\tb", `"a\tb"`},
		{"over\rwrite", `"over\rwrite"`},
		{"del\x7f", `"del\x7f"`},
		{"c1\u009b31m", `"c1\u009b31m"`},
		{"rtl\u202eevil", `"rtl\u202eevil"`},
		{"zero\u200bwidth", `"zero\u200bwidth"`},
		{"bad\xffutf8", `"bad\xffutf8"`},
		{`"quoted"`, `"\"quoted\""`},
		{`"a\x1b"`, `"\"a\\x1b\""`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
		if got := Quote(c.in); !Plain(c.in) {
			if back, err := strconv.Unquote(got); err != nil || back != c.in {
				t.Errorf("Quote(%q) = %s does not unquote to the value (%v)", c.in, got, err)
			}
		}
	}
}

// spec: K4
func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text: a, b", "plain text: a, b"},
		{`C:\dir "x"`, `C:\dir "x"`},
		{"server fs\nfs  owned", `server fs\nfs  owned`},
		{"a\x1b[8mhidden\x1b[0m", `a\x1b[8mhidden\x1b[0m`},
		{"tab\there", `tab\there`},
		{"cr\r\n", `cr\r\n`},
		{"c1\u0085", `c1\u0085`},
		{"bidi\u202e", `bidi\u202e`},
		{"bad\xfe", `bad\xfe`},
		{"héllo ☕", "héllo ☕"},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// Nothing Quote or Line returns holds a byte that drives a terminal or ends a line,
// whatever the input.
//
// spec: K4
func FuzzQuoteLine(f *testing.F) {
	for _, s := range []string{"x", "fs\n  owned", "\x1b[2J", "\xc2\x9b", "\u202e", "\"", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, got := range map[string]string{"Quote": Quote(s), "Line": Line(s)} {
			if i := strings.IndexFunc(got, func(r rune) bool { return !strconv.IsPrint(r) }); i >= 0 {
				t.Fatalf("%s(%q) = %q holds %q", name, s, got, got[i:])
			}
		}
		if q := Quote(s); q != s {
			if back, err := strconv.Unquote(q); err != nil || back != s {
				t.Fatalf("Quote(%q) = %s does not unquote to the value", s, q)
			}
		}
	})
}

// spec: K4
func TestWriter(t *testing.T) {
	for _, c := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"plain", []string{"a\tb\n", "c\n"}, "a\tb\nc\n"},
		{"escape sequences", []string{"\x1b[2J\x1b]0;t\a\n"}, `\x1b[2J\x1b]0;t\a` + "\n"},
		{"crlf kept, lone cr escaped", []string{"a\r\nb\rc\n"}, "a\r\nb\\rc\n"},
		{"crlf split across writes", []string{"a\r", "\nb\n"}, "a\r\nb\n"},
		{"cr at the end", []string{"a\r"}, `a\r`},
		{"c1 controls", []string{"x\u009b1m\u0085\n"}, `x\u009b1m\u0085` + "\n"},
		{"c1 split across writes", []string{"x\xc2", "\x9by\n"}, `x\u009by` + "\n"},
		{"latin-1 letters kept", []string{"£ ¿ é\n"}, "£ ¿ é\n"},
		{"latin-1 split", []string{"\xc2", "\xa3\n"}, "£\n"},
		{"del and nul", []string{"a\x7f\x00\n"}, `a\x7f\x00` + "\n"},
	} {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		for _, s := range c.writes {
			if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
				t.Fatalf("%s: Write(%q) = %d, %v", c.name, s, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("%s: wrote %q, want %q", c.name, buf.String(), c.want)
		}
	}
}

// The common case, text without control characters, goes through as it is, without
// a copy.
func TestWriterCleanNoAlloc(t *testing.T) {
	w := NewWriter(io.Discard)
	p := []byte("NAME  TYPE  TARGET\nfs    stdio npx -y server\n")
	if n := testing.AllocsPerRun(100, func() { w.Write(p) }); n != 0 {
		t.Errorf("%v allocations per clean write", n)
	}
}
