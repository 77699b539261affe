package yamledit

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// normalize turns a decoded YAML value into JSON-like data: map[string]any (keys that
// are not strings are written as the decoder prints them), []any, string, bool, nil,
// int64/uint64/float64. Values JSON has no form for (infinities, NaN, timestamps,
// binary) become strings that tell them apart, so that two documents compare equal
// exactly when they decode equal.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[keyOf(k)] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "\x00float:" + strconv.FormatFloat(x, 'g', -1, 64)
		}
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	case int:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return x
	case time.Time:
		return "\x00time:" + x.Format(time.RFC3339Nano)
	case []byte:
		return "\x00binary:" + base64.StdEncoding.EncodeToString(x)
	case string, bool, nil, int64:
		return x
	}
	return fmt.Sprintf("\x00%T:%v", v, v)
}

// fromValue turns a value given to Apply into the data it decodes to.
func fromValue(v any) (any, error) {
	w := &writer{}
	v = w.plain(v)
	if w.err != nil {
		return nil, w.err
	}
	switch x := v.(type) {
	case Map:
		out := make(map[string]any, len(x))
		for _, kv := range x {
			e, err := fromValue(kv.Value)
			if err != nil {
				return nil, err
			}
			out[kv.Key] = e
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			d, err := fromValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, err
		}
		return normalize(f), nil
	}
	return normalize(v), nil
}

// clone deep-copies JSON-like data.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

// equal reports whether two normalized values are the same data.
func equal(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// change makes op's change in data (the expected result of Apply).
func change(data map[string]any, op Op, val any) {
	parent, cur, ok := container(data, op.Path, op.Item, !op.Delete)
	if !ok {
		return
	}
	if op.Item == "" {
		m := cur.(map[string]any)
		if op.Delete {
			delete(m, op.Name)
		} else {
			m[op.Name] = val
		}
		return
	}
	list := cur.([]any)
	out := list[:0:0]
	found := false
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && m[op.Item] == op.Name {
			found = true
			if !op.Delete {
				out = append(out, val)
			}
			continue
		}
		out = append(out, e)
	}
	if !found && !op.Delete {
		out = append(out, val)
	}
	if len(op.Path) == 0 {
		return
	}
	parent[op.Path[len(op.Path)-1]] = out
}

// container returns the container at path in data (a sequence when item is set) and
// its parent mapping. A container missing on the way is created when create is set
// (a sequence last when item is set, mappings otherwise); else ok is false.
func container(data map[string]any, path []string, item string, create bool) (parent map[string]any, cur any, ok bool) {
	cur, parent = data, data
	for i, k := range path {
		m, _ := cur.(map[string]any)
		next, ok := m[k]
		if !ok || next == nil {
			if !create {
				return nil, nil, false
			}
			if i == len(path)-1 && item != "" {
				next = []any{}
			} else {
				next = map[string]any{}
			}
			m[k] = next
		}
		parent, cur = m, next
	}
	return parent, cur, true
}

// changeAll makes the changes of ops in data, in order, as change does one by one. A
// run of ops on the items of one sequence is made in one pass over it: change scans
// and copies the whole sequence per op, which made n servers written into a list of n
// (Continue's mcpServers) cost n² (8,000 servers: 2 s).
func changeAll(data map[string]any, ops []Op, vals []any) {
	for i := 0; i < len(ops); {
		j := i + 1
		for ops[i].Item != "" && len(ops[i].Path) > 0 && j < len(ops) && sameList(ops[i], ops[j]) {
			j++
		}
		if j-i == 1 {
			change(data, ops[i], vals[i])
		} else {
			changeList(data, ops[i:j], vals[i:j])
		}
		i = j
	}
}

// sameList reports whether two ops change items of the same sequence.
func sameList(a, b Op) bool {
	return a.Item == b.Item && slices.Equal(a.Path, b.Path)
}

// changeList makes the changes of ops, all on items of the sequence at ops[0].Path
// keyed by ops[0].Item, as change would one after the other: every item of a name is
// replaced by a set of it or dropped by a delete, and a set of a name no item has
// appends one.
func changeList(data map[string]any, ops []Op, vals []any) {
	sets := slices.ContainsFunc(ops, func(op Op) bool { return !op.Delete })
	parent, cur, ok := container(data, ops[0].Path, ops[0].Item, sets)
	if !ok {
		return // deletes only: nothing to delete from, nothing created
	}
	list := slices.Clone(cur.([]any))
	item := ops[0].Item
	at := map[string][]int{}
	for i, e := range list {
		if m, ok := e.(map[string]any); ok {
			if name, ok := m[item].(string); ok {
				at[name] = append(at[name], i)
			}
		}
	}
	gone := map[int]bool{}
	for k, op := range ops {
		places, found := at[op.Name]
		switch {
		case found && op.Delete:
			for _, p := range places {
				gone[p] = true
			}
			delete(at, op.Name)
		case found:
			for _, p := range places {
				list[p] = vals[k]
			}
		case !op.Delete:
			at[op.Name] = []int{len(list)}
			list = append(list, vals[k])
		}
	}
	out := list[:0:0]
	for i, e := range list {
		if !gone[i] {
			out = append(out, e)
		}
	}
	parent[ops[0].Path[len(ops[0].Path)-1]] = out
}
