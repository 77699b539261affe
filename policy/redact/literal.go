package redact

import (
	"bytes"
	"encoding/json"
	"iter"
	"regexp"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/tomledit"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/pelletier/go-toml/v2"
)

// This file reads and writes the quoted strings of a line of JSON, JSONC or TOML:
// the one place that knows their escapes.

// content hides the credentials in the text of one line of a file: the quoted
// values that are known credentials or hold a credential-shaped value, every
// spelling of the values hidden anywhere, then what policy.RedactText finds. Keys
// (a quoted string followed by ':' or '=') are kept as written.
func (r *Redactor) content(s string) string {
	var b strings.Builder
	last := 0
	for start, end := range quoted(s) {
		if isKey(s[end:]) {
			b.WriteString(r.values(s[last:start]))
			b.WriteString(s[start:end])
			last = end
		}
	}
	if last == 0 {
		return policy.RedactText(r.values(s))
	}
	b.WriteString(r.values(s[last:]))
	return policy.RedactText(b.String())
}

// values hides the credentials in a piece of a line that holds no key.
func (r *Redactor) values(s string) string {
	s = r.plainYAML(r.literals(s))
	if len(r.anywhere) > 0 && len(s) >= policy.MinSecret {
		s = r.replacer().Replace(s)
	}
	return s
}

// literals replaces each quoted string of s that is a known credential, or holds a
// credential-shaped value (policy.RedactText), whatever its escapes, by its shown
// form in the same quoting.
func (r *Redactor) literals(s string) string {
	var b strings.Builder
	last := 0
	for start, end := range quoted(s) {
		raw := s[start:end]
		v, ok := decodeLiteral(raw)
		if !ok {
			continue
		}
		shown, found := r.exact[v]
		if !found {
			// free text, decoded: URL userinfo, Bearer tokens, password=…
			shown = policy.RedactText(v)
			found = shown != v
		}
		if found {
			b.WriteString(s[last:start])
			b.WriteString(encodeLike(raw, shown))
			last = end
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// quoted returns the bounds of the quoted strings of a line in order: "…" with
// escapes, and TOML's '…'. It stops at a quote that is not closed on the line.
func quoted(s string) iter.Seq2[int, int] {
	return func(yield func(start, end int) bool) {
		for i := 0; i < len(s); i++ {
			q := s[i]
			if q != '"' && q != '\'' {
				continue
			}
			j := i + 1
			for j < len(s) && s[j] != q {
				if q == '"' && s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) || !yield(i, j+1) {
				return
			}
			i = j
		}
	}
}

// isKey reports whether what follows a quoted string makes it a key: ':' or '='.
func isKey(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	return rest != "" && (rest[0] == ':' || rest[0] == '=')
}

// decodeLiteral decodes a JSON or TOML basic string ("…") or a TOML literal
// string ('…').
func decodeLiteral(raw string) (string, bool) {
	if raw[0] == '\'' || !strings.Contains(raw, `\`) {
		return raw[1 : len(raw)-1], true
	}
	var v string
	if json.Unmarshal([]byte(raw), &v) == nil {
		return v, true
	}
	// TOML escapes JSON lacks: \e, \UXXXXXXXX
	var m map[string]string
	if toml.Unmarshal([]byte("v = "+raw), &m) == nil {
		return m["v"], true
	}
	return "", false
}

// encodeLike spells shown in the quoting of raw: a TOML literal string when raw is
// one and shown fits, else a basic string, whose escapes JSON and TOML share.
func encodeLike(raw, shown string) string {
	if raw[0] == '\'' && !strings.ContainsAny(shown, "'\n\r") {
		return "'" + shown + "'"
	}
	return tomledit.Quote(shown)
}

// spellings are the ways a value is written inside a quoted string of a file: raw
// (also TOML literal strings), JSON-escaped with and without HTML escapes, and
// TOML-escaped (which is also how JSON.stringify writes most strings).
func spellings(v string) []string {
	q := tomledit.Quote(v)
	return []string{v, jsonEscape(v, false), jsonEscape(v, true), q[1 : len(q)-1]}
}

// jsonEscape is v as encoding/json writes it inside a string.
func jsonEscape(v string, html bool) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(html)
	_ = e.Encode(v)
	q := strings.TrimSuffix(b.String(), "\n")
	return q[1 : len(q)-1]
}

// plainScalar matches a YAML line whose value is a plain (unquoted) scalar: what comes
// before it ("key: ", "- ", or ": " after a quoted key), the value, and a comment.
var plainScalar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*(?:-\s+)*(?:[^\s"'#:-][^#]*?:\s+|-\s+|:\s+))([^\s"'].*?)(\s+#.*)?$`)
}) // compiled on first use, not at start-up

// plainYAML hides a known credential written as a YAML plain scalar, which has no
// quotes for literals to find.
func (r *Redactor) plainYAML(s string) string {
	m := plainScalar().FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	v := s[m[4]:m[5]]
	shown, ok := r.exact[v]
	if !ok {
		return s
	}
	return s[:m[4]] + shown + s[m[5]:]
}
