package jsonc

// valueStyle says how reformat lays a value out: one member or element per line
// (multiline: each line starts with nl, indent and one unit per level, as
// json.Indent with that prefix and unit writes it, nl for its line feeds), or on one
// line, as json.Compact writes it, with a space after each ':' and ',' when spaced.
type valueStyle struct {
	multiline, spaced bool
	nl, indent, unit  string
}

// Valid reports whether value is one standard JSON value (RFC 8259, as json.Valid
// says; no comments, no trailing commas) nested at most limits.Depth levels, as every
// document mcpwire reads is: one pass of this package's scanner, which skips a
// string's plain bytes eight at a time (K7: a 200,000-entry import checks 40 MB).
func Valid(value []byte) bool {
	_, ok := reformat(nil, value, nil)
	return ok
}

// reformat validates value as Valid does and, with a style, appends it to
// dst laid out in that style: strings, numbers and literals as they are written,
// whitespace between tokens replaced by the style's. It is json.Valid, json.Indent,
// json.Compact and the spacing of a one-line object in one pass over the value
// (FuzzReformat; K7: an import writes 200,000 values, 30 MB). With a nil style it
// only validates and returns dst as it is.
func reformat(dst, value []byte, st *valueStyle) ([]byte, bool) {
	n := len(value)
	var stack [maxDepth]byte // '{' or '[' for each open container
	depth := 0
	emit := st != nil
	state := stValue
	i := 0
	for {
		if i = skipWS(value, i); i >= n {
			return dst, false
		}
		c := value[i]
		switch state {
		case stKey:
			if c != '"' {
				return dst, false
			}
			end, serr := scanString(value, i)
			if serr != nil {
				return dst, false
			}
			if emit {
				dst = append(dst, value[i:end]...)
			}
			if i = skipWS(value, end); i >= n || value[i] != ':' {
				return dst, false
			}
			i++
			if emit {
				dst = append(dst, ':')
				if st.multiline || st.spaced {
					dst = append(dst, ' ')
				}
			}
			state = stValue
			continue

		case stValue:
			start := i
			var serr *scanError
			switch {
			case c == '"':
				i, serr = scanString(value, i)
			case c == '{' || c == '[':
				if depth == maxDepth {
					return dst, false
				}
				stack[depth] = c
				depth++
				if emit {
					dst = append(dst, c)
				}
				if i = skipWS(value, i+1); i < n && value[i] == c+2 { // '}' or ']': empty
					i++
					depth--
					if emit {
						dst = append(dst, c+2)
					}
					break
				}
				if emit && st.multiline {
					dst = st.newline(dst, depth)
				}
				if c == '{' {
					state = stKey
				}
				continue
			case c == '-' || isDigit(c):
				i, serr = scanNumber(value, i)
			case c == 't':
				i, serr = scanLiteral(value, i, "true")
			case c == 'f':
				i, serr = scanLiteral(value, i, "false")
			case c == 'n':
				i, serr = scanLiteral(value, i, "null")
			default:
				return dst, false
			}
			if serr != nil {
				return dst, false
			}
			if emit && c != '{' && c != '[' {
				dst = append(dst, value[start:i]...)
			}

		case stAfter:
			top := stack[depth-1]
			switch c {
			case ',':
				i++
				if emit {
					dst = append(dst, ',')
					if st.multiline {
						dst = st.newline(dst, depth)
					} else if st.spaced {
						dst = append(dst, ' ')
					}
				}
				if top == '{' {
					state = stKey
				} else {
					state = stValue
				}
				continue
			case top + 2:
				i++
				depth--
				if emit {
					if st.multiline {
						dst = st.newline(dst, depth)
					}
					dst = append(dst, c)
				}
			default:
				return dst, false
			}
		}
		if depth == 0 { // the value ended: only whitespace may follow
			return dst, skipWS(value, i) == n
		}
		state = stAfter
	}
}

// newline appends a line break and the indentation of depth levels.
func (st *valueStyle) newline(dst []byte, depth int) []byte {
	dst = append(append(dst, st.nl...), st.indent...)
	for range depth {
		dst = append(dst, st.unit...)
	}
	return dst
}
