// Package providers describes each AI client mcpwire writes for: its names, where its
// files live per scope and OS, their format and shapes, how references and tool filters
// are spelled. It is pure data: nothing here reads or writes files (SPEC V1).
package providers

import "sort"

// aliases maps every alternative spelling to its provider name (V2).
var aliases = map[string]string{
	"claude":     "claude-code",
	"openai":     "codex",
	"agy":        "antigravity",
	"oh-my-pi":   "omp",
	"factory-ai": "factory",
	"cascade":    "windsurf",
	"code":       "vscode",
	"copilot":    "copilot-cli",
	"gemini":     "gemini-cli",
	"grok":       "grok-build",
	"wld":        "runwield",
	"cn":         "continue-cli",
	"vibe":       "mistral-vibe",
	"mistral":    "mistral-vibe",

	// issue 13, part B
	"kiro-cli":        "kiro",
	"kiro-ide":        "kiro",
	"kimi":            "kimi-code",
	"roo":             "roo-code",
	"zoo":             "zoo-code",
	"visualstudio":    "visual-studio",
	"jetbrains-junie": "junie",
	"lmstudio":        "lm-studio",
	"qwen":            "qwen-code",
	"augment":         "auggie",
	"kilocode":        "kilo",
	"kilo-code":       "kilo",
	"qodercli":        "qoder",
	"qoder-cli":       "qoder",
}

// Normalize returns the provider name for name or one of its aliases, and whether it
// is known. "*" (every provider) is returned unchanged.
func Normalize(name string) (string, bool) {
	if name == "*" {
		return name, true
	}
	if a, ok := aliases[name]; ok {
		return a, true
	}
	if _, ok := lookup(name); ok {
		return name, true
	}
	return name, false
}

// Aliases returns the aliases of a provider, sorted.
func Aliases(name string) []string {
	var out []string
	for a, n := range aliases {
		if n == name {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}
