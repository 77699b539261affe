package registry

import (
	"fmt"
	"reflect"
	"strings"
)

// transportFields are the fields that belong to one transport only: a stdio server
// starts a program, an http or sse server is reached at a URL with headers.
var transportFields = []struct {
	name   string
	remote bool // true: http and sse only; false: stdio only
	get    func(*Server) any
}{
	{"command", false, func(s *Server) any { return s.Command }},
	{"args", false, func(s *Server) any { return s.Args }},
	{"cwd", false, func(s *Server) any { return s.Cwd }},
	{"env", false, func(s *Server) any { return s.Env }},
	{"envFrom", false, func(s *Server) any { return s.EnvFrom }},
	{"envInput", false, func(s *Server) any { return s.EnvInput }},
	{"envSecret", false, func(s *Server) any { return s.EnvSecret }},
	{"url", true, func(s *Server) any { return s.URL }},
	{"headers", true, func(s *Server) any { return s.Headers }},
	{"headerEnv", true, func(s *Server) any { return s.HeaderEnv }},
	{"bearerEnv", true, func(s *Server) any { return s.BearerEnv }},
	{"headerInput", true, func(s *Server) any { return s.HeaderInput }},
	{"bearerInput", true, func(s *Server) any { return s.BearerInput }},
	{"headerSecret", true, func(s *Server) any { return s.HeaderSecret }},
	{"bearerSecret", true, func(s *Server) any { return s.BearerSecret }},
}

// checkTransport refuses fields the server's transport does not use, which a client
// entry would silently lose: url, headers, headerEnv and bearerEnv on a stdio server;
// command, args, cwd, env and envFrom on an http or sse server. s.Type must be set
// (Validate). Only additions and updates are checked; layer files that hold such
// fields still load (render warns about them).
//
// cur is the entry an update starts from (nil for an addition): a mismatched field
// it already holds, unchanged and with the same type, is tolerated, so that an entry
// written by another tool can still be updated without mcpwire dropping the field.
// The message names the fields, never their values.
func checkTransport(s, cur *Server) error {
	var bad []string
	for _, f := range transportFields {
		if f.remote == s.Remote() {
			continue
		}
		v := reflect.ValueOf(f.get(s))
		if v.IsZero() || v.Len() == 0 {
			continue
		}
		if cur != nil && cur.Type == s.Type && reflect.DeepEqual(f.get(cur), f.get(s)) {
			continue
		}
		bad = append(bad, f.name)
	}
	if len(bad) == 0 {
		return nil
	}
	if s.Remote() {
		return fmt.Errorf("%s: not used by %s %s server (command, args, cwd, env and envFrom are for stdio servers)",
			strings.Join(bad, ", "), article(s.Type), s.Type)
	}
	return fmt.Errorf("%s: not used by a stdio server (url, headers, headerEnv and bearerEnv are for http and sse servers)",
		strings.Join(bad, ", "))
}

// article is "a" or "an" for a transport type.
func article(typ string) string {
	if typ == HTTP || typ == SSE {
		return "an"
	}
	return "a"
}
