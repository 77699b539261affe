package registry

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// encoded is a server as the encoder writes it, by reflection: what appendServer
// must give byte for byte.
func encoded(t testing.TB, s *Server) string {
	b, err := marshalWithExtra(serverJSON(*s), s.Extra)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// everyField is a server with every field appendServer writes set, by reflection: a
// field added to Server later is set here too, and appendServer must write it or
// leave the server to the encoder.
func everyField() *Server {
	s := &Server{}
	v := reflect.ValueOf(s).Elem()
	on := true
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch f.Interface().(type) {
		case string:
			f.SetString("<" + name + "> \"\\ \n\u2028\xff é")
		case []string:
			f.Set(reflect.ValueOf([]string{name, "", "&"}))
		case map[string]string:
			f.Set(reflect.ValueOf(map[string]string{"b" + name: "1", "a\t": "<2>", "": ""}))
		case *bool:
			f.Set(reflect.ValueOf(&on))
		}
	}
	s.Extra = map[string]json.RawMessage{"zz": json.RawMessage(` [1, {"a" : "<b>"}] `)}
	return s
}

// spec: K7
// A server's JSON written field by field is the encoder's, byte for byte: every field
// (TestEncodeEveryField sets each), odd strings, empty lists and maps (omitted), and
// the servers of other shapes left to the encoder.
func TestAppendServerIsTheEncoder(t *testing.T) {
	off := false
	cases := append(cloneCases(), everyField(),
		&Server{Name: "ctl \x00\x01\x1f\x7f \b\f", Enabled: &off, Env: map[string]string{"K\"": "\\v"}},
		&Server{Name: "s1", Command: "x", Args: []string{"-y", "p"}, AddedAt: "2026-12-06T00:00:00Z"})
	direct := 0
	for _, s := range cases {
		want := encoded(t, s)
		got, err := s.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%q:\n%s\nthe encoder:\n%s", s.Name, got, want)
		}
		if _, ok := appendServer(nil, s); ok {
			direct++
		}
	}
	if direct < 6 {
		t.Errorf("%d servers written field by field, want at least 6", direct)
	}
}

// Every field of the server everyField sets is one appendServer writes (or a server
// holding it is left to the encoder): a field added to Server and not to appendServer
// fails here.
func TestEncodeEveryField(t *testing.T) {
	s := everyField()
	if _, ok := appendServer(nil, s); !ok {
		t.Fatal("everyField's server is left to the encoder: it must hold only fields appendServer writes")
	}
	var back map[string]json.RawMessage
	if err := json.Unmarshal([]byte(encoded(t, s)), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) < 25 {
		t.Errorf("everyField sets %d members, want every string, list, map and flag of Server", len(back))
	}
}

// FuzzAppendServer: any server a layer file can hold is written as the encoder writes
// it.
func FuzzAppendServer(f *testing.F) {
	for _, s := range append(cloneCases()[:5], everyField()) {
		b, _ := jsonc.Marshal(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Server
		if json.Unmarshal(b, &s) != nil {
			return
		}
		want, err := marshalWithExtra(serverJSON(s), s.Extra)
		got, err2 := s.MarshalJSON()
		if (err == nil) != (err2 == nil) || string(got) != string(want) {
			t.Fatalf("%q:\n%s (%v)\nthe encoder:\n%s (%v)", b, got, err2, want, err)
		}
	})
}

// spec: K7
// A server of a command and arguments is written with a few allocations, not the
// dozens of the encoder's reflection (an import writes 200,000).
func TestAppendServerAllocations(t *testing.T) {
	s := &Server{Name: "s1", Command: "npx", Args: []string{"-y", "@scope/server"}, Env: map[string]string{"LOG": "info"},
		AddedAt: "2026-12-06T00:00:00Z", UpdatedAt: "2026-12-06T00:00:00Z"}
	direct := testing.AllocsPerRun(100, func() { s.MarshalJSON() })
	reflected := testing.AllocsPerRun(100, func() { marshalWithExtra(serverJSON(*s), s.Extra) })
	t.Logf("field by field: %.0f allocations; the encoder: %.0f", direct, reflected)
	if direct > 2 {
		t.Errorf("MarshalJSON of a plain server: %.0f allocations, at most 2 (the encoder makes %.0f)", direct, reflected)
	}
}
