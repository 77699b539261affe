package tomledit

import (
	"fmt"
	"slices"
)

// Arrays of tables. An entry of the array of tables key is named by the string value of one of its
// members (item, such as "name"): [[key]] with name = "x". It owns its [[key]] table and the [key.…]
// sub-tables after it, as a table owns its statements (see the package documentation).

// CheckItems verifies that key is absent or an array of tables written as [[key]] tables, whose
// every entry has a string member item, all different. The error names the key.
func (d *Doc) CheckItems(key, item string) error {
	v, ok := d.data[key]
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok || !allTables(list) {
		return fmt.Errorf("%s%s must be an array of tables, not %s", d.linePrefix([]string{key}), formatKey(key), describe(v))
	}
	for i := range d.stmts {
		if st := &d.stmts[i]; st.kind == kindKeyValue && slices.Equal(st.path, []string{key}) {
			return fmt.Errorf("line %d: %s must be written as [[%s]] tables, not as one array", st.line, formatKey(key), formatKey(key))
		}
	}
	seen := map[string]bool{}
	for i, e := range list {
		name, ok := e.(map[string]any)[item].(string)
		if !ok {
			return fmt.Errorf("%sentry %d of %s has no string %s", d.linePrefix([]string{key}), i+1, formatKey(key), formatKey(item))
		}
		if seen[name] {
			return fmt.Errorf("%s%s has two entries named %q", d.linePrefix([]string{key}), formatKey(key), name)
		}
		seen[name] = true
	}
	return nil
}

func allTables(list []any) bool {
	for _, e := range list {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

// items is where the entries of one array of tables are, cached per key and name member.
type items struct {
	names []string
	pos   map[string]int
	stmts [][]int // per entry, the headers and key/values it owns
}

// itemsOf returns the entries of key named by member item (built on first use).
func (d *Doc) itemsOf(key, item string) *items {
	ck := key + "\x00" + item
	if x, ok := d.itemCache[ck]; ok {
		return x
	}
	x := &items{pos: map[string]int{}, stmts: d.itemStmts(key)}
	list, _ := d.data[key].([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if name, ok := m[item].(string); ok {
				x.pos[name] = len(x.names)
				x.names = append(x.names, name)
			}
		}
	}
	if d.itemCache == nil {
		d.itemCache = map[string]*items{}
	}
	d.itemCache[ck] = x
	return x
}

// ItemNames returns the names of the entries of key, in order; nil when there are none or key is
// not an array of tables.
func (d *Doc) ItemNames(key, item string) []string {
	return slices.Clone(d.itemsOf(key, item).names)
}

// Entry is the entry name of key in a document Decode returned, itself, not a copy: the
// sub-table name of key, or (item set) the element of key's array of tables whose item
// member is name, the last such as in GetItem; nil when there is none.
func Entry(data map[string]any, key, item, name string) map[string]any {
	if item == "" {
		servers, _ := data[key].(map[string]any)
		m, _ := servers[name].(map[string]any)
		return m
	}
	var found map[string]any
	list, _ := data[key].([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && m[item] == name {
			found = m
		}
	}
	return found
}

// GetItem returns a copy of the decoded entry of key named name.
func (d *Doc) GetItem(key, item, name string) (map[string]any, bool) {
	i, ok := d.itemsOf(key, item).pos[name]
	if !ok {
		return nil, false
	}
	m, ok := d.data[key].([]any)[i].(map[string]any)
	return clone(m).(map[string]any), ok
}

// ItemText returns the statements that define the entry of key named name, as Text does for a
// sub-table.
func (d *Doc) ItemText(key, item, name string) (string, bool) {
	x := d.itemsOf(key, item)
	i, ok := x.pos[name]
	if !ok || i >= len(x.stmts) {
		return "", false
	}
	return d.textOf(d.ownedMarks(x.stmts[i], name)), true
}

// itemStmts returns, per entry of key in order, the headers and key/values it owns.
func (d *Doc) itemStmts(key string) [][]int {
	var out [][]int
	prefix := []string{key}
	for i := range d.stmts {
		st := &d.stmts[i]
		switch {
		case st.kind == kindArrayTable && slices.Equal(st.path, prefix):
			out = append(out, []int{i})
		case (st.isHeader() || st.kind == kindKeyValue) && hasPrefix(st.path, prefix) && len(out) > 0:
			out[len(out)-1] = append(out[len(out)-1], i)
		}
	}
	return out
}

// ownedMarks marks the extents of the headers among idx and the key/values.
func (d *Doc) ownedMarks(idx []int, name string) map[int]bool {
	rm := map[int]bool{}
	for _, i := range idx {
		if !d.stmts[i].isHeader() {
			rm[i] = true
			continue
		}
		s, e := d.extent(i, name)
		for k := s; k < e; k++ {
			rm[k] = true
		}
	}
	return rm
}

// ReplaceItem makes the entry of key named name (by its member item) equal to block, the source
// text of one [[key]] table such as [Item] renders, which must name it; an absent entry is added at
// the end of the document. Its place, comments and tidying follow Replace. It refuses what
// CheckItems refuses; on any failure the Doc is unchanged.
func (d *Doc) ReplaceItem(key, item, name string, block []byte) error {
	return d.Apply([]Op{{Key: key, Item: item, Name: name, Block: block}})
}

// RemoveItem removes the entry of key named name, and reports whether it existed.
func (d *Doc) RemoveItem(key, item, name string) (bool, error) {
	if err := d.CheckItems(key, item); err != nil {
		return false, err
	}
	if _, ok := d.itemsOf(key, item).pos[name]; !ok {
		return false, nil
	}
	return true, d.Apply([]Op{{Key: key, Item: item, Name: name}})
}

// checkItemOp is checkOp for an entry of an array of tables.
func (d *Doc) checkItemOp(op *Op, want map[string]any) error {
	if err := d.CheckItems(op.Key, op.Item); err != nil {
		return err
	}
	list, _ := want[op.Key].([]any)
	i := slices.IndexFunc(list, func(e any) bool { return e.(map[string]any)[op.Item] == op.Name })
	if op.Block == nil {
		if i >= 0 {
			want[op.Key] = slices.Delete(slices.Clone(list), i, i+1)
		}
		return nil
	}
	val, block, err := d.checkItemBlock(op.Key, op.Item, op.Name, op.Block)
	if err != nil {
		return err
	}
	op.Block = block
	if i >= 0 {
		list = slices.Clone(list)
		list[i] = val
	} else {
		list = append(slices.Clone(list), val)
	}
	want[op.Key] = list
	return nil
}

// checkItemBlock validates an entry's block and returns its decoded value and the block ending
// with a line terminator.
func (d *Doc) checkItemBlock(key, item, name string, block []byte) (map[string]any, []byte, error) {
	if len(block) > 0 && block[len(block)-1] != '\n' {
		block = append(slices.Clone(block), d.nl...)
	}
	what := "[[" + formatKey(key) + "]] entry " + fmt.Sprintf("%q", name)
	data, err := decode(block)
	if err != nil {
		return nil, nil, fmt.Errorf("block for %s: %w", what, err)
	}
	list, _ := data[key].([]any)
	if len(data) != 1 || len(list) != 1 {
		return nil, nil, fmt.Errorf("block for %s must define exactly one [[%s]] table", what, formatKey(key))
	}
	val, _ := list[0].(map[string]any)
	if val[item] != name {
		return nil, nil, fmt.Errorf("block for %s must name it with %s = %q", what, formatKey(item), name)
	}
	stmts, err := scan(block)
	if err != nil {
		return nil, nil, fmt.Errorf("block for %s: %w", what, err)
	}
	bd := &Doc{src: block, stmts: stmts, frame: d.frame}
	owned := bd.itemStmts(key)
	if len(owned) != 1 {
		return nil, nil, fmt.Errorf("block for %s must start with a [[%s]] header", what, formatKey(key))
	}
	own := bd.ownedMarks(owned[0], name)
	for i, st := range stmts {
		if !own[i] {
			return nil, nil, fmt.Errorf("block for %s: line %d: only the table and its frame lines may be in the block", what, st.line)
		}
	}
	return val, block, nil
}

// itemIndex is the entries of one array of tables in a chain.
type itemIndex struct {
	names []string
	nodes [][]*node
}

// itemIndex builds the chain index of key's entries from the document's statements.
func (d *Doc) itemIndex(key, item string, nodes []*node) *itemIndex {
	x := &itemIndex{names: d.ItemNames(key, item)}
	for _, idx := range d.itemsOf(key, item).stmts {
		var own []*node
		for _, i := range idx {
			own = append(own, nodes[i])
		}
		x.nodes = append(x.nodes, own)
	}
	return x
}

func (x *itemIndex) own(name string) []*node {
	if i := slices.Index(x.names, name); i >= 0 && i < len(x.nodes) {
		return x.nodes[i]
	}
	return nil
}

// set records an entry's statements after an edit (nil: it was removed).
func (x *itemIndex) set(name string, own []*node) {
	i := slices.Index(x.names, name)
	switch {
	case i >= 0 && own == nil:
		x.names = slices.Delete(x.names, i, i+1)
		x.nodes = slices.Delete(x.nodes, i, i+1)
	case i >= 0:
		x.nodes[i] = own
	case own != nil:
		x.names = append(x.names, name)
		x.nodes = append(x.nodes, own)
	}
}
