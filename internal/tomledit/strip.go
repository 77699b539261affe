package tomledit

import (
	"fmt"
	"slices"
)

// StripTree removes the whole subtree of key in every form it may take (SPEC X1): [key] and
// [key.…] tables and arrays of tables with their leading comment blocks and everything up to the
// next table's comment block (greedily, unlike ReplaceServer and RemoveServer: see the package
// documentation), dotted keys
// (key.x.y = …) and a root key = … statement whatever its value (inline table, array, scalar). Other
// statements are kept byte for byte. If the result does not parse strictly or its data is not the
// original data without key, it returns an error and the Doc is unchanged.
func (d *Doc) StripTree(key string) error {
	rm := d.marks(func(path []string) bool { return len(path) > 0 && path[0] == key }, d.greedyExtents())
	if !slices.Contains(rm, true) {
		return nil
	}
	c := newChain(d, nil)
	var marked []*node
	for n, i := c.head, 0; n != nil; n, i = n.next, i+1 {
		if rm[i] {
			n.rm = true
			marked = append(marked, n)
		}
	}
	c.replace(marked, nil, "", nil)
	if err := d.commit(c.bytes(), shallowWithout(d.data, key), []string{key}); err != nil {
		return fmt.Errorf("strip %s: %w", formatKey(key), err)
	}
	return nil
}
