// Package md2man stands in for github.com/cpuguy83/go-md2man/v2/md2man, which
// urfave/cli v2 links into every program for its App.ToMan and which brings the
// blackfriday Markdown library, whose package initialisation builds a table of
// 2,000 HTML entities at every start of mcpwire (issue 31). mcpwire never calls
// ToMan: `mcpwire man` writes its roff itself (cmd/mcpwire/manpage.go). go.mod
// replaces the module with this directory.
package md2man

// Render returns doc unchanged: there is no Markdown renderer here.
func Render(doc []byte) []byte { return doc }
