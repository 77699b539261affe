package render

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// jsonMembers are the JSON member names of a struct type, embedded structs' included.
func jsonMembers(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			out = append(out, jsonMembers(f.Type)...)
			continue
		}
		out = append(out, name)
	}
	return out
}

// TestEncodeStagedMembersApart: a record and a staged record share no JSON member but
// "destination", so one object holds both without either losing a member (issue 31).
func TestEncodeStagedMembersApart(t *testing.T) {
	rec, st := jsonMembers(reflect.TypeFor[OwnRecord]()), jsonMembers(reflect.TypeFor[OwnStage]())
	for _, m := range rec {
		if m != "destination" && slices.Contains(st, m) {
			t.Errorf("member %q is both a record's and a staged record's", m)
		}
	}
	if !slices.Contains(rec, "destination") || !slices.Contains(st, "destination") {
		t.Errorf("no destination in %v or %v", rec, st)
	}
}

// TestEncodeStagedMembers: the encoding of a record with its staged record's members
// has exactly the members of both, so that a member added to either is not lost.
func TestEncodeStagedMembers(t *testing.T) {
	want := append(jsonMembers(reflect.TypeFor[OwnRecord]()), jsonMembers(reflect.TypeFor[OwnStage]())...)
	slices.Sort(want)
	want = slices.Compact(want)
	got := jsonMembers(reflect.TypeFor[stagedRecordDoc]())
	slices.Sort(got)
	// a record staged from none has nothing before it and forgets nothing
	want = slices.DeleteFunc(want, func(m string) bool { return m == "beforeOriginals" || m == "beforeCreated" || m == "forgotten" })
	if !slices.Equal(got, want) {
		t.Errorf("members %v, want %v", got, want)
	}
}

// TestEncodeStagedReadsAsBoth: a record written with EncodeStaged reads, as a record,
// as the record (in this version and, encoding/json ignoring members it does not know,
// in the earlier ones); as a staged record, as the staging of that record from none,
// which settles against the client file as written when the file holds its entries
// and as not written when it does not (K10, docs/writes.md "Crashes").
//
// spec: K10 H7
func TestEncodeStagedReadsAsBoth(t *testing.T) {
	d := strings.Repeat("a", 64)
	for name, rec := range map[string]*OwnRecord{
		"entries":  {Destination: "/p/.mcp.json", Provider: "cursor", Entries: map[string]string{"s1": d, "s2": strings.Repeat("b", 64)}},
		"created":  {Destination: "/p/.cursor/mcp.json", Provider: "cursor", Entries: map[string]string{"s1": d}, Created: &CreatedFile{Dirs: []string{"/p/.cursor"}, Digest: d}},
		"local":    {Destination: "/h/.claude.json", LocalRecord: LocalRecord{Scope: "local", Project: "/p", Container: []string{"projects", "/p", "mcpServers"}}, Provider: "claude", Providers: []string{"claude"}, Entries: map[string]string{"s1": d}},
		"original": {Destination: "/p/.mcp.json", Provider: "claude", Entries: map[string]string{"s1": d}, Originals: map[string]Original{"s1": {Value: json.RawMessage(`{"command":"x"}`)}}},
	} {
		t.Run(name, func(t *testing.T) {
			data := rec.EncodeStaged()
			var got OwnRecord
			if err := decodeRecord(data, &got); err != nil {
				t.Fatal(err)
			}
			if string(got.Encode()) != string(rec.Encode()) {
				t.Errorf("read as a record:\n%s\nwant\n%s", got.Encode(), rec.Encode())
			}
			var plain OwnRecord // as an earlier mcpwire reads it: encoding/json alone
			if err := json.Unmarshal(data, &plain); err != nil || !reflect.DeepEqual(&plain, &got) {
				t.Errorf("read by encoding/json: %+v, %v", plain, err)
			}
			st, err := decodeOwnStage("staged", data)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Before) != 0 || len(st.BeforeOriginals) != 0 || st.BeforeCreated != nil || len(st.Forgotten) != 0 {
				t.Errorf("staged from a record: %+v", st)
			}
			none := &OwnRecord{Destination: rec.Destination, Entries: map[string]string{}}
			written, _ := st.Settle(none, func(n string) (string, bool) { d, ok := rec.Entries[n]; return d, ok })
			if !reflect.DeepEqual(written.Entries, rec.Entries) {
				t.Errorf("settled against the file written: %v, want %v", written.Entries, rec.Entries)
			}
			absent, _ := st.Settle(none, func(string) (string, bool) { return "", false })
			if len(absent.Entries) != 0 {
				t.Errorf("settled against no file: %v, want none", absent.Entries)
			}
			if rec.Created != nil {
				if c := SettleCreated(nil, st.AfterCreated, fsys.Snapshot{}); c != nil {
					t.Errorf("created settled against no file: %+v, want none", c)
				}
			}
		})
	}
}
