package secretstore

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// opStore is the 1Password CLI, by its documented contract
// (developer.1password.com/docs/cli/reference/commands/read, …/item-create): the
// secret on stdout, diagnostics on stderr, exit status 0 on success and 1 on any
// error. The CLI cannot be installed here; the tests run a stand-in program that keeps
// this contract (docs/secrets.md).
//
//	get     op read --no-newline -- op://VAULT/ITEM/FIELD
//	check   the same, the value discarded
//	put     op item create --vault VAULT --format json -, an item template on stdin:
//	        {"title": ITEM, "category": "API_CREDENTIAL", "fields": [{"id": FIELD,
//	        "type": "CONCEALED", "label": FIELD, "value": VALUE}]} (values are never
//	        given as assignment arguments, which would put them in argv)
//	delete  op item delete ITEM --vault VAULT
type opStore struct{ e Env }

func (s opStore) Get(ctx context.Context, r secretref.Ref) (string, error) {
	out, err := s.e.run(ctx, "op", []string{"read", "--no-newline", "--", r.String()}, nil)
	if err != nil {
		msg := strings.ToLower(err.Error())
		if strings.Contains(msg, "isn't an item") || strings.Contains(msg, "isn't a vault") || strings.Contains(msg, "could not be found") || strings.Contains(msg, "no item found") || strings.Contains(msg, "does not have a field") {
			err.(*Error).Missing = true
		}
		return "", err
	}
	return string(out), nil
}

func (s opStore) Check(ctx context.Context, r secretref.Ref) error {
	_, err := s.Get(ctx, r)
	return err
}

func (s opStore) Put(ctx context.Context, r secretref.Ref, value string) error {
	vault, item, field, ok := opParts(r)
	if !ok {
		return &Error{Msg: "mcpwire stores into 1Password at op://VAULT/ITEM/FIELD only (no section, no query)"}
	}
	type opField struct {
		ID    string `json:"id"`
		Type  string `json:"type"`
		Label string `json:"label"`
		Value string `json:"value"`
	}
	tmpl, err := json.Marshal(struct {
		Title    string    `json:"title"`
		Category string    `json:"category"`
		Fields   []opField `json:"fields"`
	}{item, "API_CREDENTIAL", []opField{{field, "CONCEALED", field, value}}})
	if err != nil {
		return err
	}
	_, err = s.e.run(ctx, "op", []string{"item", "create", "--vault", vault, "--format", "json", "-"}, tmpl)
	return err
}

func (s opStore) Delete(ctx context.Context, r secretref.Ref) error {
	vault, item, _, ok := opParts(r)
	if !ok {
		return &Error{Msg: "not an op://VAULT/ITEM/FIELD reference"}
	}
	_, err := s.e.run(ctx, "op", []string{"item", "delete", item, "--vault", vault}, nil)
	return err
}

// opParts splits op://VAULT/ITEM/FIELD; false for a section or a query.
func opParts(r secretref.Ref) (vault, item, field string, ok bool) {
	parts := strings.Split(r.Path, "/")
	if len(parts) != 3 || strings.Contains(r.Path, "?") {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}
