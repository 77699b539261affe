package jsonc

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// seedFiles are realistic client files used to seed the fuzzers.
func seedFiles(tb testing.TB) [][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.json*"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no seed files: %v", err)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

var seedSnippets = []string{
	`{}`, `[]`, `{"a":1,}`, "{\n  // c\n  \"a\": [1, 2,], /* d */\n}\n", `{"a":{"b":{}}}`,
	"{\r\n\t\"a\": 1\r\n}", `{"a":1,"a":2}`, `"s"`, `1e5`, `{"\u0061": "\ud83d\ude00"}`,
	"// only\n{ /* x */ }", `{"a": 1 // end`,
}

// standardize is the reference: hujson's Standardize, then compact. A
// newline is appended because hujson rejects a final line comment without
// one, which this package accepts.
func standardize(b []byte) ([]byte, error) {
	s, err := hujson.Standardize(append(bytes.Clone(b), '\n'))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func FuzzParse(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	for _, s := range seedSnippets {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 1<<14 {
			t.Skip("input too large")
		}
		orig := bytes.Clone(in)
		d, err := Parse(in)
		want, herr := standardize(in)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Offset > len(in) {
				t.Fatalf("Parse(%q): bad error %#v", in, err)
			}
			if herr == nil && !bytes.Contains([]byte(se.Problem), []byte("nesting depth")) {
				t.Fatalf("Parse(%q) = %v, but hujson accepts it", in, err)
			}
			return
		}
		if herr != nil {
			t.Fatalf("Parse(%q) succeeded, but hujson says %v", in, herr)
		}
		if got := d.Bytes(); !bytes.Equal(got, in) {
			t.Fatalf("Bytes() = %q, want the input %q", got, in)
		}
		checkPieces(t, d, in)
		var buf bytes.Buffer
		if _, err := d.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), in) {
			t.Fatalf("WriteTo = %q, %v; want the input", buf.Bytes(), err)
		}
		got := d.Root().JSON()
		if !json.Valid(got) {
			t.Fatalf("Root().JSON() = %q is not valid JSON", got)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Root().JSON() = %q, want %q", got, want)
		}
		// The raw (unmaterialised) view must agree with the object view.
		if raw := (Value{raw: in[d.start:d.end]}).JSON(); !bytes.Equal(raw, want) {
			t.Fatalf("raw JSON() = %q, want %q", raw, want)
		}
		if !bytes.Equal(in, orig) {
			t.Fatal("Parse modified its input")
		}
	})
}

// memberOffsets returns, for each member of the root object of a freshly
// parsed document, the offsets of its key, value and region end, plus the
// offsets of '{' and '}'.
type memberOffsets struct {
	keyStart, valStart, valEnd, end int
}

func rootOffsets(t *testing.T, in []byte) (open, closing int, ms []memberOffsets) {
	t.Helper()
	d, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	o := d.rootObject()
	pos := d.start + 1
	for _, m := range o.members {
		var mo memberOffsets
		pos += len(m.before)
		mo.keyStart = pos
		pos += len(m.key) + len(m.mid)
		mo.valStart = pos
		pos += len(m.val.raw)
		mo.valEnd = pos
		pos += len(m.after)
		mo.end = pos
		ms = append(ms, mo)
	}
	closing = pos + len(o.tail)
	if in[d.start] != '{' || in[closing] != '}' || closing != d.end-1 {
		t.Fatalf("member pieces do not tile the object")
	}
	return d.start, closing, ms
}

// decode decodes standard JSON keeping numbers as json.Number.
func decode(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return v
}

func FuzzSetDelete(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b, "mcpServers", "x", []byte(`{"command":"npx","args":["-y","p"]}`), uint8(1))
		f.Add(b, "", "", []byte(`{"command":"npx"}`), uint8(13))
		f.Add(b, "", "", []byte(`0`), uint8(15))
		f.Add(b, "", "", []byte(`[]`), uint8(4))
		f.Add(b, "mcpServers", "github", []byte(`null`), uint8(3))
		f.Add(b, "mcp", "context7", []byte(`{}`), uint8(3))
		f.Add(b, "servers", "", []byte(`1`), uint8(2))
	}
	for _, s := range seedSnippets {
		f.Add([]byte(s), "a", "b", []byte(`[1,{"x":"<>"}]`), uint8(0))
		f.Add([]byte(s), "a", "", []byte(`"v"`), uint8(2))
		f.Add([]byte(s), "", "", []byte(`{"x":{}}`), uint8(13))
		f.Add([]byte(s), "", "", []byte(`1`), uint8(6))
	}
	f.Fuzz(func(t *testing.T, in []byte, k1, k2 string, value []byte, mode uint8) {
		if len(in) > 1<<12 || len(value) > 1<<10 {
			t.Skip("input too large")
		}
		// Bits of mode: 1 = a two-element path, 2 = delete, 4 and 8 = use
		// an existing name (picked by the length of k1 or k2) instead of
		// k1 or k2.
		if d, err := Parse(in); err == nil && mode&12 != 0 {
			root := d.Root()
			if keys := root.Keys(); len(keys) > 0 && mode&4 != 0 {
				k1 = keys[len(k1)%len(keys)]
			}
			if keys := func() []string { v, _ := root.Member(k1); return v.Keys() }(); len(keys) > 0 && mode&8 != 0 {
				k2 = keys[len(k2)%len(keys)]
			}
		}
		path := []string{k1}
		if mode&1 != 0 {
			path = append(path, k2)
		}
		checkEdit(t, in, path, value, mode&2 != 0)
		checkOpenSame(t, in, path, value, mode&2 != 0)
	})
}

// checkOpenSame checks that the edit of a document read by ParseOpen, noting the
// members of the path's first object, gives the bytes and the error the same edit
// of a document read by Parse gives.
func checkOpenSame(t *testing.T, in []byte, path []string, value []byte, del bool) {
	t.Helper()
	edit := func(d *Doc) ([]byte, error) {
		var err error
		if del {
			_, err = d.Delete(path)
		} else {
			err = d.Set(path, value)
		}
		checkPieces(t, d, d.Bytes())
		return d.Bytes(), err
	}
	a, err := Parse(in)
	if err != nil {
		return
	}
	b, err := ParseOpen(in, path[0])
	if err != nil {
		t.Fatalf("ParseOpen refuses what Parse accepts: %v", err)
	}
	b.Open(path[0])
	wa, ea := edit(a)
	wb, eb := edit(b)
	if (ea == nil) != (eb == nil) || !bytes.Equal(wa, wb) {
		t.Fatalf("ParseOpen(%q) edits differently:\nParse:     %q, %v\nParseOpen: %q, %v", path[0], wa, ea, wb, eb)
	}
}

// checkEdit applies Set(path, value) or Delete(path) to in and checks the
// result: it parses, it decodes to the expected edit of the decoded input,
// bytes outside the edited member are kept, and setting the same value
// again changes nothing.
func checkEdit(t *testing.T, in []byte, path []string, value []byte, del bool) {
	t.Helper()
	k1, k2 := path[0], ""
	if len(path) > 1 {
		k2 = path[1]
	}
	{
		d, err := Parse(in)
		if err != nil {
			return
		}
		if d.Root().Kind() != Object {
			if del {
				_, err = d.Delete(path)
			} else {
				err = d.Set(path, value)
			}
			if !errors.Is(err, ErrNotObject) && (del || json.Valid(value)) {
				t.Fatalf("edit of non-object root: err = %v", err)
			}
			if err == nil {
				t.Fatal("edit of non-object root succeeded")
			}
			return
		}
		if !del && !json.Valid(value) {
			if err := d.Set(path, value); err == nil || !bytes.Equal(d.Bytes(), in) {
				t.Fatalf("Set with invalid value %q: err = %v", value, err)
			}
			return
		}
		if !utf8.ValidString(k1) || !utf8.ValidString(k2) {
			return // encoding/json would change the names
		}

		// The expected edit, on the decoded document.
		wantStd, err := standardize(in)
		if err != nil {
			t.Fatalf("hujson rejects %q: %v", in, err)
		}
		m := decode(t, wantStd).(map[string]any)
		sub, hasK1 := m[k1]
		subMap, k1IsMap := sub.(map[string]any)
		wantErr, wantOK := false, false
		switch {
		case len(path) == 2 && hasK1 && !k1IsMap:
			wantErr = true
		case del && len(path) == 1:
			wantOK = hasK1
			delete(m, k1)
		case del:
			_, wantOK = subMap[k2]
			delete(subMap, k2)
		case len(path) == 1:
			m[k1] = decode(t, value)
		case hasK1:
			subMap[k2] = decode(t, value)
		default:
			m[k1] = map[string]any{k2: decode(t, value)}
		}

		var ok bool
		if del {
			ok, err = d.Delete(path)
		} else {
			err = d.Set(path, value)
		}
		out := d.Bytes()
		if wantErr {
			if !errors.Is(err, ErrNotObject) || !bytes.Equal(out, in) {
				t.Fatalf("edit %q of %q: err = %v, out = %q; want ErrNotObject and no change", path, in, err, out)
			}
			return
		}
		if err != nil {
			t.Fatalf("edit %q of %q: %v", path, in, err)
		}
		if del && ok != wantOK {
			t.Fatalf("Delete(%q) of %q = %v, want %v", path, in, ok, wantOK)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("edit %q of %q gave %q, which does not parse: %v", path, in, out, err)
		}
		gotStd, err := standardize(out)
		if err != nil {
			t.Fatalf("hujson rejects the output %q: %v", out, err)
		}
		if got := decode(t, gotStd); !reflect.DeepEqual(got, any(m)) {
			t.Fatalf("edit %q %q of %q:\ngot  %s\nwant %v", path, value, in, gotStd, m)
		}

		// Bytes outside the edited member are kept.
		open, closing, ms := rootOffsets(t, in)
		lastK1, firstK1 := -1, -1
		for k := range ms {
			if keyIsPrefix(in[ms[k].keyStart:], k1) {
				if firstK1 < 0 {
					firstK1 = k
				}
				lastK1 = k
			}
		}
		var prefix, suffix int
		switch {
		case lastK1 >= 0 && (len(path) == 2 || !del):
			// The value of k1 is replaced or edited inside.
			prefix, suffix = ms[lastK1].valStart, ms[lastK1].valEnd
		case lastK1 >= 0: // delete of k1
			prefix, suffix = open+1, closing
			if firstK1 > 0 {
				prefix = ms[firstK1-1].valEnd
			}
			if lastK1 < len(ms)-1 {
				suffix = ms[lastK1+1].keyStart
			}
		case del: // nothing to delete
			prefix, suffix = len(in), len(in)
		case len(ms) > 0: // append
			prefix, suffix = ms[len(ms)-1].valEnd, ms[len(ms)-1].end
		default: // append to {}
			prefix, suffix = open+1, closing
		}
		if !bytes.HasPrefix(out, in[:prefix]) || !bytes.HasSuffix(out, in[suffix:]) || len(out) < prefix+len(in)-suffix {
			t.Fatalf("edit %q of %q changed bytes outside [%d, %d):\n%q", path, in, prefix, suffix, out)
		}

		// Setting the same value again changes nothing.
		if !del {
			d2, err := Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := d2.Set(path, value); err != nil {
				t.Fatal(err)
			}
			if again := d2.Bytes(); !bytes.Equal(again, out) {
				t.Fatalf("setting the same value again changed %q to %q", out, again)
			}
		}
	}
}

// TestEditEveryMember runs checkEdit for every member (and every member of
// an object member) of the seed documents: replace, delete, and insert
// below it.
func TestEditEveryMember(t *testing.T) {
	docs := seedFiles(t)
	for _, s := range seedSnippets {
		docs = append(docs, []byte(s))
	}
	docs = append(docs, []byte(testdataDelete[0].in), []byte(testdataDelete[1].in),
		[]byte(testdataDelete[2].in), []byte(testdataDelete[6].in), []byte(claudeMCP))
	values := [][]byte{[]byte(`{"k":[1,"<x>"],"e":{}}`), []byte(`7`)}
	for _, in := range docs {
		d, err := Parse(in)
		if err != nil {
			continue
		}
		root := d.Root()
		names := append(root.Keys(), "new")
		for _, k1 := range names {
			paths := [][]string{{k1}, {k1, "new"}}
			if v, ok := root.Member(k1); ok {
				for _, k2 := range v.Keys() {
					paths = append(paths, []string{k1, k2})
				}
			}
			for _, p := range paths {
				checkEdit(t, in, p, nil, true)
				for _, v := range values {
					checkEdit(t, in, p, v, false)
				}
			}
		}
	}
}

// keyIsPrefix reports whether b starts with a key token naming name.
func keyIsPrefix(b []byte, name string) bool {
	end, err := scanString(b, 0)
	return err == nil && keyIs(b[:end], name)
}

// FuzzEditSequence applies a sequence of edits to one Doc, so that later
// edits work on objects that earlier edits materialised, inserted or
// shrank, and checks the decoded result after each one. With an odd number of
// edits the same edits go to a Doc read by ParseOpen, noting the first root
// member, whose bytes must stay those of the other (window.go): names are picked
// from the other, so that no lookup of the noted one builds it whole.
func FuzzEditSequence(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b, []byte{0x13, 0x21, 0x05, 0x32, 0x10, 0x07})
	}
	for _, s := range seedSnippets {
		f.Add([]byte(s), []byte{0x01, 0x11, 0x23, 0x02, 0x35})
	}
	values := []string{`{"command":"x","args":["1"]}`, `{}`, `1`, `"s"`, `[{"a":{}}]`, `null`, `{"k":{"j":2}}`, `true`}
	f.Fuzz(func(t *testing.T, in, ops []byte) {
		if len(in) > 1<<12 || len(ops) > 16 {
			t.Skip("input too large")
		}
		d, err := Parse(in)
		if err != nil || d.Root().Kind() != Object {
			return
		}
		std, err := standardize(in)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(std) {
			return // encoding/json would change the names
		}
		want := decode(t, std).(map[string]any)
		var noted *Doc
		if keys := d.Root().Keys(); len(ops)%2 == 1 && len(keys) > 0 {
			if noted, err = ParseOpen(in, keys[0]); err != nil {
				t.Fatalf("ParseOpen refuses what Parse accepts: %v", err)
			}
		}
		for _, op := range ops {
			// op: bits 0-1 path shape, bit 2 delete, bits 3-5 value/name.
			pick := func(v Value, salt int) string {
				keys := v.Keys()
				if len(keys) > 0 && (int(op)+salt)%3 != 0 {
					return keys[(int(op)>>3+salt)%len(keys)]
				}
				return "k" + string(rune('0'+(int(op)>>3+salt)%4))
			}
			root := d.Root()
			path := []string{pick(root, 0)}
			if op&3 != 0 {
				v, _ := root.Member(path[0])
				path = append(path, pick(v, 1))
			}
			value := values[int(op>>3)%len(values)]
			sub, has := want[path[0]]
			subMap, isMap := sub.(map[string]any)
			var notedErr error
			if noted != nil {
				if op&4 != 0 {
					_, notedErr = noted.Delete(path)
				} else {
					notedErr = noted.Set(path, []byte(value))
				}
			}
			if op&4 != 0 {
				_, err = d.Delete(path)
				switch {
				case len(path) == 1:
					delete(want, path[0])
				case isMap:
					delete(subMap, path[1])
				}
			} else {
				err = d.Set(path, []byte(value))
				switch {
				case len(path) == 1:
					want[path[0]] = decode(t, []byte(value))
				case isMap:
					subMap[path[1]] = decode(t, []byte(value))
				case !has:
					want[path[0]] = map[string]any{path[1]: decode(t, []byte(value))}
				}
			}
			if wantErr := len(path) == 2 && has && !isMap; wantErr != (err != nil) {
				t.Fatalf("edit %q: err = %v, want error: %v", path, err, wantErr)
			}
			out := d.Bytes()
			checkPieces(t, d, out)
			if noted != nil {
				checkPieces(t, noted, out)
			}
			if noted != nil && ((notedErr == nil) != (err == nil) || !bytes.Equal(noted.Bytes(), out)) {
				t.Fatalf("after edit %q of %q: ParseOpen's Doc gives %q, %v; Parse's %q, %v", path, in, noted.Bytes(), notedErr, out, err)
			}
			if _, err := Parse(out); err != nil {
				t.Fatalf("after edit %q of %q: output %q does not parse: %v", path, in, out, err)
			}
			got, err := standardize(out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(decode(t, got), any(want)) {
				t.Fatalf("after edit %q of %q:\ngot  %s\nwant %v", path, in, got, want)
			}
			if !bytes.Equal(d.Root().JSON(), got) {
				t.Fatalf("Root().JSON() = %s, want %s", d.Root().JSON(), got)
			}
		}
	})
}

// checkPieces checks that the document's Pieces, joined, are want (its Bytes): a
// large file's edit is written from them (issue 31, streaming splice).
func checkPieces(t *testing.T, d *Doc, want []byte) {
	t.Helper()
	var got []byte
	for _, p := range d.Pieces() {
		if len(p) == 0 {
			t.Fatalf("Pieces of %q gives an empty piece", want)
		}
		got = append(got, p...)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Pieces joined = %q, want %q", got, want)
	}
}
