package format

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/limits"
)

// allocated is how many bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hostile are files that go past one of the limits on what mcpwire reads: nesting
// 100,000 levels deep in every way each format has, and files over the size limit.
// want is what the error says went past its limit.
var hostile = []struct {
	name   string
	format Format
	src    string
	want   string
}{
	{"json arrays", JSON, `{"mcpServers": {}, "x": ` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "}", "nesting depth over mcpwire's limit of 1000 levels (line 1)"},
	{"json objects", JSONC, strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000), "nesting depth over mcpwire's limit of 1000 levels (line 1)"},
	{"toml arrays", TOML, "a = 1\nx = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n", "nesting depth over mcpwire's limit of 1000 levels (line 2)"},
	{"toml inline tables", TOML, "x = " + strings.Repeat("{a=", 5000) + "1" + strings.Repeat("}", 5000) + "\n", "nesting depth over mcpwire's limit of 1000 levels (line 1)"},
	{"toml table name", TOML, "[" + strings.Repeat("a.", 100_000) + "b]\nx = 1\n", "nesting depth over mcpwire's limit of 1000 levels (line 1)"},
	{"toml dotted key", TOML, "[t]\n" + strings.Repeat("a.", 100_000) + "b = 1\n", "nesting depth over mcpwire's limit of 1000 levels (line 2)"},
	{"toml under a table", TOML, "[" + strings.Repeat("a.", 600) + "b]\n" + strings.Repeat("c.", 600) + "d = 1\n", "nesting depth over mcpwire's limit of 1000 levels (line 2)"},
	{"toml size", TOML, "# " + strings.Repeat("x", limits.TextBytes), "size over mcpwire's limit of 16 MiB"},
}

// spec: K1 K3
// TestParseRefusesPastTheLimits: a file past a limit is refused with a *limits.Error
// naming the file and the limit, and refusing it allocates a few MB at most.
func TestParseRefusesPastTheLimits(t *testing.T) {
	for _, c := range hostile {
		var err error
		src := []byte(c.src)
		n := allocated(func() { _, err = Parse(c.format, "/p/file", src, true) })
		var le *limits.Error
		if !errors.As(err, &le) || !errors.Is(err, limits.ErrRefused) {
			t.Errorf("%s: %v, want a *limits.Error", c.name, err)
			continue
		}
		if want := "/p/file: refused: " + c.want; err.Error() != want {
			t.Errorf("%s: %q, want %q", c.name, err, want)
		}
		if n > 8<<20 {
			t.Errorf("%s: refusing took %d MB", c.name, n>>20)
		}
	}
}

// TestParseTakesWhatIsWithinTheLimits: nesting at the limit and a YAML or TOML file
// of the largest size are read.
func TestParseTakesWhatIsWithinTheLimits(t *testing.T) {
	d := limits.Depth
	for _, c := range []struct {
		format Format
		src    string
	}{
		{JSON, strings.Repeat(`{"a":`, d) + "1" + strings.Repeat("}", d)},
		{TOML, "[" + strings.Repeat("a.", d-3) + "b]\nc = [1]\n"},
		{TOML, "x = 1\n# " + strings.Repeat("x", limits.TextBytes-10) + "\n"},
	} {
		if _, err := Parse(c.format, "/p/file", []byte(c.src), true); err != nil {
			t.Errorf("%s %.40q: %v", c.format, c.src, err)
		}
	}
}
