package tomledit

import (
	"math"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	got := string(Table("mcp_servers", "docs", []KV{
		{"command", "npx"},
		{"args", []string{"-y", "@acme/docs"}},
		{"empty_args", []string{}},
		{"env", Inline{{"A", "x"}, {"B-C", "y"}, {"has space", "z"}, {"", "empty"}}},
		{"no_env", Inline{}},
		{"enabled", false},
		{"startup_timeout_sec", 10.0},
		{"tool_timeout_sec", 6000},
		{"big", int64(math.MaxInt64)},
		{"mixed", []any{"a", 1, true, Inline{{"k", "v"}}}},
		{"odd key.name", "v"},
	}, "\n"))
	want := `[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs"]
empty_args = []
env = { A = "x", B-C = "y", "has space" = "z", "" = "empty" }
no_env = {}
enabled = false
startup_timeout_sec = 10.0
tool_timeout_sec = 6000
big = 9223372036854775807
mixed = ["a", 1, true, { k = "v" }]
"odd key.name" = "v"
`
	if got != want {
		t.Errorf("Table:\n got: %s\nwant: %s", got, want)
	}
	if _, err := parseFramed([]byte(got)); err != nil {
		t.Errorf("Table output does not parse: %v", err)
	}
}

func TestTableHeaderAndNewline(t *testing.T) {
	for _, tc := range []struct{ key, name, nl, want string }{
		{"mcp_servers", "docs", "\n", "[mcp_servers.docs]\n"},
		{"mcp_servers", "my.server", "\r\n", "[mcp_servers.\"my.server\"]\r\n"},
		{"mcp_servers", "", "\n", "[mcp_servers.\"\"]\n"},
		{"mcp_servers", "ünï", "\n", "[mcp_servers.\"ünï\"]\n"},
		{"mcp_servers", `a"b\c`, "\n", `[mcp_servers."a\"b\\c"]` + "\n"},
		{"mcp servers", "x_Y-9", "\n", "[\"mcp servers\".x_Y-9]\n"},
	} {
		if got := string(Table(tc.key, tc.name, nil, tc.nl)); got != tc.want {
			t.Errorf("Table(%q, %q) = %q, want %q", tc.key, tc.name, got, tc.want)
		}
	}
	got := string(Table("mcp_servers", "x", []KV{{"a", "1"}, {"b", "2"}}, "\r\n"))
	if want := "[mcp_servers.x]\r\na = \"1\"\r\nb = \"2\"\r\n"; got != want {
		t.Errorf("CRLF table = %q, want %q", got, want)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain":         `"plain"`,
		`q"b\s`:         `"q\"b\\s"`,
		"\b\t\n\f\r":    `"\b\t\n\f\r"`,
		"\x00\x1b\x7f":  `"\u0000\u001B\u007F"`,
		"é 中 😀":         `"é 中 😀"`,
		"bad\xffutf8":   "\"bad\uFFFDutf8\"",
		"${VAR:-x}":     `"${VAR:-x}"`,
		"'single'":      `"'single'"`,
		`"""triple"""`:  `"\"\"\"triple\"\"\""`,
		"# not comment": `"# not comment"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for in, want := range map[float64]string{
		10:           "10.0",
		0:            "0.0",
		-2.5:         "-2.5",
		0.001:        "0.001",
		1e20:         "1e+20",
		1.5e-7:       "1.5e-07",
		123456789012: "123456789012.0",
		math.Inf(1):  "inf",
		math.Inf(-1): "-inf",
	} {
		if got := formatFloat(in); got != want {
			t.Errorf("formatFloat(%v) = %q, want %q", in, got, want)
		}
	}
	// negative zero keeps its sign (a map key -0 would equal 0)
	if got := formatFloat(math.Copysign(0, -1)); got != "-0.0" {
		t.Errorf("formatFloat(-0) = %q, want %q", got, "-0.0")
	}
	if got := formatFloat(math.NaN()); got != "nan" {
		t.Errorf("formatFloat(NaN) = %q", got)
	}
}

func TestTableRoundTrip(t *testing.T) {
	values := []any{"s", "", "a\x00b\u2028\"\\", true, 0, -7, int64(math.MinInt64), 0.5, 1e300, 5e-324, math.Copysign(0, -1),
		[]string{"a", "b"}, []string{}, Inline{{"K", "v"}, {"k.2", "w"}}, uint8(7), float32(0.25)}
	var kvs []KV
	for i, v := range values {
		kvs = append(kvs, KV{Key: "k" + strings.Repeat("x", i), Value: v})
	}
	d, err := parseFramed(Table(key, "rt", kvs, "\n"))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	srv, _ := d.Get(key, "rt")
	want := map[string]any{
		"k": "s", "kx": "", "kxx": "a\x00b\u2028\"\\", "kxxx": true, "kxxxx": int64(0), "kxxxxx": int64(-7),
		"kxxxxxx": int64(math.MinInt64), "kxxxxxxx": 0.5, "kxxxxxxxx": 1e300, "kxxxxxxxxx": 5e-324,
		"kxxxxxxxxxx": math.Copysign(0, -1), "kxxxxxxxxxxx": []any{"a", "b"}, "kxxxxxxxxxxxx": []any{},
		"kxxxxxxxxxxxxx": map[string]any{"K": "v", "k.2": "w"}, "kxxxxxxxxxxxxxx": int64(7), "kxxxxxxxxxxxxxxx": 0.25,
	}
	if !equal(srv, want) {
		t.Errorf("round trip:\n got: %#v\nwant: %#v", srv, want)
	}
}

func TestTablePanicsOnUnsupportedValues(t *testing.T) {
	for _, v := range []any{map[string]string{"a": "b"}, struct{}{}, uint64(math.MaxUint64), nil} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Table accepted %T", v)
				}
			}()
			Table(key, "x", []KV{{"v", v}}, "\n")
		}()
	}
}
