package tomledit

import "github.com/mcpwire/mcpwire/internal/limits"

// nesting refuses a document nested deeper than max (limits.Depth) before it is
// parsed (SPEC K1, K3): go-toml builds a node for every key part and bracket of an
// expression before it hands the expression over, so a table name of 100,000 parts
// would cost 16 MB. It counts as Decode does — each key part of a table name or of a
// key is a level, and each array and inline table around a value — reading only the
// brackets, dots, commas and equals signs outside strings and comments; where a dot
// might be part of a value (a float in a key it cannot tell apart) it counts more,
// never fewer.
func nesting(src []byte, max int) error {
	header := 0      // levels of the current table name
	cur := 0         // levels at this point of the statement
	dots := 0        // dots of the key being read
	key := true      // reading a key: at a statement's start, after { or , in an inline table
	inHead := 0      // the [ or [[ of a table name being read
	var stack []byte // the open [ and { of the value being read
	var base []int   // cur where each of them opened
	line := 1
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			line++
			if len(stack) == 0 && inHead == 0 {
				cur, dots, key = header, 0, true
			}
			continue
		case c == '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'':
			i = stringEnd(src, i, &line) - 1
			continue
		case c == '.' && key:
			dots++
		case c == '=' && key:
			cur += dots + 1
			dots, key = 0, false
		case c == '[' && key && len(stack) == 0:
			inHead++ // [ or [[ of a table name
		case c == ']' && inHead > 0:
			if inHead--; inHead == 0 {
				header = dots + 1
				cur, dots = header, 0
			}
		case c == '[' || c == '{':
			stack, base = append(stack, c), append(base, cur)
			cur++
			key = c == '{'
		case (c == ']' || c == '}') && len(stack) > 0:
			cur = base[len(base)-1]
			stack, base = stack[:len(stack)-1], base[:len(base)-1]
			key = false
		case c == ',' && len(stack) > 0:
			cur, dots = base[len(base)-1]+1, 0
			key = stack[len(stack)-1] == '{'
		}
		if cur+dots > max {
			return limits.Nesting(line)
		}
	}
	return nil
}

// stringEnd returns the offset just after the string whose quote is at src[i] (a
// multi-line one too), counting its lines; len(src) when it does not end.
func stringEnd(src []byte, i int, line *int) int {
	q := src[i]
	multi := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if multi {
		i += 2
	}
	for i++; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n' && !multi:
			return i // a single-line string does not go on (Decode says so)
		case c == '\n':
			*line++
		case c == '\\' && q == '"':
			i++
		case c == q && !multi:
			return i + 1
		case c == q && i+2 < len(src) && src[i+1] == q && src[i+2] == q:
			for i+3 < len(src) && src[i+3] == q { // up to two more quotes end the string
				i++
			}
			return i + 3
		}
	}
	return len(src)
}
