package registry

import (
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// The decoders below read one entry of a layer file in a single pass over its
// (already validated) standard JSON. Member names match exactly, as in AIWG's
// JavaScript: a member spelled differently ("Command") is an unknown member and is
// kept as it is (R1). null counts as absent. Errors name the field and the JSON type
// found, never a value.

type fieldError struct {
	field, want string // field is empty for the entry itself
	got         jsonc.Raw
}

func (e *fieldError) Error() string {
	if e.field == "" {
		return fmt.Sprintf("must be %s, not %s", e.want, e.got.Kind().Noun())
	}
	return fmt.Sprintf("%s: must be %s, not %s", e.field, e.want, e.got.Kind().Noun())
}

func decodeString(field string, v jsonc.Raw, dst *string) error {
	if v.IsNull() {
		return nil
	}
	s, ok := v.Text()
	if !ok {
		return &fieldError{field, "a string", v}
	}
	*dst = s
	return nil
}

func decodeStrings(field string, v jsonc.Raw, dst *[]string) error {
	if v.IsNull() {
		return nil
	}
	// gathered on the stack and copied once, at its length: one allocation a list
	// (issue 31: every server's args, at every start)
	var buf [16]string
	out := buf[:0]
	var err error
	ok := v.Elements(func(e jsonc.Raw) bool {
		s, ok := e.Text()
		if !ok {
			err = &fieldError{fmt.Sprintf("%s[%d]", field, len(out)), "a string", e}
			return false
		}
		out = append(out, s)
		return true
	})
	if !ok {
		return &fieldError{field, "an array of strings", v}
	}
	if err != nil {
		return err
	}
	*dst = append(make([]string, 0, len(out)), out...)
	return nil
}

func decodeStringMap(field string, v jsonc.Raw, dst *map[string]string) error {
	if v.IsNull() {
		return nil
	}
	out := map[string]string{}
	var err error
	ok := v.Members(func(k string, e jsonc.Raw) bool {
		s, ok := e.Text()
		if !ok {
			err = &fieldError{field + "." + k, "a string", e}
			return false
		}
		out[k] = s
		return true
	})
	if !ok {
		return &fieldError{field, "an object of strings", v}
	}
	if err != nil {
		return err
	}
	*dst = out
	return nil
}

func decodeAnyMap(field string, v jsonc.Raw, dst *map[string]any) error {
	if v.IsNull() {
		return nil
	}
	if v.Kind() != jsonc.Object {
		return &fieldError{field, "an object", v}
	}
	var m map[string]any
	if err := json.Unmarshal(v, &m); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	*dst = m
	return nil
}

func rawValue(v jsonc.Raw) json.RawMessage {
	if v.IsNull() {
		return nil
	}
	return json.RawMessage(v)
}

// decodeServer reads one server entry.
func decodeServer(raw []byte, s *Server) error {
	*s = Server{}
	var err error
	ok := jsonc.Raw(raw).Members(func(key string, v jsonc.Raw) bool {
		switch key {
		case "name":
			err = decodeString(key, v, &s.Name)
		case "type":
			err = decodeString(key, v, &s.Type)
		case "command":
			err = decodeString(key, v, &s.Command)
		case "args":
			err = decodeStrings(key, v, &s.Args)
		case "env":
			err = decodeStringMap(key, v, &s.Env)
		case "plainEnv":
			err = decodeStrings(key, v, &s.PlainEnv)
		case "envFrom":
			err = decodeStringMap(key, v, &s.EnvFrom)
		case "url":
			err = decodeString(key, v, &s.URL)
		case "headers":
			err = decodeStringMap(key, v, &s.Headers)
		case "plainHeaders":
			err = decodeStrings(key, v, &s.PlainHeaders)
		case "headerEnv":
			err = decodeStringMap(key, v, &s.HeaderEnv)
		case "bearerEnv":
			err = decodeString(key, v, &s.BearerEnv)
		case "envInput":
			err = decodeStringMap(key, v, &s.EnvInput)
		case "headerInput":
			err = decodeStringMap(key, v, &s.HeaderInput)
		case "bearerInput":
			err = decodeString(key, v, &s.BearerInput)
		case "envSecret":
			err = decodeStringMap(key, v, &s.EnvSecret)
		case "headerSecret":
			err = decodeStringMap(key, v, &s.HeaderSecret)
		case "bearerSecret":
			err = decodeString(key, v, &s.BearerSecret)
		case "inputs":
			err = decodeInputs(key, v, &s.Inputs)
		case "cwd":
			err = decodeString(key, v, &s.Cwd)
		case "enabled":
			switch v.Kind() {
			case jsonc.Bool:
				b := v[0] == 't' // Members gives each value without surrounding space
				s.Enabled = &b
			case jsonc.Null:
			default:
				err = &fieldError{key, "a boolean", v}
			}
		case "timeout":
			s.Timeout = rawValue(v)
		case "auth":
			err = decodeAnyMap(key, v, &s.Auth)
		case "oauth":
			err = decodeAnyMap(key, v, &s.OAuth)
		case "workerQualification":
			s.WorkerQualification = rawValue(v)
		case "description":
			err = decodeString(key, v, &s.Description)
		case "injectedProviders":
			err = decodeStrings(key, v, &s.InjectedProviders)
		case "addedAt":
			err = decodeString(key, v, &s.AddedAt)
		case "updatedAt":
			err = decodeString(key, v, &s.UpdatedAt)
		default:
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[key] = json.RawMessage(v)
		}
		return err == nil
	})
	if !ok {
		return &fieldError{"", "an object", raw}
	}
	return err
}

// decodeProfile reads one profile entry.
func decodeProfile(raw []byte, p *Profile) error {
	*p = Profile{}
	var err error
	ok := jsonc.Raw(raw).Members(func(key string, v jsonc.Raw) bool {
		switch key {
		case "name":
			err = decodeString(key, v, &p.Name)
		case "description":
			err = decodeString(key, v, &p.Description)
		case "servers":
			err = decodeStrings(key, v, &p.Servers)
		case "extends":
			err = decodeStrings(key, v, &p.Extends)
		case "providerOverrides":
			err = decodeOverrides(v, &p.ProviderOverrides)
		case "createdAt":
			err = decodeString(key, v, &p.CreatedAt)
		case "updatedAt":
			err = decodeString(key, v, &p.UpdatedAt)
		default:
			if p.Extra == nil {
				p.Extra = map[string]json.RawMessage{}
			}
			p.Extra[key] = json.RawMessage(v)
		}
		return err == nil
	})
	if !ok {
		return &fieldError{"", "an object", raw}
	}
	if err != nil {
		return err
	}
	p.ProviderOverrides = normalizeOverrides(p.ProviderOverrides)
	return nil
}

func decodeOverrides(v jsonc.Raw, dst *map[string]*Filters) error {
	const field = "providerOverrides"
	if v.IsNull() {
		return nil
	}
	out := map[string]*Filters{}
	var err error
	ok := v.Members(func(key string, fv jsonc.Raw) bool {
		f := &Filters{}
		prefix := field + "." + key
		if !fv.IsNull() && !fv.Members(func(k string, lv jsonc.Raw) bool {
			switch k {
			case "toolDeny":
				err = decodeStrings(prefix+"."+k, lv, &f.ToolDeny)
			case "toolAllow":
				err = decodeStrings(prefix+"."+k, lv, &f.ToolAllow)
			default:
				if f.Extra == nil {
					f.Extra = map[string]json.RawMessage{}
				}
				f.Extra[k] = json.RawMessage(lv)
			}
			return err == nil
		}) {
			err = &fieldError{prefix, "an object", fv}
		}
		out[key] = f
		return err == nil
	})
	if !ok {
		return &fieldError{field, "an object", v}
	}
	if err != nil {
		return err
	}
	*dst = out
	return nil
}
