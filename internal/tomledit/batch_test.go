package tomledit

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// batchOps turns "a,-b,c" into ops under key: replace a, remove b, replace c, each block built from
// value (framed for odd-length values, as checkReplace does).
func batchOps(d *Doc, list, value string) []Op {
	var ops []Op
	for i, name := range strings.Split(list, ",") {
		if rm, ok := strings.CutPrefix(name, "-"); ok {
			ops = append(ops, Op{Key: key, Name: rm})
			continue
		}
		nl := d.Newline()
		block := Table(key, name, []KV{{"command", value}, {"args", []string{value, strings.Repeat("x", i)}}}, nl)
		if len(value)%2 == 1 && commentSafe(name) {
			block = []byte(testFrame.Start + name + nl + string(block) + testFrame.End + name + nl)
		}
		ops = append(ops, Op{Key: key, Name: name, Block: block})
	}
	return ops
}

// FuzzApply: a batch gives exactly the bytes of the same changes made one at a time (each on a
// chain of its own, re-parsed and checked), or fails where that fails.
func FuzzApply(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, "docs,new,-tickets", "cmd")
		f.Add(s, "-docs,-local,tickets", "x")
		f.Add(s, "a,b,c,-a", "yy")
		f.Add(s, "tickets,docs", "z")
	}
	f.Fuzz(func(t *testing.T, src, list, value string) {
		checkApply(t, []byte(src), list, value)
	})
}

func checkApply(t *testing.T, src []byte, list, value string) {
	if !utf8.ValidString(list) {
		return
	}
	fast, err := parseFramed(src)
	if err != nil {
		return
	}
	slow, _ := parseFramed(src)
	ops := batchOps(fast, list, value)
	errFast := fast.Apply(ops)
	errSlow := slow.applySlow(batchOps(slow, list, value))
	if (errFast == nil) != (errSlow == nil) {
		t.Fatalf("Apply: %v; one at a time: %v\ndocument:\n%q\nops %q", errFast, errSlow, src, list)
	}
	if errFast != nil {
		if !bytes.Equal(fast.Bytes(), src) {
			t.Fatalf("a failed Apply changed the document")
		}
		return
	}
	if got, want := fast.Bytes(), slow.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("Apply differs from one change at a time\ndocument:\n%q\nops %q\n got: %q\nwant: %q", src, list, got, want)
	}
}

// TestApplyMatchesOneAtATime runs the fuzz seeds.
func TestApplyMatchesOneAtATime(t *testing.T) {
	for _, s := range fuzzSeeds() {
		for _, list := range []string{"docs,new,-tickets", "-docs,-local,tickets", "a,b,c,-a", "tickets,docs", "-docs", "local", "new1,new2,new3"} {
			for _, v := range []string{"x", "yy"} {
				checkApply(t, []byte(s), list, v)
			}
		}
	}
}
