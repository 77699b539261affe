package tomledit

import "fmt"

// Op is one change of [Doc.Apply]. Block replaces sub-table Name of table Key, as [Doc.Replace]
// does; a nil Block removes it, as [Doc.Remove] does. With Item set, Name is the value of member
// Item of an entry of the array of tables Key instead (see [Doc.ReplaceItem]).
type Op struct {
	Key, Name string
	Item      string
	Block     []byte
}

// Apply makes the changes of ops in order, with exactly the result of making them one by one, but
// checks once: the result is parsed strictly and its data compared with the original data with
// every change made. Its cost is linear in the size of the document and of the blocks (one edit at
// a time re-parses the whole document each time). A document with a root inline table
// `key = { ... }` under a key the ops touch is edited one change at a time. On any failure the Doc
// is unchanged.
func (d *Doc) Apply(ops []Op) error {
	if len(ops) == 0 {
		return nil
	}
	want := clone(d.data).(map[string]any)
	var keys []string
	slow := false
	for i := range ops {
		op := &ops[i]
		if err := d.checkOp(op, want); err != nil {
			return err
		}
		keys = append(keys, op.Key)
		slow = slow || op.Item == "" && d.index(op.Key).inline >= 0
	}
	if slow {
		return d.applySlow(ops)
	}
	c := newChain(d, ops)
	for _, op := range ops {
		c.do(op)
	}
	if err := d.commit(c.bytes(), want, keys); err != nil {
		return fmt.Errorf("%s: %w", opsName(ops), err)
	}
	return nil
}

// checkOp refuses an op on a key of the wrong kind or with a bad block, normalises its block (a
// final line terminator), and makes its change in want.
func (d *Doc) checkOp(op *Op, want map[string]any) error {
	if op.Item != "" {
		return d.checkItemOp(op, want)
	}
	if err := d.Check(op.Key); err != nil {
		return err
	}
	tables, ok := want[op.Key].(map[string]any)
	if op.Block == nil {
		if ok {
			delete(tables, op.Name)
		}
		return nil
	}
	val, block, err := d.checkBlock(op.Key, op.Name, op.Block)
	if err != nil {
		return err
	}
	op.Block = block
	if !ok {
		tables = map[string]any{}
		want[op.Key] = tables
	}
	tables[op.Name] = val
	return nil
}

// opsName names the change for an error message.
func opsName(ops []Op) string {
	verb := "edit"
	if len(ops) == 1 && ops[0].Block != nil {
		verb = "replace"
	} else if len(ops) == 1 {
		verb = "remove"
	}
	return verb + " " + formatPath([]string{ops[0].Key, ops[0].Name})
}

// applySlow makes the changes one by one, each checked (a root inline table is rewritten by the
// first one that touches it).
func (d *Doc) applySlow(ops []Op) error {
	orig := *d
	want := clone(d.data).(map[string]any)
	for _, op := range ops {
		if err := d.checkOp(&op, want); err != nil {
			*d = orig
			return err
		}
		var err error
		if op.Block != nil {
			err = d.replaceSlow(op.Key, op.Name, op.Block, clone(want).(map[string]any))
		} else if tables, _ := d.data[op.Key].(map[string]any); tables[op.Name] != nil {
			err = d.removeSlow(op.Key, op.Name, clone(want).(map[string]any))
		}
		if err != nil {
			*d = orig
			return fmt.Errorf("%s: %w", opsName([]Op{op}), err)
		}
	}
	return nil
}

// CheckBlock reports whether op's Block can replace its table as it is (see [Doc.Replace]
// and [Doc.ReplaceItem]): a block that defines exactly that table, and nothing but its
// own lines. It changes nothing.
func (d *Doc) CheckBlock(op Op) error {
	if op.Block == nil {
		return fmt.Errorf("no block for %s", formatPath([]string{op.Key, op.Name}))
	}
	var err error
	if op.Item != "" {
		_, _, err = d.checkItemBlock(op.Key, op.Item, op.Name, op.Block)
	} else {
		_, _, err = d.checkBlock(op.Key, op.Name, op.Block)
	}
	return err
}
