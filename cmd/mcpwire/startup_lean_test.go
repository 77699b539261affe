//go:build urfave_cli_no_docs

package main

import (
	"bytes"
	"testing"
)

// TestNoMarkdownAtStart: no Markdown library starts with mcpwire (issue 31).
// urfave/cli v2 links go-md2man, and with it blackfriday, whose init built a table of
// 2,200 HTML entities at every start (210 KB, 0.4–0.8 ms). The lean build README.md
// recommends for scripted launches (-tags urfave_cli_no_docs, which .ci/run tests)
// leaves them out, and mcpwire writes its man page itself (docs/terminal.md).
func TestNoMarkdownAtStart(t *testing.T) {
	out := inittrace(t)
	if !bytes.Contains(out, []byte("init github.com/urfave/cli/v2 ")) {
		t.Fatalf("inittrace printed no urfave/cli line:\n%s", out)
	}
	for _, pkg := range []string{"github.com/russross/blackfriday", "github.com/cpuguy83/go-md2man"} {
		if bytes.Contains(out, []byte("init "+pkg)) {
			t.Errorf("%s is initialised at every start", pkg)
		}
	}
}
