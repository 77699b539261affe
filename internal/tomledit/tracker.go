package tomledit

import "github.com/pelletier/go-toml/v2/unstable"

// defKind is how a key of a document was defined, which decides how later expressions may
// extend it (TOML 1.0 "Table" and "Array of Tables"; go-toml's tracker applies the same rules).
type defKind uint8

const (
	// defValue is a value, inline tables and arrays included: it is never extended.
	defValue defKind = iota + 1
	// defDotted is a table created by a dotted key: only dotted keys of the same table
	// section and sub-table headers may add to it, and no header may define it.
	defDotted
	// defTable is a table created by a [header], explicitly (its own header) or implicitly (as
	// an intermediate part of a longer header); an implicit one may be defined once later.
	defTable
	// defArray is an array of tables created by [[header]]; its definitions are those of its
	// last element.
	defArray
)

// def is one defined key of a document. Tables keep their defined keys in a hash map, so that
// each part of a key costs one lookup however many siblings it has (go-toml's SeenTracker
// searches them linearly, which makes a document of N tables cost O(N²)).
type def struct {
	kind     defKind
	explicit bool
	sub      map[string]*def // defined keys (of the last element of an array of tables)
	table    map[string]any  // decoded table (the last element of an array of tables)
	array    []any           // decoded elements of an array of tables
}

// leaf is the definition of every value: values are never extended, so they share one.
var leaf = def{kind: defValue}

// add defines name in d.
func (d *def) add(name string, c *def) *def {
	if d.sub == nil {
		d.sub = make(map[string]*def)
	}
	d.sub[name] = c
	return c
}

// addTable defines name in d as an empty table of kind k, decoded into d's table.
func (d *def) addTable(name string, k defKind, explicit bool) *def {
	c := d.add(name, &def{kind: k, explicit: explicit, table: map[string]any{}})
	d.table[name] = c.table
	return c
}

// keyError is a refused definition: the key path it names and the offset of the key part.
func (dc *decoder) keyError(parts []*unstable.Node, i int, format string) error {
	path := make([]string, i+1)
	for j := range path {
		path[j] = string(parts[j].Data)
	}
	return dc.errAt(int(parts[i].Raw.Offset), format, formatPath(path))
}

// header walks the parts of a [table] or [[array]] header but the last, creating the missing
// tables as implicit ones, and returns the table the last part is defined in.
func (dc *decoder) header(parts []*unstable.Node) (*def, error) {
	d := &dc.root
	for i, p := range parts[:len(parts)-1] {
		c := d.sub[string(p.Data)]
		switch {
		case c == nil:
			c = d.addTable(string(p.Data), defTable, false)
		case c.kind == defValue:
			return nil, dc.keyError(parts, i, "key %s already exists as a value")
		}
		d = c
	}
	return d, nil
}

// table defines the [table] header with the given key parts and makes it the current table.
func (dc *decoder) table(parts []*unstable.Node) error {
	d, err := dc.header(parts)
	if err != nil {
		return err
	}
	last := len(parts) - 1
	name := parts[last].Data
	c := d.sub[string(name)]
	switch {
	case c == nil:
		c = d.addTable(string(name), defTable, true)
	case c.kind == defTable && !c.explicit:
		c.explicit = true
	case c.kind == defTable:
		return dc.keyError(parts, last, "table %s already exists")
	case c.kind == defDotted:
		return dc.keyError(parts, last, "table %s already exists as defined by a dotted key")
	case c.kind == defArray:
		return dc.keyError(parts, last, "table %s already exists as an array of tables")
	default:
		return dc.keyError(parts, last, "key %s should be a table, not a value")
	}
	dc.cur = c
	return nil
}

// arrayTable appends an element to the [[array]] with the given key parts and makes it the
// current table. The keys defined in the previous element are forgotten.
func (dc *decoder) arrayTable(parts []*unstable.Node) error {
	d, err := dc.header(parts)
	if err != nil {
		return err
	}
	last := len(parts) - 1
	name := string(parts[last].Data)
	c := d.sub[name]
	switch {
	case c == nil:
		c = d.add(name, &def{kind: defArray, explicit: true})
	case c.kind != defArray:
		return dc.keyError(parts, last, "key %s already exists, but should be an array of tables")
	default:
		c.sub = nil
	}
	c.table = map[string]any{}
	c.array = append(c.array, c.table)
	d.table[name] = c.array
	dc.cur = c
	return nil
}

// define defines the (possibly dotted) key of a key/value in table d, creating the tables of
// its intermediate parts as dotted-key tables, and returns the table the value goes in and the
// value's name. The key is parts[from:]; parts[:from] are the keys of the inline tables it is in.
func (dc *decoder) define(d *def, parts []*unstable.Node, from int) (*def, string, error) {
	last := len(parts) - 1
	for i := from; i < last; i++ {
		name := parts[i].Data
		c := d.sub[string(name)]
		switch {
		case c == nil:
			c = d.addTable(string(name), defDotted, false)
		case c.kind != defDotted:
			return nil, "", dc.keyError(parts, i, "key %s is already defined")
		}
		d = c
	}
	name := string(parts[last].Data)
	if d.sub[name] != nil {
		return nil, "", dc.keyError(parts, last, "key %s is already defined")
	}
	d.add(name, &leaf)
	return d, name, nil
}
