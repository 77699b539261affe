package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
)

// TestRecordFieldsAreTheMembers: the decoder of the records (record_decode.go) knows
// every JSON member of the types it decodes, so that a member added to one is decoded
// or refused (then json.Unmarshal decodes it), never skipped as unknown.
func TestRecordFieldsAreTheMembers(t *testing.T) {
	for _, c := range []struct {
		typ    reflect.Type
		fields []string
	}{
		{reflect.TypeFor[OwnRecord](), recordFields},
		{reflect.TypeFor[OwnStage](), stageFields},
		{reflect.TypeFor[CreatedFile](), createdFields},
	} {
		want, got := jsonMembers(c.typ), slices.Clone(c.fields)
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%v: the decoder knows %v, the type has %v", c.typ, got, want)
		}
	}
}

// digestOf is a record's digest of a name.
func digestOf(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:])
}

// sampleRecord is a record as an injection of n servers writes it.
func sampleRecord(n int) *OwnRecord {
	rec := &OwnRecord{Destination: "/home/dev/src/project/.kilocode/mcp.json", Provider: "kilo", Providers: []string{"kilo"},
		Entries: map[string]string{}, Created: &CreatedFile{Dirs: []string{"/home/dev/src/project/.kilocode"}, Digest: digestOf("file")}}
	for i := range n {
		name := fmt.Sprintf("server-%02d", i)
		rec.Entries[name] = digestOf(name)
	}
	return rec
}

// writtenRecords are the records and staged records mcpwire writes (Encode,
// EncodeStaged, OwnStage.Encode), none keeping an original.
func writtenRecords() map[string][]byte {
	local := sampleRecord(2)
	local.LocalRecord = LocalRecord{Scope: providers.Local, Project: "/home/dev/src/café", Container: []string{"projects", "/home/dev/src/café"}}
	local.Created = nil
	pending := sampleRecord(0)
	pending.Created.Digest = ""
	empty := &OwnRecord{Destination: "/home/dev/.cursor/mcp.json", Provider: "cursor"}
	stage := &OwnStage{Destination: "/home/dev/.cursor/mcp.json", Before: map[string]string{"a": digestOf("a")},
		After: map[string]string{"b": digestOf("b")}, Forgotten: []string{"c"},
		BeforeCreated: &CreatedFile{Dirs: []string{"/home/dev/.cursor"}}, AfterCreated: &CreatedFile{Digest: digestOf("f")}}
	out := map[string][]byte{"stage": stage.Encode(), "empty stage": (&OwnStage{}).Encode()}
	for name, rec := range map[string]*OwnRecord{"20 servers": sampleRecord(20), "local": local, "pending": pending, "empty": empty} {
		out[name] = rec.Encode()
		out[name+", staged"] = rec.EncodeStaged()
	}
	return out
}

// withOriginals is a record keeping an original (H1): json.Unmarshal's to decode.
func withOriginals() []byte {
	rec := sampleRecord(2)
	rec.Originals = map[string]Original{"server-00": {Text: `{"command": "x"}`, Value: json.RawMessage(`{"command":"x"}`)}}
	return rec.EncodeStaged()
}

// TestRecordsDecodedPlain: every record and staged record mcpwire writes without an
// original is decoded without encoding/json, into what json.Unmarshal makes of it;
// one keeping an original is left to json.Unmarshal.
func TestRecordsDecodedPlain(t *testing.T) {
	for name, data := range writtenRecords() {
		stage := strings.Contains(name, "stage")
		if !strings.HasSuffix(name, "stage") {
			rec, want := &OwnRecord{Destination: "/d", Entries: map[string]string{}}, &OwnRecord{Destination: "/d", Entries: map[string]string{}}
			if err := json.Unmarshal(data, want); err != nil {
				t.Fatal(err)
			}
			if !decodeRecordPlain(data, rec) {
				t.Errorf("%s: the record is not decoded plainly:\n%s", name, data)
			} else if !reflect.DeepEqual(rec, want) {
				t.Errorf("%s: decoded %+v, json.Unmarshal %+v", name, rec, want)
			}
		}
		if stage {
			var want OwnStage
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if st, ok := decodeStagePlain(data); !ok {
				t.Errorf("%s: the staged record is not decoded plainly:\n%s", name, data)
			} else if !reflect.DeepEqual(*st, want) {
				t.Errorf("%s: decoded %+v, json.Unmarshal %+v", name, *st, want)
			}
		}
	}
	if decodeRecordPlain(withOriginals(), &OwnRecord{}) {
		t.Error("a record keeping originals is decoded plainly")
	}
	if _, ok := decodeStagePlain(withOriginals()); ok {
		t.Error("a staged record keeping originals is decoded plainly")
	}
}

// TestDecodeRecordAllocs: decoding a record of 20 servers, as an injection writes it,
// allocates a handful of objects (the text of its strings, the map, the slices, the
// CreatedFile) where json.Unmarshal allocates one a string and more (issue 31).
func TestDecodeRecordAllocs(t *testing.T) {
	data := sampleRecord(20).EncodeStaged()
	rec := func() float64 {
		return testing.AllocsPerRun(50, func() {
			if err := decodeRecord(data, &OwnRecord{Destination: "/d", Entries: map[string]string{}}); err != nil {
				t.Fatal(err)
			}
		})
	}()
	stage := testing.AllocsPerRun(50, func() {
		if _, err := decodeOwnStage("p", data); err != nil {
			t.Fatal(err)
		}
	})
	if rec > 12 || stage > 12 {
		t.Errorf("decoding a record of 20 servers allocates %v objects, as a staged record %v; want at most 12 each", rec, stage)
	}
}

// decodeRecordJSON and decodeOwnStageJSON are decodeRecord and decodeOwnStage with
// encoding/json alone, as they were.
func decodeRecordJSON(data []byte, rec *OwnRecord) error {
	if err := json.Unmarshal(data, rec); err != nil {
		return err
	}
	return checkRecord(rec)
}

func decodeOwnStageJSON(path string, data []byte) (*OwnStage, error) {
	st := &OwnStage{}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, corruptRecord(path, err)
	}
	if err := st.check(); err != nil {
		return nil, corruptRecord(path, err)
	}
	return st, nil
}

// FuzzDecodeRecord: the plain decoding of a record or staged record gives exactly what
// json.Unmarshal gives (reflect.DeepEqual), into a new record or one already holding a
// destination and entries, or steps aside; and decodeRecord and decodeOwnStage refuse
// exactly what they refused with json.Unmarshal alone, with the same error.
func FuzzDecodeRecord(f *testing.F) {
	seeds := [][]byte{withOriginals(), []byte(`null`), []byte(`{}`), []byte(` {"entries": null} `), []byte(`[]`), []byte(`{"created": {}, "created": {"dirs": []}}`)}
	for _, data := range writtenRecords() {
		s := string(data)
		seeds = append(seeds, data, data[:len(data)/2], []byte(s+"x"), []byte(s+"{}"),
			[]byte(strings.Replace(s, `"entries"`, `"Entries"`, 1)),
			[]byte(strings.Replace(s, `"destination": "`, `"destination": "\u00e9`, 1)),
			[]byte(strings.Replace(s, `"destination": "`, `"destination": "`+"\xff", 1)),
			[]byte(strings.Replace(s, `"destination": "`, `"destination": null, "destination": "`, 1)),
			[]byte(strings.Replace(s, `"provider": "`, `"provider": 1, "x": "`, 1)),
			[]byte(strings.Replace(s, `"provider": "`, `"unknown": [true, false, null, {"a": []}], "provider": "`, 1)),
			[]byte(strings.Replace(s, `"dirs": [`, `"dirs": [null, `, 1)),
			[]byte(strings.Replace(s, `": "`, `": null, "x`, 3)),
			[]byte(strings.Replace(s, `{`, `{"entries": {"z": "`+digestOf("z")+`"}, "created": null, "scope": null, `, 1)),
			[]byte(strings.Replace(s, `"digest"`, `"Digest"`, 1)))
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecoders(t, data)
		checkDecoders(t, shapedRecord(data))
	})
}

// shapedRecord reads data as the steps of building a record of the shapes the decoder
// reads, most of them valid JSON: members of the records' names (some differing by
// case) holding strings, null, lists, maps and objects of them (some holding a number
// or an escape), so that the fuzzer varies records rather than JSON syntax.
func shapedRecord(data []byte) []byte {
	keys := []string{"destination", "scope", "project", "container", "provider", "providers", "entries", "originals", "created",
		"before", "after", "forgotten", "beforeCreated", "afterCreated", "afterOriginals", "dirs", "digest", "Entries", "x", ""}
	strs := []string{`""`, `"a"`, `"é"`, `"` + digestOf("a") + `"`, `"\u0061"`, `"b"`}
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	var value func(depth int) string
	value = func(depth int) string {
		switch c := next(); {
		case c%8 < 3 || depth > 2:
			return strs[c/8%len(strs)]
		case c%8 == 3:
			return "null"
		case c%8 == 4:
			return []string{"true", "1", "[]", "{}"}[c/8%4]
		case c%8 == 5:
			var out []string
			for range c / 8 % 4 {
				out = append(out, value(depth+1))
			}
			return "[" + strings.Join(out, ", ") + "]"
		default:
			var out []string
			for range c / 8 % 5 {
				out = append(out, `"`+keys[next()%len(keys)]+`": `+value(depth+1))
			}
			return "{" + strings.Join(out, ", ") + "}"
		}
	}
	var out []string
	for len(data) > 0 {
		out = append(out, `"`+keys[next()%len(keys)]+`": `+value(0))
	}
	return []byte("{" + strings.Join(out, ",\n") + "}")
}

// checkDecoders holds the plain decoding of data to json.Unmarshal's (FuzzDecodeRecord).
func checkDecoders(t *testing.T, data []byte) {
	t.Helper()
	starts := []func() *OwnRecord{
		func() *OwnRecord { return &OwnRecord{} },
		func() *OwnRecord { return &OwnRecord{Destination: "/d", Entries: map[string]string{}} },
		func() *OwnRecord {
			return &OwnRecord{Destination: "/d", Provider: "p", Entries: map[string]string{"x": digestOf("x")}, Providers: []string{"p"}}
		},
		func() *OwnRecord { return &OwnRecord{Created: &CreatedFile{Digest: digestOf("f")}} },
	}
	for _, start := range starts {
		got, want := start(), start()
		jsonErr := json.Unmarshal(data, want)
		if decodeRecordPlain(data, got) && (jsonErr != nil || !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: decoded %+v, json.Unmarshal %+v (%v)", data, got, want, jsonErr)
		}
		got, want = start(), start()
		err, wantErr := decodeRecord(data, got), decodeRecordJSON(data, want)
		if !sameOutcome(jsonErr, err, wantErr) || jsonErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decodeRecord %+v (%v), with json.Unmarshal alone %+v (%v)", data, got, err, want, wantErr)
		}
	}
	var want OwnStage
	jsonErr := json.Unmarshal(data, &want)
	if st, ok := decodeStagePlain(data); ok && (jsonErr != nil || !reflect.DeepEqual(*st, want)) {
		t.Fatalf("%q: decoded %+v, json.Unmarshal %+v (%v)", data, *st, want, jsonErr)
	}
	st, err := decodeOwnStage("p", data)
	wantSt, wantErr := decodeOwnStageJSON("p", data)
	if !sameOutcome(jsonErr, err, wantErr) || err == nil && !reflect.DeepEqual(st, wantSt) {
		t.Fatalf("%q: decodeOwnStage %+v (%v), with json.Unmarshal alone %+v (%v)", data, st, err, wantSt, wantErr)
	}
}

// sameOutcome reports whether a decoding and the one with json.Unmarshal alone both
// succeed, or both fail with the same error. Where json.Unmarshal itself succeeds
// (jsonErr nil) the errors are the checks' of two records the caller compares, which
// name the first bad entry of a map in its (random) order.
func sameOutcome(jsonErr, err, wantErr error) bool {
	if err == nil || wantErr == nil {
		return err == nil && wantErr == nil
	}
	return jsonErr == nil || err.Error() == wantErr.Error()
}

// BenchmarkDecodeRecord decodes a record of 20 servers as an injection writes it
// (3.6 KB): plain, as decodeRecord does, and with json.Unmarshal alone, as it did.
func BenchmarkDecodeRecord(b *testing.B) {
	data := sampleRecord(20).EncodeStaged()
	for _, c := range []struct {
		name   string
		decode func([]byte, *OwnRecord) error
	}{{"plain", decodeRecord}, {"json", decodeRecordJSON}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.decode(data, &OwnRecord{Destination: "/d", Entries: map[string]string{}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("stage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeOwnStage("p", data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stage-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeOwnStageJSON("p", data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
