package format

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/pelletier/go-toml/v2/unstable"
	"go.yaml.in/yaml/v3"
)

// Line returns the line (1-based) of the member at path in data, a file of format f:
// the line of its key; with elem, the line of that string element of the array at
// path. In a container whose entries are a list named by a member (c.NameKey), path
// may name an entry by its name right after c.Path. 0 when it is not there (a line
// is a pointer for the person, never a condition: `mcpwire explain`).
func Line(f Format, data []byte, c Container, path []string, elem string) int {
	return NewLocator(f, data).Line(c, path, elem)
}

// Locator finds the lines of members of one file's data, parsing it once for every
// question where its format needs a tree (YAML).
type Locator struct {
	f    Format
	data []byte
	yaml *yaml.Node // the parsed document, once asked for
}

// NewLocator returns a Locator of data, a file of format f.
func NewLocator(f Format, data []byte) *Locator { return &Locator{f: f, data: data} }

// Line is Line for the locator's file.
func (l *Locator) Line(c Container, path []string, elem string) int {
	f, data := l.f, l.data
	var off int
	switch f {
	case TOML:
		off = tomlOffset(data, c, path)
	case YAML:
		if l.yaml == nil {
			l.yaml = &yaml.Node{}
			if yaml.Unmarshal(data, l.yaml) != nil {
				l.yaml.Content = nil
			}
		}
		return yamlLine(l.yaml, c, path, elem)
	default:
		key, start, end, ok := jsonc.Locate(data, path...)
		if !ok {
			return 0
		}
		off = key
		if elem != "" {
			if i := bytes.Index(data[start:end], []byte(strconv.Quote(elem))); i >= 0 {
				off = start + i
			}
		}
	}
	if off < 0 {
		return 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// tomlOffset is the offset of the key (or table header) of the member at path in a
// TOML document, -1 when it has none. A [[list]] entry of c is named by its NameKey
// member.
func tomlOffset(data []byte, c Container, path []string) int {
	want := strings.Join(path, "\x00")
	var p unstable.Parser
	p.Reset(data)
	var table []string // the current [header]'s key
	count := map[string]int{}
	named := map[string]string{} // "<list>\x00<index>" → the entry's name
	headers := map[string]int{}  // "<list>\x00<index>" → its [[header]]
	found := -1
	at := func(n *unstable.Node) int {
		off := cap(data) - cap(n.Data)
		if off < 0 || off > len(data) {
			return -1
		}
		return off
	}
	// name turns a key with [[list]] indexes into one with entry names
	name := func(key []string) string {
		out := make([]string, 0, len(key))
		for i := 0; i < len(key); i++ {
			if c.NameKey != "" && i+1 < len(key) && strings.Join(key[:i+1], "\x00") == strings.Join(c.Path, "\x00") {
				out = append(out, key[i])
				if n, ok := named[strings.Join(key[:i+2], "\x00")]; ok {
					out = append(out, n)
					i++
					continue
				}
				continue
			}
			out = append(out, key[i])
		}
		return strings.Join(out, "\x00")
	}
	for p.NextExpression() {
		e := p.Expression()
		var parts []string
		first := -1
		for it := e.Key(); it.Next(); {
			if first < 0 {
				first = at(it.Node())
			}
			parts = append(parts, string(it.Node().Data))
		}
		var key []string
		switch e.Kind {
		case unstable.Table:
			table = parts
			key = parts
		case unstable.ArrayTable:
			list := strings.Join(parts, "\x00")
			table = append(append([]string(nil), parts...), strconv.Itoa(count[list]))
			count[list]++
			key = table
			headers[strings.Join(table, "\x00")] = first
		case unstable.KeyValue:
			key = append(append([]string(nil), table...), parts...)
			if c.NameKey != "" && len(parts) == 1 && parts[0] == c.NameKey && e.Value().Kind == unstable.String {
				named[strings.Join(table, "\x00")] = string(e.Value().Data)
				if h, ok := headers[strings.Join(table, "\x00")]; ok && found < 0 && name(table) == want {
					found = h
				}
			}
		default:
			continue
		}
		// a table defined by dotted keys only is where its first key is
		if k := name(key); found < 0 && (k == want || strings.HasPrefix(k, want+"\x00")) {
			found = first
		}
	}
	if p.Error() != nil {
		return -1
	}
	return found
}

// yamlLine is Line for YAML: the line of the key of the member at path (an entry of a
// list container by its name), or of the string element elem of the sequence there.
func yamlLine(doc *yaml.Node, c Container, path []string, elem string) int {
	if len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	line := n.Line
	for i, name := range path {
		if n.Kind == yaml.SequenceNode && c.NameKey != "" && i == len(c.Path) {
			var hit *yaml.Node
			for _, el := range n.Content {
				if _, v := yamlKey(el, c.NameKey); v != nil && v.Value == name {
					hit = el
				}
			}
			if hit == nil {
				return 0
			}
			n, line = hit, hit.Line
			continue
		}
		k, v := yamlKey(n, name)
		if k == nil {
			return 0
		}
		line, n = k.Line, v
	}
	if elem != "" && n.Kind == yaml.SequenceNode {
		for _, el := range n.Content {
			if el.Kind == yaml.ScalarNode && el.Value == elem {
				return el.Line
			}
		}
	}
	return line
}

// yamlKey returns the key and value nodes of member name of a mapping node (the last
// one of that name), nils when it has none.
func yamlKey(m *yaml.Node, name string) (key, value *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			key, value = m.Content[i], m.Content[i+1]
		}
	}
	return key, value
}
