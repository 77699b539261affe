package registry

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// spec: K7
// TestAddedServersAreTheDecoded: AddServers keeps the servers it wrote as they are
// instead of decoding the registry file again (an import adds 200,000), only where
// they are what loading the file gives, field for field. Every field of Server is
// set in turn to a plain value, to an empty list or map (left out of the entry), and
// to a string that is not UTF-8 (replaced in the entry); the registry after the
// write must equal the registry loaded afresh.
func TestAddedServersAreTheDecoded(t *testing.T) {
	var servers []*Server
	typ := reflect.TypeFor[Server]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Name == "Name" || f.Name == "AddedAt" || f.Name == "UpdatedAt" || f.Name == "InjectedProviders" {
			continue // set by AddServers
		}
		for j, variant := range []string{"plain", "empty", "not utf-8"} {
			s := &Server{Name: fmt.Sprintf("s%d-%d", i, j), Command: "x"}
			v := reflect.ValueOf(s).Elem().Field(i)
			bad := string([]byte{'a', 0xff})
			switch f.Type {
			case reflect.TypeFor[string]():
				v.SetString(map[string]string{"plain": "v", "empty": "", "not utf-8": bad}[variant])
			case reflect.TypeFor[[]string]():
				v.Set(reflect.ValueOf(map[string][]string{"plain": {"v"}, "empty": {}, "not utf-8": {bad}}[variant]))
			case reflect.TypeFor[map[string]string]():
				v.Set(reflect.ValueOf(map[string]map[string]string{"plain": {"K": "v"}, "empty": {}, "not utf-8": {"K": bad}}[variant]))
			case reflect.TypeFor[map[string]any]():
				v.Set(reflect.ValueOf(map[string]map[string]any{"plain": {"k": 1.0}, "empty": {}, "not utf-8": {"k": bad}}[variant]))
			case reflect.TypeFor[json.RawMessage]():
				v.Set(reflect.ValueOf(map[string]json.RawMessage{"plain": json.RawMessage(`30`), "empty": json.RawMessage(`{ }`), "not utf-8": json.RawMessage(`1.50`)}[variant]))
			case reflect.TypeFor[map[string]json.RawMessage]():
				v.Set(reflect.ValueOf(map[string]map[string]json.RawMessage{"plain": {"x-k": json.RawMessage(`1`)}, "empty": {}, "not utf-8": {"x-k": json.RawMessage(`[ 1 ]`)}}[variant]))
			case reflect.TypeFor[*bool]():
				b := variant == "plain"
				v.Set(reflect.ValueOf(&b))
			case reflect.TypeFor[[]Input]():
				v.Set(reflect.ValueOf(map[string][]Input{"plain": {{ID: "i"}}, "empty": {}, "not utf-8": {{ID: "i", Description: bad}}}[variant]))
			default:
				t.Fatalf("field %s of type %s: add it to this test", f.Name, f.Type)
			}
			servers = append(servers, s)
		}
	}
	f := newFixture(t, []string{"me"}, map[string]string{"me/mcp-servers.json": `{"servers": {"old": {"command": "x", "args": []}}}`})
	r, _ := f.load()
	// all in one write, which keeps them; those the checks refuse left out
	var added []*Server
	receipts := map[string][]string{}
	for _, s := range servers {
		if checkNew(s) == nil {
			added = append(added, s)
			receipts[s.Name] = []string{"codex"}
		}
	}
	if len(added) < 2*len(servers)/3 {
		t.Fatalf("only %d of %d servers added", len(added), len(servers))
	}
	if err := r.AddServers(added, nil, receipts); err != nil {
		t.Fatal(err)
	}
	fresh, _ := f.load()
	if got, want := r.ServerNames(), fresh.ServerNames(); !reflect.DeepEqual(got, want) {
		t.Fatalf("servers %q, loaded afresh %q", got, want)
	}
	for _, name := range fresh.ServerNames() {
		got, _ := r.Server(name)
		want, _ := fresh.Server(name)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("server %s after the write:\n%#v\nloaded afresh:\n%#v", name, got, want)
		}
	}
}

// spec: K7 W8
// TestAddServersSeesOtherWrites: after AddServers, which decodes only the entries
// other than those it added, the registry is the file as another process left it
// too: an entry it changed, added, or removed (with as many added, so that the file
// has as many entries as this process expects).
func TestAddServersSeesOtherWrites(t *testing.T) {
	tests := []struct {
		name  string
		other func(b *Registry) error
	}{
		{"nothing", func(b *Registry) error { return nil }},
		{"changed", func(b *Registry) error {
			return b.UpdateServer("old", func(s *Server) { s.Command = "changed" })
		}},
		{"added", func(b *Registry) error { return b.AddServer(&Server{Name: "other", Command: "b"}) }},
		{"removed, and one added", func(b *Registry) error {
			if err := b.RemoveServer("gone"); err != nil {
				return err
			}
			return b.AddServer(&Server{Name: "other", Command: "b"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, []string{"me"}, map[string]string{"me/mcp-servers.json": `{"servers": {"old": {"command": "x"}, "gone": {"command": "x"}}}`})
			a, _ := f.load()
			b, _ := f.load()
			if err := tt.other(b); err != nil {
				t.Fatal(err)
			}
			if err := a.AddServers([]*Server{{Name: "s2", Command: "x"}, {Name: "s1", Command: "x", Auth: map[string]any{"k": "v"}}}, nil, nil); err != nil {
				t.Fatal(err)
			}
			fresh, _ := f.load()
			if got, want := a.ServerNames(), fresh.ServerNames(); !reflect.DeepEqual(got, want) {
				t.Fatalf("servers %q, loaded afresh %q", got, want)
			}
			for _, name := range fresh.ServerNames() {
				got, _ := a.Server(name)
				want, _ := fresh.Server(name)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("server %s after the write:\n%#v\nloaded afresh:\n%#v", name, got, want)
				}
			}
		})
	}
}
