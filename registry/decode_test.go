package registry

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// serverMembers are the member names of Server's fields, from their json tags.
func serverMembers() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeFor[Server]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}

// decodeByReflection is what encoding/json's reflection gives for a server entry,
// under the decoder's own rules (decode.go): member names match exactly (encoding/json
// folds case: "Command" would be the command), null is absent, and the members
// mcpwire does not know are kept in Extra. It is the definition decodeServer must
// meet without reflection.
func decodeByReflection(b []byte) (Server, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return Server{}, err
	}
	fields := serverMembers()
	known := map[string]json.RawMessage{}
	var extra map[string]json.RawMessage
	for k, v := range members {
		switch {
		case !fields[k]:
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[k] = v
		case string(v) != "null":
			known[k] = v
		}
	}
	kb := []byte{'{'} // the values as they are (json.Marshal would compact them)
	for k, v := range known {
		if len(kb) > 1 {
			kb = append(kb, ',')
		}
		kb = append(append(append(append(kb, '"'), k...), '"', ':'), v...)
	}
	kb = append(kb, '}')
	var s serverJSON // no UnmarshalJSON: encoding/json's reflection
	if err := json.Unmarshal(kb, &s); err != nil {
		return Server{}, err
	}
	out := Server(s)
	out.Extra = extra
	return out, nil
}

// fullServer is everyField's server with the fields of other shapes set too: every
// field of Server holds a value.
func fullServer() *Server {
	s := everyField()
	s.Inputs = []Input{{ID: "i", Description: "d", Password: true, Extra: map[string]json.RawMessage{"type": json.RawMessage(`"promptString"`)}}}
	s.Timeout = json.RawMessage(`{"a":[1,2.5]}`)
	s.WorkerQualification = json.RawMessage(`"x"`)
	s.Auth = map[string]any{"n": 1.5, "l": []any{"a", nil}, "m": map[string]any{}}
	s.OAuth = map[string]any{"s": "t"}
	return s
}

// spec: K7
// Every field of Server is one decodeServer reads: a server with every field set
// (fullServer, by reflection, so a field added to Server later is set too) comes back
// whole from its JSON, with nothing in Extra. A field added to Server and not to the
// decoder lands in Extra and fails here.
func TestDecodeEveryField(t *testing.T) {
	s := fullServer()
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("fullServer leaves %s unset: set every field of Server", v.Type().Field(i).Name)
		}
	}
	s.Extra = nil
	b, err := marshalWithExtra(serverJSON(*s), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got Server
	if err := decodeServer(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Extra) > 0 {
		t.Errorf("members decodeServer does not read (kept as unknown): %v", reflect.ValueOf(got.Extra).MapKeys())
	}
	got.Extra = nil
	g := reflect.ValueOf(&got).Elem()
	for i := range g.NumField() {
		if g.Field(i).IsZero() && g.Type().Field(i).Name != "Extra" {
			t.Errorf("%s: not decoded", g.Type().Field(i).Name)
		}
	}
	want, err := decodeByReflection(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffFields(&got, &want); len(d) > 0 {
		t.Errorf("decoded, against encoding/json: %v", d)
	}
}

// decodeCases are entries as layer files hold them, good and bad, with what the
// decoder is known to say of the bad ones.
var decodeCases = []struct{ in, err string }{
	{`{}`, ""},
	{`{"name":"a","command":"npx","args":["-y","p"],"env":{"A":"b"},"enabled":false}`, ""},
	{`{"name":null,"args":null,"env":null,"enabled":null,"timeout":null,"auth":null,"inputs":null}`, ""},
	{`{"Command":"x","command":"y","zz":[1,{"a":"<b>"}],"nul":null}`, ""},
	{`{"name":"\u0061\ufffd","url":"h\u2028","description":"\"\\\/\b\f\n\r\t"}`, ""},
	{`{"args":[],"env":{},"auth":{},"inputs":[]}`, ""},
	{`{"timeout":5,"workerQualification":{"a":[true]},"auth":{"n":1e3,"z":null}}`, ""},
	{`{"inputs":[{"id":"i","password":true,"type":"promptString"}]}`, ""},
	{`[]`, "must be an object, not an array"},
	{`{"name":1}`, "name: must be a string, not a number"},
	{`{"args":"x"}`, "args: must be an array of strings, not a string"},
	{`{"args":["a",2]}`, "args[1]: must be a string, not a number"},
	{`{"env":[]}`, "env: must be an object of strings, not an array"},
	{`{"env":{"K":true}}`, "env.K: must be a string, not a boolean"},
	{`{"enabled":"yes"}`, "enabled: must be a boolean, not a string"},
	{`{"auth":[]}`, "auth: must be an object, not an array"},
	{`{"oauth":"x"}`, "oauth: must be an object, not a string"},
	{`{"inputs":{}}`, "inputs: must be an array of inputs, not an object"},
}

// spec: K7
// decodeServer gives what encoding/json's reflection gives (decodeByReflection) for
// good entries, refuses the entries it refuses, and names the field and the JSON type
// found in its error, never the value.
func TestDecodeServerIsReflection(t *testing.T) {
	for _, c := range decodeCases {
		var got Server
		err := decodeServer([]byte(c.in), &got)
		want, werr := decodeByReflection([]byte(c.in))
		if (err == nil) != (werr == nil) {
			t.Errorf("%s: decodeServer: %v; encoding/json: %v", c.in, err, werr)
			continue
		}
		if err != nil {
			if err.Error() != c.err {
				t.Errorf("%s: error %q, want %q", c.in, err, c.err)
			}
			continue
		}
		if c.err != "" {
			t.Errorf("%s: no error, want %q", c.in, c.err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v", c.in, diffFields(&got, &want))
		}
	}
}

// decodable reports whether b is an entry the fuzzer compares: valid JSON, and an
// object whose member names are all different (decodeServer reads a repeated member
// as encoding/json does into a struct, which decodeByReflection's map cannot show),
// with no null inside a list or map of strings (encoding/json reads it as "", the
// decoder refuses it, below).
func decodable(b []byte) bool {
	if !json.Valid(b) {
		return false
	}
	seen := map[string]bool{}
	simple := true
	jsonc.Raw(b).Members(func(name string, v jsonc.Raw) bool {
		if seen[name] {
			simple = false
		}
		seen[name] = true
		if name == "inputs" || name == "auth" || name == "oauth" || name == "timeout" || name == "workerQualification" || !serverMembers()[name] {
			return simple
		}
		nullInside := false
		v.Elements(func(e jsonc.Raw) bool { nullInside = nullInside || e.IsNull(); return true })
		v.Members(func(k string, e jsonc.Raw) bool { nullInside = nullInside || e.IsNull(); return true })
		simple = simple && !nullInside
		return simple
	})
	return simple
}

// spec: K7
// A null inside a list or a map of strings is refused, naming it, where encoding/json
// would read "": the one place the decoder is stricter than reflection.
func TestDecodeNullInside(t *testing.T) {
	for in, want := range map[string]string{
		`{"args":["a",null]}`:   "args[1]: must be a string, not null",
		`{"env":{"K":null}}`:    "env.K: must be a string, not null",
		`{"plainEnv":[null]}`:   "plainEnv[0]: must be a string, not null",
		`{"headers":{"":null}}`: "headers.: must be a string, not null",
	} {
		var s Server
		err := decodeServer([]byte(in), &s)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
		if decodable([]byte(in)) {
			t.Errorf("%s: decodable, want it left out of the fuzzer's comparison", in)
		}
	}
}

// FuzzDecodeServer: decodeServer gives what encoding/json's reflection gives
// (decodeByReflection) for any entry a layer file can hold: the same server, or an
// error from both.
func FuzzDecodeServer(f *testing.F) {
	for _, c := range decodeCases {
		f.Add([]byte(c.in))
	}
	for _, s := range append(cloneCases(), fullServer()) {
		b, _ := marshalWithExtra(serverJSON(*s), s.Extra)
		f.Add(b)
	}
	f.Add([]byte(`{"Name":"x","NAME":1,"auth":{"n":1e400}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !decodable(b) {
			return
		}
		var got Server
		err := decodeServer(append([]byte(nil), b...), &got)
		want, werr := decodeByReflection(b)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: decodeServer: %v; encoding/json: %v", b, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n%+v\nencoding/json:\n%+v", b, got, want)
		}
	})
}

func diffFields(a, b *Server) []string {
	var out []string
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out = append(out, fmt.Sprintf("%s: %#v / %#v", va.Type().Field(i).Name, va.Field(i).Interface(), vb.Field(i).Interface()))
		}
	}
	return out
}

// setEvery sets every string and list of strings of a struct to a value naming the
// field.
func setEvery(v reflect.Value) {
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch f.Interface().(type) {
		case string:
			f.SetString("<" + name + ">")
		case []string:
			f.Set(reflect.ValueOf([]string{name, ""}))
		}
	}
}

// spec: K7
// Every field of Profile and of its tool filters is one decodeProfile reads: a
// profile with every field set by reflection comes back whole from its JSON, with
// nothing in Extra. A field added to Profile or Filters and not to the decoder fails.
func TestDecodeProfileEveryField(t *testing.T) {
	p, f := &Profile{}, &Filters{}
	setEvery(reflect.ValueOf(p).Elem())
	setEvery(reflect.ValueOf(f).Elem())
	p.ProviderOverrides = map[string]*Filters{"cursor": f}
	for _, v := range []reflect.Value{reflect.ValueOf(p).Elem(), reflect.ValueOf(f).Elem()} {
		for i := range v.NumField() {
			if v.Field(i).IsZero() && v.Type().Field(i).Name != "Extra" {
				t.Fatalf("%s.%s is left unset: set every field", v.Type().Name(), v.Type().Field(i).Name)
			}
		}
	}
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var got Profile
	if err := decodeProfile(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Extra) > 0 || got.ProviderOverrides["cursor"] != nil && len(got.ProviderOverrides["cursor"].Extra) > 0 {
		t.Errorf("members decodeProfile does not read (kept as unknown) in %s", b)
	}
	if !reflect.DeepEqual(&got, p) {
		t.Errorf("decoded %+v (overrides %+v), want %+v (overrides %+v)", got, got.ProviderOverrides["cursor"], *p, f)
	}
}
