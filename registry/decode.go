package registry

import (
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// The decoders below read one entry of a layer file in a single pass over its
// (already validated) standard JSON. Member names match exactly, as in AIWG's
// JavaScript: a member spelled differently ("Command") is an unknown member and is
// kept as it is (R1). null counts as absent. Errors name the field and the JSON type
// found, never a value.

type fieldError struct {
	field, want string
	got         []byte
}

func (e *fieldError) Error() string {
	return fmt.Sprintf("%s: must be %s, not %s", e.field, e.want, jsonscan.KindName(e.got))
}

func decodeString(field string, v []byte, dst *string) error {
	if jsonscan.IsNull(v) {
		return nil
	}
	s, ok := jsonscan.String(v)
	if !ok {
		return &fieldError{field, "a string", v}
	}
	*dst = s
	return nil
}

func decodeStrings(field string, v []byte, dst *[]string) error {
	if jsonscan.IsNull(v) {
		return nil
	}
	out := []string{}
	var err error
	ok := jsonscan.Elements(v, func(e []byte) bool {
		s, ok := jsonscan.String(e)
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
	*dst = out
	return nil
}

func decodeStringMap(field string, v []byte, dst *map[string]string) error {
	if jsonscan.IsNull(v) {
		return nil
	}
	out := map[string]string{}
	var err error
	ok := jsonscan.Members(v, func(name, e []byte) bool {
		k, _ := jsonscan.String(name)
		s, ok := jsonscan.String(e)
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

func decodeAnyMap(field string, v []byte, dst *map[string]any) error {
	if jsonscan.IsNull(v) {
		return nil
	}
	if jsonscan.Kind(v) != '{' {
		return &fieldError{field, "an object", v}
	}
	var m map[string]any
	if err := json.Unmarshal(v, &m); err != nil {
		return fmt.Errorf("%s: %v", field, err)
	}
	*dst = m
	return nil
}

func rawValue(v []byte) json.RawMessage {
	if jsonscan.IsNull(v) {
		return nil
	}
	return json.RawMessage(v)
}

// decodeServer reads one server entry.
func decodeServer(raw []byte, s *Server) error {
	*s = Server{}
	var err error
	ok := jsonscan.Members(raw, func(name, v []byte) bool {
		key, _ := jsonscan.String(name)
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
		case "headerEnv":
			err = decodeStringMap(key, v, &s.HeaderEnv)
		case "bearerEnv":
			err = decodeString(key, v, &s.BearerEnv)
		case "cwd":
			err = decodeString(key, v, &s.Cwd)
		case "enabled":
			switch jsonscan.Kind(v) {
			case 't', 'f':
				b := jsonscan.Kind(v) == 't'
				s.Enabled = &b
			case 'n':
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
		return fmt.Errorf("must be an object, not %s", jsonscan.KindName(raw))
	}
	return err
}

// decodeProfile reads one profile entry.
func decodeProfile(raw []byte, p *Profile) error {
	*p = Profile{}
	var err error
	ok := jsonscan.Members(raw, func(name, v []byte) bool {
		key, _ := jsonscan.String(name)
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
		return fmt.Errorf("must be an object, not %s", jsonscan.KindName(raw))
	}
	if err != nil {
		return err
	}
	p.ProviderOverrides = normalizeOverrides(p.ProviderOverrides)
	return nil
}

func decodeOverrides(v []byte, dst *map[string]*Filters) error {
	const field = "providerOverrides"
	if jsonscan.IsNull(v) {
		return nil
	}
	out := map[string]*Filters{}
	var err error
	ok := jsonscan.Members(v, func(name, fv []byte) bool {
		key, _ := jsonscan.String(name)
		f := &Filters{}
		prefix := field + "." + key
		if !jsonscan.IsNull(fv) && !jsonscan.Members(fv, func(n, lv []byte) bool {
			k, _ := jsonscan.String(n)
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
