package jsonc

import (
	"strings"
	"testing"
)

// spec: R8 — a malformed client file may hold a secret where the error is: the
// message gives line and column, never the text found there.
func TestSyntaxErrorsQuoteNothing(t *testing.T) {
	for _, in := range []string{
		`{"env": {"TOKEN": sk-live-unquoted123}}`,
		`{sk-live-unquoted123: 1}`,
		`[tsk-live-unquoted123]`,
		`[nullsk-live-unquoted123]`,
		`["sk-live-\qunquoted123"]`,
		`["\usk-live-unquoted123"]`,
		`[0123sk-live-unquoted123]`,
		`[-sk-live-unquoted123]`,
		`[1.sk-live-unquoted123]`,
		`[1esk-live-unquoted123]`,
	} {
		_, err := Parse([]byte(in))
		if err == nil {
			t.Fatalf("Parse(%q) succeeded", in)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "line 1, column ") {
			t.Errorf("Parse(%q): %q has no position", in, msg)
		}
		for _, part := range []string{"sk-live", "unquoted123", "usk", "qunq", "0123", "tsk", "nullsk"} {
			if strings.Contains(msg, part) {
				t.Errorf("Parse(%q): %q quotes %q", in, msg, part)
			}
		}
	}
}
