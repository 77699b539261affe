package tomledit

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// scalar converts a scalar value node to the Go value go-toml decodes it to. The parser
// delimits and classifies the value; like go-toml, the conversion validates what is left (the
// range of integers and floats, the fields of dates and times).
func scalar(n *unstable.Node) (any, error) {
	b := n.Data
	switch n.Kind {
	case unstable.String:
		return string(b), nil
	case unstable.Bool:
		return b[0] == 't', nil
	case unstable.Integer:
		return integer(b)
	case unstable.Float:
		return float(b)
	case unstable.LocalDate:
		var d toml.LocalDate
		err := d.UnmarshalText(b)
		return d, err
	case unstable.LocalTime:
		var t toml.LocalTime
		err := t.UnmarshalText(b)
		return t, err
	case unstable.LocalDateTime:
		var t toml.LocalDateTime
		err := t.UnmarshalText(b)
		return t, err
	case unstable.DateTime:
		return dateTime(b)
	}
	return nil, fmt.Errorf("unsupported value kind %s", n.Kind)
}

// withoutUnderscores returns b without its digit separators.
func withoutUnderscores(b []byte) string {
	return strings.ReplaceAll(string(b), "_", "")
}

// integer converts a decimal, hexadecimal (0x), octal (0o) or binary (0b) integer, whose
// underscores the parser has checked are between digits, to an int64.
func integer(b []byte) (int64, error) {
	s, base, name := withoutUnderscores(b), 10, "decimal"
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base, name = 16, "hexadecimal"
		case 'o':
			base, name = 8, "octal"
		case 'b':
			base, name = 2, "binary"
		}
		if base != 10 {
			s = s[2:]
		}
	}
	i, err := strconv.ParseInt(s, base, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s number is too large to fit in a 64-bit signed integer", name)
		}
		return 0, fmt.Errorf("invalid %s number %s", name, b)
	}
	return i, nil
}

// float converts a float (inf and nan included, with an optional sign) to a float64.
func float(b []byte) (float64, error) {
	s := withoutUnderscores(b)
	switch strings.TrimLeft(s, "+-") {
	case "inf":
		if s[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case "nan":
		return math.NaN(), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("unable to parse float: %w", err)
	}
	return f, nil
}

// dateTime converts a date-time with an offset (Z or ±HH:MM) to a time.Time, in UTC for a zero
// offset and in a fixed unnamed zone otherwise.
func dateTime(b []byte) (time.Time, error) {
	// The local date-time is YYYY-MM-DD, a separator, HH:MM, optionally :SS and, after seconds,
	// a fraction; the offset follows.
	i := min(16, len(b))
	if i < len(b) && b[i] == ':' {
		i = min(i+3, len(b))
		if i < len(b) && b[i] == '.' {
			i++
			for i < len(b) && b[i] >= '0' && b[i] <= '9' {
				i++
			}
		}
	}
	var dt toml.LocalDateTime
	if err := dt.UnmarshalText(b[:i]); err != nil {
		return time.Time{}, err
	}
	zone, err := offsetZone(b[i:])
	if err != nil {
		return time.Time{}, err
	}
	return time.Date(dt.Year, time.Month(dt.Month), dt.Day, dt.Hour, dt.Minute, dt.Second, dt.Nanosecond, zone), nil
}

// offsetZone converts the offset of a date-time: Z, z, +HH:MM or -HH:MM.
func offsetZone(b []byte) (*time.Location, error) {
	switch {
	case len(b) == 0:
		return nil, errors.New("date-time is missing timezone")
	case len(b) == 1 && (b[0] == 'Z' || b[0] == 'z'):
		return time.UTC, nil
	case len(b) != 6 || b[0] != '+' && b[0] != '-' || b[3] != ':':
		return nil, fmt.Errorf("invalid date-time timezone %s", b)
	}
	hours, err1 := twoDigits(b[1:3])
	minutes, err2 := twoDigits(b[4:6])
	if err1 != nil || err2 != nil || hours > 23 || minutes > 59 {
		return nil, fmt.Errorf("invalid date-time timezone %s", b)
	}
	seconds := hours*3600 + minutes*60
	if b[0] == '-' {
		seconds = -seconds
	}
	if seconds == 0 {
		return time.UTC, nil
	}
	return time.FixedZone("", seconds), nil
}

// twoDigits converts two decimal digits.
func twoDigits(b []byte) (int, error) {
	if b[0] < '0' || b[0] > '9' || b[1] < '0' || b[1] > '9' {
		return 0, errors.New("expected digit (0-9)")
	}
	return int(b[0]-'0')*10 + int(b[1]-'0'), nil
}
