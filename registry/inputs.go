package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// Input is a value the client asks the person for when it starts the server (T3):
// VS Code's inputs (id, description, password), and later the isSecret inputs of a
// server manifest. A server keeps the inputs it uses (inputs), and says where each
// goes (envInput, headerInput, bearerInput, or ${input:ID} inside a value): mcpwire's
// extension fields, which AIWG keeps as unknown members. A client that prompts gets
// ${input:ID} and the declaration back; any other client a variable (InputVariable).
type Input struct {
	ID          string
	Description string
	// Password: the value is a secret the client hides as it is typed.
	Password bool
	// Extra are the declaration's other members, as the client wrote them (VS Code's
	// type, default, options), kept for the client to get them back.
	Extra map[string]json.RawMessage
}

// inputJSON is Input's known members in their order.
type inputJSON struct {
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
	Password    bool   `json:"password,omitempty"`
}

// MarshalJSON encodes an input: id, description, password, then the other members.
func (in Input) MarshalJSON() ([]byte, error) {
	return marshalWithExtra(inputJSON{in.ID, in.Description, in.Password}, in.Extra)
}

// UnmarshalJSON decodes an input; members other than id, description and password go
// to Extra.
func (in *Input) UnmarshalJSON(b []byte) error { return decodeInput(bytes.Clone(b), in) }

func decodeInput(raw []byte, in *Input) error {
	*in = Input{}
	var err error
	ok := jsonc.Raw(raw).Members(func(key string, v jsonc.Raw) bool {
		switch key {
		case "id":
			err = decodeString(key, v, &in.ID)
		case "description":
			err = decodeString(key, v, &in.Description)
		case "password":
			switch v.Kind() {
			case jsonc.Bool:
				in.Password = v[0] == 't'
			case jsonc.Null:
			default:
				err = &fieldError{key, "a boolean", v}
			}
		default:
			if in.Extra == nil {
				in.Extra = map[string]json.RawMessage{}
			}
			in.Extra[key] = json.RawMessage(v)
		}
		return err == nil
	})
	if !ok {
		return &fieldError{"", "an object", raw}
	}
	return err
}

// decodeInputs reads a server's inputs member.
func decodeInputs(field string, v jsonc.Raw, dst *[]Input) error {
	if v.IsNull() {
		return nil
	}
	out := []Input{} // [] is an empty list, not none, as encoding/json reads it
	var err error
	ok := v.Elements(func(e jsonc.Raw) bool {
		var in Input
		if err = decodeInput(e, &in); err != nil {
			err = fmt.Errorf("%s[%d]: %w", field, len(out), err)
			return false
		}
		out = append(out, in)
		return true
	})
	if !ok {
		return &fieldError{field, "an array of inputs", v}
	}
	if err != nil {
		return err
	}
	*dst = out
	return nil
}

// Input returns the server's declaration of an input, and whether it has one.
func (s *Server) Input(id string) (Input, bool) {
	for _, in := range s.Inputs {
		if in.ID == id {
			return in, true
		}
	}
	return Input{}, false
}

// InputIDs are the ids of the inputs the server uses (envInput, headerInput,
// bearerInput), sorted; those inside other values are the caller's to scan.
func (s *Server) InputIDs() []string {
	var ids []string
	add := func(id string) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, m := range []map[string]string{s.EnvInput, s.HeaderInput} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			add(m[k])
		}
	}
	add(s.BearerInput)
	slices.Sort(ids)
	return ids
}

// ValidInputID reports whether id can name an input: not empty, no space, no braces
// (it ends the placeholder ${input:ID}).
func ValidInputID(id string) bool { return id != "" && !strings.ContainsAny(id, " \t\r\n{}") }

// InputVariable is the variable that stands for an input in a client that cannot ask
// for it (T3, docs/inject.md): MCP_INPUT_ and the id in upper case, every character
// other than a letter, a digit or _ as _ ("perplexity-key" → MCP_INPUT_PERPLEXITY_KEY).
// An input that fills an env value whole is read instead from the variable named as
// the env key (the variable the server reads anyway).
func InputVariable(id string) string {
	var b strings.Builder
	b.WriteString("MCP_INPUT_")
	for _, r := range strings.ToUpper(id) {
		if r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// validateInputs checks the input fields: keys and ids, where they may be, one
// declaration per id.
func (s *Server) validateInputs() error {
	for k, id := range s.EnvInput {
		if !ValidVarName(k) {
			return fmt.Errorf("envInput: a key is not a valid variable name")
		}
		if !ValidInputID(id) {
			return fmt.Errorf("envInput.%s: not a valid input id", k)
		}
		_, lit := s.Env[k]
		if _, ref := s.EnvFrom[k]; lit || ref {
			return fmt.Errorf("envInput.%s: the key has a value in env or envFrom already", k)
		}
	}
	for h, id := range s.HeaderInput {
		if !validHeaderName(h) {
			return fmt.Errorf("headerInput: a key is not a valid header name")
		}
		if !ValidInputID(id) {
			return fmt.Errorf("headerInput.%s: not a valid input id", h)
		}
	}
	if s.BearerInput != "" && !ValidInputID(s.BearerInput) {
		return fmt.Errorf("bearerInput: not a valid input id")
	}
	if s.BearerInput != "" && s.BearerEnv != "" {
		return fmt.Errorf("bearerInput: the bearer token comes from bearerEnv already")
	}
	if s.BearerInput != "" && !s.Remote() {
		return fmt.Errorf("bearerInput: only http and sse servers send headers")
	}
	seen := map[string]bool{}
	for i, in := range s.Inputs {
		if !ValidInputID(in.ID) {
			return fmt.Errorf("inputs[%d].id: not a valid input id", i)
		}
		if seen[in.ID] {
			return fmt.Errorf("inputs: input %s is declared twice", in.ID)
		}
		seen[in.ID] = true
	}
	return nil
}
