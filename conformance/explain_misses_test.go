//go:build conformance && unix

package conformance

// knownMisses are the cells of the explain matrix where mcpwire's prediction and the
// client's own list differ, by "situation/provider", each with why (spec: E3). A
// miss not listed here fails TestExplainMatrix, and so does a listed one that agrees.
var knownMisses = map[string]string{}
