package render_test

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/winetest"
	"github.com/mcpwire/mcpwire/render/tomledit"
)

// codexConfig returns a ~/.codex/config.toml with n servers, each a [mcp_servers.sN] table
// with a command and arguments and an [mcp_servers.sN.env] sub-table.
func codexConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("model = \"o3\"\napproval_policy = \"on-request\"\n\n[profiles.fast]\nmodel = \"gpt-5-mini\"\n")
	for i := 0; i < n; i++ {
		s := strconv.Itoa(i)
		b.WriteString("\n[mcp_servers.s" + s + "]\ncommand = \"srv\"\nargs = [\"--n\", \"" + s + "\"]\n")
		b.WriteString("\n[mcp_servers.s" + s + ".env]\nTOKEN = \"token-" + s + "\"\n")
	}
	return []byte(b.String())
}

// parseTime returns how long a strict parse of src takes (tomledit.Parse, as every edit of a
// TOML file starts). The collector is off while it runs: a small document is parsed before the
// heap reaches the size that starts a collection and a large one is not, which would make the
// large one look slower per table for a reason that is no part of the parse.
func parseTime(t *testing.T, src []byte) time.Duration {
	t.Helper()
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	start := time.Now()
	if _, err := tomledit.Parse(src); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

// spec: W1
// TestCodexTOMLScalesLinearly parses a Codex config.toml with 2,000 and with 16,000 server
// tables, five times each, interleaved so that a change of the machine's load falls on both:
// 8 times the tables must take at most 16 times as long (the shortest runs compared). Linear
// work measures about 10 here (the larger document no longer fits the caches); go-toml's
// strict decode, whose duplicate-key tracker searched sibling tables linearly, took about 55
// times as long, and any quadratic term of that size stays far above the bound.
func TestCodexTOMLScalesLinearly(t *testing.T) {
	winetest.Skip(t, winetest.Speed)
	small, large := codexConfig(2000), codexConfig(16000)
	parseTime(t, small) // warm up
	var t2k, t16k time.Duration
	for i := 0; i < 5; i++ {
		if d := parseTime(t, small); i == 0 || d < t2k {
			t2k = d
		}
		if d := parseTime(t, large); i == 0 || d < t16k {
			t16k = d
		}
	}
	ratio := float64(t16k) / float64(t2k)
	t.Logf("2,000 tables: %v, 16,000 tables: %v, ratio %.1f", t2k, t16k, ratio)
	if ratio > 16 {
		t.Errorf("16,000 tables take %.1f times as long as 2,000 (%v, %v), want at most 16", ratio, t16k, t2k)
	}
}
