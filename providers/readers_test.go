package providers

import (
	"slices"
	"testing"
)

func names(ps []*Provider) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// TestReaders: the clients reading a file are derived from the table (V10): Claude
// Code's .mcp.json is Copilot CLI's and Qoder's project file and Qwen Code, Kimi Code
// and Visual Studio read it too; Visual Studio also reads VS Code's and Cursor's
// project files; Copilot's .github/mcp.json is its own; opencode's project file is read by Kilo;
// Grok Build reads Claude Code's and Cursor's files, ~/.claude.json included, and VS
// Code's Copilot harness the portable .mcp.json and ~/.copilot/mcp-config.json (issue 27). The writers are the readers whose own file it is.
//
// spec: V10
func TestReaders(t *testing.T) {
	get := func(n string) *Provider {
		p, ok := Get(n)
		if !ok {
			t.Fatalf("no provider %s", n)
		}
		return p
	}
	for _, c := range []struct {
		provider string
		scope    Scope
		file     string
		readers  []string
		writers  []string
	}{
		{"claude-code", Project, ".mcp.json", []string{"vscode", "grok-build", "copilot-cli", "qwen-code", "qoder", "kimi-code", "visual-studio"}, []string{"copilot-cli", "qoder"}},
		{"copilot-cli", Project, ".mcp.json", []string{"claude-code", "vscode", "grok-build", "qwen-code", "qoder", "kimi-code", "visual-studio"}, []string{"claude-code", "qoder"}},
		{"qoder", Project, ".mcp.json", []string{"claude-code", "vscode", "grok-build", "copilot-cli", "qwen-code", "kimi-code", "visual-studio"}, []string{"claude-code", "copilot-cli"}},
		{"vscode", Project, "mcp.json", []string{"visual-studio"}, nil},
		{"cursor", Project, "mcp.json", []string{"grok-build", "visual-studio"}, nil},
		{"cursor", User, "mcp.json", []string{"grok-build"}, nil},
		{"copilot-cli", User, "mcp-config.json", []string{"vscode"}, nil},
		{"visual-studio", Local, "mcp.json", nil, nil},
		{"kimi-code", Project, "mcp.json", nil, nil},
		{"copilot-cli", Project, ".github/mcp.json", nil, nil},
		{"opencode", Project, "opencode.json", []string{"kilo"}, nil},
		{"opencode", Project, "opencode.jsonc", nil, nil},
		{"claude-code", User, ".claude.json", []string{"grok-build"}, nil},
		{"claude-code", Local, ".claude.json", []string{"grok-build"}, nil},
		{"qwen-code", Project, "settings.json", nil, nil},
		{"qoder", Local, "settings.local.json", nil, nil},
		{"auggie", Local, "settings.local.json", nil, nil},
		{"roo-code", Project, "mcp.json", []string{"zoo-code"}, []string{"zoo-code"}},
		{"zoo-code", Project, ".roo/mcp.json", []string{"roo-code"}, []string{"roo-code"}},
		{"zoo-code", Project, ".zoo/mcp.json", nil, nil},
	} {
		p := get(c.provider)
		if got := names(p.ReadersOf(c.scope, c.file)); !slices.Equal(got, c.readers) {
			t.Errorf("readers of %s %s %s: %v, want %v", c.provider, c.scope, c.file, got, c.readers)
		}
		if got := names(p.WritersOf(c.scope, c.file)); !slices.Equal(got, c.writers) {
			t.Errorf("writers of %s %s %s: %v, want %v", c.provider, c.scope, c.file, got, c.writers)
		}
	}
	if got := names(get("claude-code").Readers(Project)); !slices.Equal(got, []string{"vscode", "grok-build", "copilot-cli", "qwen-code", "qoder", "kimi-code", "visual-studio"}) {
		t.Errorf("Readers(project) of claude-code: %v", got)
	}
	if got := get("claude-code").ReadersOf(Project, "other.json"); got != nil {
		t.Errorf("readers of a file that is not a candidate: %v", names(got))
	}
}

// TestServersPath: the servers of Claude Code's local scope sit under the project's own
// key in ~/.claude.json (V11); other files keep them under the servers key.
//
// spec: V11
func TestServersPath(t *testing.T) {
	p, _ := Get("claude-code")
	if got := p.Local.ServersPath(p.ServersKey, "/w/repo"); !slices.Equal(got, []string{"projects", "/w/repo", "mcpServers"}) {
		t.Errorf("local servers path %q", got)
	}
	if got := p.User.ServersPath(p.ServersKey, "/w/repo"); !slices.Equal(got, []string{"mcpServers"}) {
		t.Errorf("user servers path %q", got)
	}
	if !p.Local.Nested() || p.User.Nested() || !p.Local.SameFile(p.User) {
		t.Error("local is nested in the user file")
	}
	a, _ := Get("amp")
	if got := a.User.ServersPath(a.ServersKey, "/w"); !slices.Equal(got, []string{"amp.mcpServers"}) {
		t.Errorf("amp servers path %q: one flat key", got)
	}
}

// TestSameFileNames: two destinations name the same file when a directory and file
// name of one joins to those of the other, whatever part of the path each puts in its
// file name, and a join that ends in "." or ".." is compared whole. Two plain names
// that differ are told apart without building a path (no allocation).
//
// spec: V10
func TestSameFileNames(t *testing.T) {
	for _, c := range []struct {
		dir1  []string
		file1 string
		dir2  []string
		file2 string
		want  bool
	}{
		{[]string{".kiro", "settings"}, "mcp.json", []string{".kiro"}, "settings/mcp.json", true},
		{[]string{".kiro"}, "settings/../mcp.json", []string{".kiro"}, "mcp.json", true},
		{[]string{".roo", "x"}, "..", []string{}, ".roo", true},
		{[]string{".roo"}, ".", []string{}, ".roo", true},
		{[]string{".vscode"}, "mcp.json", []string{".cursor"}, "mcp.json", false},
		{[]string{".vscode"}, "mcp.json", []string{".vscode"}, "settings.json", false},
	} {
		a := &Dest{Dir: c.dir1, Files: []string{c.file1}}
		b := &Dest{Dir: c.dir2, Files: []string{c.file2}}
		if got := a.SameFile(b); got != c.want {
			t.Errorf("%v %q vs %v %q: SameFile %v, want %v", c.dir1, c.file1, c.dir2, c.file2, got, c.want)
		}
		if got := b.SameFile(a); got != c.want {
			t.Errorf("%v %q vs %v %q: SameFile %v, want %v", c.dir2, c.file2, c.dir1, c.file1, got, c.want)
		}
	}
	a := &Dest{Dir: []string{".vscode"}, Files: []string{"mcp.json"}}
	b := &Dest{Dir: []string{".vscode"}, Files: []string{"settings.json", "settings.jsonc"}}
	if n := testing.AllocsPerRun(100, func() { a.SameFile(b) }); n != 0 {
		t.Errorf("SameFile of two different names allocates %v times, want 0", n)
	}
}
