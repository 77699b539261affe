package tomledit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/limits"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Decode parses a TOML document strictly into the data model toml.Unmarshal (go-toml v2) gives
// a map[string]any: tables are map[string]any, arrays and arrays of tables []any, integers
// int64, floats float64, offset date-times time.Time and local dates, times and date-times
// toml.LocalDate, toml.LocalTime and toml.LocalDateTime. Like go-toml it refuses every syntax
// error, duplicate keys and redefined or illegally extended tables, with errors worded
// "line N: <message>"; unlike go-toml's tracker, its cost is linear in the size of the document
// (each key part is one hash lookup, however many sibling tables there are).
func Decode(src []byte) (map[string]any, error) {
	return decodeMax(src, limits.Depth)
}

// decodeMax is Decode refusing nesting deeper than max (a *limits.Error).
func decodeMax(src []byte, max int) (map[string]any, error) {
	if err := nesting(src, max); err != nil {
		return nil, err
	}
	dc := decoder{src: src, p: parsers.Get().(*unstable.Parser), max: max}
	defer func() {
		dc.p.Reset(nil)
		parsers.Put(dc.p)
	}()
	dc.root = def{kind: defTable, explicit: true, table: map[string]any{}}
	dc.cur = &dc.root
	dc.p.Reset(src)
	for dc.p.NextExpression() {
		if err := dc.expression(dc.p.Expression()); err != nil {
			return nil, err
		}
	}
	if err := dc.p.Error(); err != nil {
		var pe *unstable.ParserError
		if errors.As(err, &pe) {
			if strings.Contains(pe.Message, "nested more than the maximum") {
				// go-toml's own limit (10,000 levels), past mcpwire's
				return nil, limits.Nesting(bytes.Count(dc.src[:dc.offset(pe.Highlight)], []byte("\n")) + 1)
			}
			return nil, dc.errAt(dc.offset(pe.Highlight), "%s", pe.Message)
		}
		return nil, err
	}
	return dc.root.table, nil
}

// parsers keeps go-toml parsers, and their node arenas, for the next Decode: a file's
// entries are decoded one by one, each with a parser of its own before (an arena of
// 64 nodes or more each time, half the bytes of an injection into a TOML file).
var parsers = sync.Pool{New: func() any { return new(unstable.Parser) }}

// decoder is the state of one Decode.
type decoder struct {
	src  []byte
	p    *unstable.Parser
	root def
	cur  *def // the table of the current [header]

	// parts is a stack of the key parts of the expression being decoded and of the inline
	// tables its value is in, so that an error names a key by its full path.
	parts []*unstable.Node

	// failed is the first value that could not be converted in the current expression: it is
	// reported only if the expression's keys are all valid, as go-toml checks them first.
	failed error

	// headerDepth is the number of key parts of the current [header]; nest the arrays and
	// inline tables the value being decoded is in: with dc.parts, how deep it is (K1).
	headerDepth, nest int
	max               int // the deepest nesting read (limits.Depth)
}

// depth refuses a document nested deeper than dc.max (limits.Depth) at node n: each key part
// of a table's name or of a dotted key is a level, as are the arrays and inline tables
// around a value.
func (dc *decoder) depth(n *unstable.Node) error {
	d := len(dc.parts) + dc.nest
	if n.Kind == unstable.KeyValue || dc.nest > 0 {
		d += dc.headerDepth // under the current [header]
	}
	if d <= dc.max {
		return nil
	}
	line := bytes.Count(dc.src[:min(int(n.Raw.Offset), len(dc.src))], []byte("\n")) + 1
	return limits.Nesting(line)
}

// offset returns the offset of the parser error highlight h in the document.
func (dc *decoder) offset(h []byte) int {
	off := cap(dc.src) - cap(h)
	if off < 0 || off > len(dc.src) {
		return len(dc.src)
	}
	return off
}

// errAt returns an error at offset off of the document, worded "line N: <message>".
func (dc *decoder) errAt(off int, format string, args ...any) error {
	line := bytes.Count(dc.src[:off], []byte("\n")) + 1
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// pushKey pushes the parts of the key of e (a key/value or a header) and returns the stack.
func (dc *decoder) pushKey(e *unstable.Node) []*unstable.Node {
	it := e.Key()
	for it.Next() {
		dc.parts = append(dc.parts, it.Node())
	}
	return dc.parts
}

// expression decodes one top-level expression.
func (dc *decoder) expression(e *unstable.Node) error {
	dc.parts = dc.parts[:0]
	parts := dc.pushKey(e)
	if err := dc.depth(e); err != nil {
		return err
	}
	switch e.Kind {
	case unstable.Table:
		dc.headerDepth = len(parts)
		return dc.table(parts)
	case unstable.ArrayTable:
		dc.headerDepth = len(parts)
		return dc.arrayTable(parts)
	case unstable.KeyValue:
		dc.failed = nil
		if err := dc.keyValue(dc.cur, e, 0); err != nil {
			return err
		}
		return dc.failed
	}
	return dc.errAt(int(e.Raw.Offset), "unexpected expression kind %s", e.Kind)
}

// keyValue decodes the key/value kv, whose key parts are dc.parts[from:], into table d.
func (dc *decoder) keyValue(d *def, kv *unstable.Node, from int) error {
	d, name, err := dc.define(d, dc.parts, from)
	if err != nil {
		return err
	}
	v, err := dc.value(kv.Value())
	if err != nil {
		return err
	}
	d.table[name] = v
	return nil
}

// value decodes a value. It returns the errors of the keys of inline tables; a value that
// cannot be converted is recorded in dc.failed and decoded as nil.
func (dc *decoder) value(n *unstable.Node) (any, error) {
	switch n.Kind {
	case unstable.Array, unstable.InlineTable:
		dc.nest++
		defer func() { dc.nest-- }()
		if err := dc.depth(n); err != nil {
			return nil, err
		}
	}
	switch n.Kind {
	case unstable.Array:
		count := 0
		for it := n.Children(); it.Next(); {
			if it.Node().Kind != unstable.Comment {
				count++
			}
		}
		out := make([]any, 0, count)
		for it := n.Children(); it.Next(); {
			if it.Node().Kind == unstable.Comment {
				continue
			}
			v, err := dc.value(it.Node())
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case unstable.InlineTable:
		return dc.inlineTable(n)
	}
	v, err := scalar(n)
	if err != nil && dc.failed == nil {
		dc.failed = dc.errAt(int(n.Raw.Offset), "%s", err)
	}
	return v, nil
}

// inlineTable decodes an inline table: its keys are checked like those of a table, in a
// definition scope of their own that nothing outside the inline table can extend.
func (dc *decoder) inlineTable(n *unstable.Node) (any, error) {
	scope := def{kind: defValue, table: map[string]any{}}
	base := len(dc.parts)
	for it := n.Children(); it.Next(); {
		kv := it.Node()
		if kv.Kind != unstable.KeyValue {
			continue
		}
		dc.pushKey(kv)
		err := dc.keyValue(&scope, kv, base)
		dc.parts = dc.parts[:base]
		if err != nil {
			return nil, err
		}
	}
	return scope.table, nil
}
