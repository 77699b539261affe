// Package jsonv reads JSON documents written by others (server.json, registry
// listings, bundle manifests) field by field, with the path of the first field of the
// wrong type in the error: "packages[0].version: want a string, got a number".
package jsonv

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// Errs collects the first problem of a document.
type Errs struct{ err error }

// Err returns the first problem, nil when there was none.
func (e *Errs) Err() error { return e.err }

// Addf records a problem at path unless one was recorded already.
func (e *Errs) Addf(path, format string, args ...any) {
	if e.err == nil {
		e.err = &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)}
	}
}

// FieldError is a problem with one field of a document.
type FieldError struct{ Path, Msg string }

func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Value is one JSON value of a document and where it is.
type Value struct {
	Path string
	Raw  jsonc.Raw
	errs *Errs
}

// Parse checks that data is one JSON value and returns it; path names it in errors
// ("" for the document itself).
func Parse(data []byte, errs *Errs) (Value, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return Value{}, fmt.Errorf("not valid JSON: %v", err)
	}
	return Value{Raw: jsonc.Raw(data), errs: errs}, nil
}

// Kind is the value's JSON type (jsonc.Invalid when absent).
func (v Value) Kind() jsonc.Kind { return v.Raw.Kind() }

// Present reports whether the value exists and is not null.
func (v Value) Present() bool { k := v.Kind(); return k != jsonc.Invalid && k != jsonc.Null }

func (v Value) want(noun string) {
	v.errs.Addf(v.Path, "want %s, got %s", noun, v.Kind().Noun())
}

// child joins a member name to a path.
func child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Object is an object value: its members in order, the first of a name winning.
type Object struct {
	Value
	keys    []string
	members map[string]jsonc.Raw
}

// Object returns the value as an object; ok false (and a problem recorded) when it is
// present and no object.
func (v Value) Object() (Object, bool) {
	o := Object{Value: v, members: map[string]jsonc.Raw{}}
	if !v.Present() {
		return o, false
	}
	if v.Kind() != jsonc.Object {
		v.want("an object")
		return o, false
	}
	v.Raw.Members(func(name string, raw jsonc.Raw) bool {
		if _, dup := o.members[name]; dup {
			v.errs.Addf(child(v.Path, name), "given twice")
			return true
		}
		o.keys = append(o.keys, name)
		o.members[name] = raw
		return true
	})
	return o, true
}

// Keys are the object's member names in order.
func (o Object) Keys() []string { return o.keys }

// Has reports whether any of the names is a member (null counts as absent).
func (o Object) Has(names ...string) bool {
	_, ok := o.find(names)
	return ok
}

// find returns the first of names that is a member and not null.
func (o Object) find(names []string) (string, bool) {
	for _, n := range names {
		if r, ok := o.members[n]; ok && !r.IsNull() {
			return n, true
		}
	}
	return "", false
}

// Get returns the member of the first of names present (an absent Value otherwise,
// named by the first name).
func (o Object) Get(names ...string) Value {
	n, ok := o.find(names)
	if !ok {
		return Value{Path: child(o.Path, names[0]), errs: o.errs}
	}
	return Value{Path: child(o.Path, n), Raw: o.members[n], errs: o.errs}
}

// Str returns a string member ("" when absent; a problem when of another type).
func (o Object) Str(names ...string) string {
	s, _ := o.Get(names...).String()
	return s
}

// StrPtr returns a string member, nil when absent.
func (o Object) StrPtr(names ...string) *string {
	s, ok := o.Get(names...).String()
	if !ok {
		return nil
	}
	return &s
}

// Bool returns a boolean member (false when absent).
func (o Object) Bool(names ...string) bool {
	v := o.Get(names...)
	if !v.Present() {
		return false
	}
	if v.Kind() != jsonc.Bool {
		v.want("a boolean")
		return false
	}
	return v.Raw[firstByte(v.Raw)] == 't'
}

// Obj returns an object member.
func (o Object) Obj(names ...string) (Object, bool) { return o.Get(names...).Object() }

// Arr returns the elements of an array member (nil when absent).
func (o Object) Arr(names ...string) []Value { return o.Get(names...).Array() }

// Strings returns an array of strings member.
func (o Object) Strings(names ...string) []string {
	var out []string
	for _, e := range o.Arr(names...) {
		if s, ok := e.String(); ok {
			out = append(out, s)
		} else if e.Kind() == jsonc.Null {
			e.want("a string")
		}
	}
	return out
}

// String returns the value as a string; ok false when absent, null or of another
// type (a problem recorded then).
func (v Value) String() (string, bool) {
	if !v.Present() {
		return "", false
	}
	s, ok := v.Raw.Text()
	if !ok {
		v.want("a string")
	}
	return s, ok
}

// Scalar returns a string, number or boolean as text (numbers as written, booleans
// as "true"/"false"); ok false otherwise.
func (v Value) Scalar() (string, bool) {
	switch v.Kind() {
	case jsonc.String:
		return v.String()
	case jsonc.Number:
		f, err := strconv.ParseFloat(string(trim(v.Raw)), 64)
		if err != nil || math.IsInf(f, 0) {
			v.want("a number")
			return "", false
		}
		return strconv.FormatFloat(f, 'f', -1, 64), true
	case jsonc.Bool:
		return strconv.FormatBool(v.Raw[firstByte(v.Raw)] == 't'), true
	}
	return "", false
}

// Number returns the value as a number.
func (v Value) Number() (float64, bool) {
	if v.Kind() != jsonc.Number {
		if v.Present() {
			v.want("a number")
		}
		return 0, false
	}
	f, err := strconv.ParseFloat(string(trim(v.Raw)), 64)
	if err != nil {
		v.want("a number")
		return 0, false
	}
	return f, true
}

// Array returns the elements (nil when absent; a problem when of another type).
func (v Value) Array() []Value {
	if !v.Present() {
		return nil
	}
	var out []Value
	if !v.Raw.Elements(func(e jsonc.Raw) bool {
		out = append(out, Value{Path: fmt.Sprintf("%s[%d]", v.Path, len(out)), Raw: e, errs: v.errs})
		return true
	}) {
		v.want("an array")
	}
	return out
}

// Errs returns where the value's problems are collected.
func (v Value) Errs() *Errs { return v.errs }

// Fail records a problem with the value.
func (v Value) Fail(format string, args ...any) { v.errs.Addf(v.Path, format, args...) }

func firstByte(r jsonc.Raw) int {
	for i, c := range r {
		if c > ' ' {
			return i
		}
	}
	return 0
}

func trim(r jsonc.Raw) []byte {
	i := firstByte(r)
	j := len(r)
	for j > i && r[j-1] <= ' ' {
		j--
	}
	return r[i:j]
}
