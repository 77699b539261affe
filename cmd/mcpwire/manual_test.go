package main

import "testing"

// TestQuoteList: a connector's arguments as a person types them: bare, a backslash
// (a Windows path) as it is, double quotes only around an empty argument or one with
// blanks or quotes.
//
// spec: V7
func TestQuoteList(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"paw", "mcp", "--repo", `C:\Users\me\repo`}, `paw mcp --repo C:\Users\me\repo`},
		{[]string{`C:\Program Files\srv.exe`}, `"C:\Program Files\srv.exe"`},
		{[]string{"", "a b", `say "hi"`, "it's"}, `"" "a b" "say \"hi\"" "it's"`},
	} {
		if got := quoteList(c.args); got != c.want {
			t.Errorf("quoteList(%q) = %s, want %s", c.args, got, c.want)
		}
	}
}
