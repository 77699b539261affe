package registry

import (
	"fmt"
	"github.com/mcpwire/mcpwire/internal/hint"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/policy"
)

// The name checks are written out rather than regular expressions: they run for
// every entry of every layer on every start (issue 2, Speed).

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// allBytes reports whether s is non-empty and every byte satisfies ok.
func allBytes(s string, ok func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// serverNameByte: [A-Za-z0-9_-].
func serverNameByte(c byte) bool {
	return isLower(c) || isUpper(c) || isDigit(c) || c == '_' || c == '-'
}

// profileNameByte: [a-z0-9-].
func profileNameByte(c byte) bool { return isLower(c) || isDigit(c) || c == '-' }

// headerNameByte: an RFC 9110 token character.
func headerNameByte(c byte) bool {
	return isLower(c) || isUpper(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// validHeaderName reports whether h is a valid HTTP header name.
func validHeaderName(h string) bool { return allBytes(h, headerNameByte) }

// reservedProfiles may not be used as profile names (R3).
var reservedProfiles = map[string]bool{"all": true, "none": true, "default": true}

// profileNameRule is the hint of a refused profile name (R3).
const profileNameRule = "a profile name holds lowercase letters, digits and '-'"

// AllServers in a profile's servers list stands for every server.
const AllServers = "__all__"

// ValidServerName checks a server name (R2): [A-Za-z0-9_-]+, at most 64 characters.
func ValidServerName(name string) error {
	if len(name) > 64 || !allBytes(name, serverNameByte) {
		return fmt.Errorf("invalid server name %q: use letters, digits, '_' and '-', at most 64 characters", name)
	}
	return nil
}

// maxLoadedName bounds a name read from a layer file.
const maxLoadedName = 256

// LoadableName checks a server or profile name read from a layer file (L14). AIWG
// accepts names mcpwire refuses on add (a dot, '@' and '/' as in npm's "@org/srv",
// other punctuation), and such an entry must never make its layer unreadable, so this
// is much looser than R2/R3: the name must be non-empty valid UTF-8 of at most 256
// bytes, with no control character (it is printed, and written into line-based files
// such as Grok Build's marker comments). A use that cannot take a name — a profile
// name that would become a directory (Codex runtime homes, session) — refuses that use
// only, naming the profile. kind is "server" or "profile".
func LoadableName(kind, name string) error {
	bad := name == "" || len(name) > maxLoadedName || !utf8.ValidString(name)
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("invalid %s name %q: a name may not be empty, hold control characters, or be longer than %d bytes", kind, name, maxLoadedName)
	}
	return nil
}

// ValidProfileName checks a profile name (R3): [a-z0-9-]+ and not reserved.
func ValidProfileName(name string) error {
	if !allBytes(name, profileNameByte) {
		return hint.Wrap(fmt.Errorf("invalid profile name %q", name), profileNameRule)
	}
	if reservedProfiles[name] {
		return hint.Wrap(fmt.Errorf("%q is a reserved profile name", name), "choose another name (all, none and default are reserved)")
	}
	return nil
}

// ValidVarName checks an environment variable name used by a reference.
// (^[A-Za-z_][A-Za-z0-9_]*$).
func ValidVarName(name string) bool { return policy.IsVarName(name) }

// Validate checks a server (R2) and fills an omitted type (stdio with a command, else
// http). The name is checked as a loaded name (LoadableName, L14); AddServer checks
// the stricter R2 name of a new entry. Errors name the field, never a value that
// could be a secret: an invalid variable or header name is not quoted either (a token
// pasted where a variable name belongs would be printed), and a key is named only
// once it is valid.
func (s *Server) Validate() error {
	if err := LoadableName("server", s.Name); err != nil {
		return err
	}
	if s.Type == "" {
		if s.Command != "" {
			s.Type = Stdio
		} else {
			s.Type = HTTP
		}
	}
	switch s.Type {
	case Stdio:
		if s.Command == "" {
			return fmt.Errorf("type: a stdio server needs a command")
		}
		if s.URL != "" {
			return fmt.Errorf("url: a stdio server takes a command, not a url")
		}
	case HTTP, SSE:
		if err := checkURL(s.URL); err != nil {
			return err
		}
		if s.Command != "" {
			return fmt.Errorf("command: an %s server takes a url, not a command", s.Type)
		}
	default:
		return fmt.Errorf("type: unknown type %q (want stdio, http or sse)", s.Type)
	}
	for h, v := range s.HeaderEnv {
		if !validHeaderName(h) {
			return fmt.Errorf("headerEnv: a key is not a valid header name")
		}
		if !ValidVarName(v) {
			return fmt.Errorf("headerEnv.%s: not a valid variable name", h)
		}
	}
	for h := range s.Headers {
		if !validHeaderName(h) {
			return fmt.Errorf("headers: a key is not a valid header name")
		}
	}
	for k, v := range s.EnvFrom {
		if !ValidVarName(k) {
			return fmt.Errorf("envFrom: a key is not a valid variable name")
		}
		if !ValidVarName(v) {
			return fmt.Errorf("envFrom.%s: not a valid variable name", k)
		}
	}
	for k := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("env: a key is not a valid variable name")
		}
	}
	if s.BearerEnv != "" && !ValidVarName(s.BearerEnv) {
		return fmt.Errorf("bearerEnv: not a valid variable name")
	}
	if s.BearerEnv != "" && !s.Remote() {
		return fmt.Errorf("bearerEnv: only http and sse servers send headers")
	}
	if err := s.validateInputs(); err != nil {
		return err
	}
	return s.validateSecrets()
}

// checkURL requires an absolute http(s) URL. The URL itself is never quoted: it may
// carry userinfo.
func checkURL(raw string) error {
	if raw == "" {
		return fmt.Errorf("url: an http or sse server needs a url")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url: must be an absolute http:// or https:// URL")
	}
	return nil
}
