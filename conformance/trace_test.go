//go:build conformance && unix

package conformance

// The servers' side of a traced scenario (s.traced): where a client's own output does
// not name what it started (Continue CLI offers the model server-everything's tools
// unprefixed) or shows no environment (Factory droid), the servers say who reached
// them:
//
//   - each stdio server runs through a small script (everything's in <root>/rec, wd's
//     is srv/everything.js itself) that appends its arguments, working directory and
//     the sentinel variables of its environment to <root>/rec/<server>.jsonl, then
//     starts server-everything;
//   - the HTTP servers are behind the header-recording proxy already, and the SSE
//     server is reached through it too (/<scenario>/legacy/sse).

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// everythingScript is the script of server everything: server-everything itself, or
// in a traced scenario the recorder in front of it.
func (s *scenario) everythingScript() string {
	if !s.traced {
		return cl.everything
	}
	path := filepath.Join(s.root, "rec", "everything.cjs")
	if _, err := os.Stat(path); err != nil {
		s.recorder("everything", path)
	}
	return path
}

// sseURL is the address of the SSE server: server-everything's own, or in a traced
// scenario through the proxy.
func (s *scenario) sseURL() string {
	if !s.traced {
		return sseURL
	}
	return relay.base + "/" + s.name + "/legacy/sse"
}

// recorder writes at path the script that records the start of server name (its
// arguments, working directory and the sentinel variables of its environment) and then
// runs server-everything with the same arguments (CommonJS: wd's file has no .cjs).
func (s *scenario) recorder(name, path string) {
	keys, _ := json.Marshal(slices.Sorted(maps.Keys(sentinels)))
	out, _ := json.Marshal(s.recordFile(name))
	target, _ := json.Marshal(cl.everything)
	writeFile(s.t, path, fmt.Sprintf(`const fs = require("node:fs");
const env = {};
for (const k of %s) if (k in process.env) env[k] = process.env[k];
fs.appendFileSync(%s, JSON.stringify({argv: process.argv.slice(2), cwd: process.cwd(), env}) + "\n");
import(%s);
`, keys, out, target))
}

func (s *scenario) recordFile(server string) string {
	return filepath.Join(s.root, "rec", server+".jsonl")
}

// startRecord is one start of a traced stdio server.
type startRecord struct {
	Argv []string          `json:"argv"`
	Cwd  string            `json:"cwd"`
	Env  map[string]string `json:"env"`
}

// starts are the recorded starts of one stdio server.
func (s *scenario) starts(server string) []startRecord {
	b, err := os.ReadFile(s.recordFile(server))
	if err != nil {
		return nil
	}
	var out []startRecord
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r startRecord
		if json.Unmarshal([]byte(l), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// forget drops what the servers of this scenario recorded (before a client command, so
// that an attempt sees only its own; the model's requests too).
func (s *scenario) forget() {
	for _, f := range []string{"everything", "wd"} {
		os.Remove(s.recordFile(f))
	}
	relay.forget(s.name)
	model.forget(s.name)
}

// reached checks, from the servers' side, what the client did with w: a stdio server
// started with its arguments, in its working directory, with each reference's value in
// its environment; a remote server reached, with each Authorization reference's value.
// A disabled server must not have been started or reached.
func (s *scenario) reached(c *checker, w wantServer) {
	if w.transport == "stdio" {
		rs := s.starts(w.name)
		switch {
		case w.disabled && len(rs) > 0:
			c.serverf(w.name, "started, though disabled")
		case w.disabled:
		case len(rs) == 0:
			c.serverf(w.name, "not started (no record of its start)")
		default:
			r := rs[len(rs)-1]
			c.serverEqual(w.name, "arguments", r.Argv, w.args[1:])
			if w.cwd != "" {
				c.serverEqual(w.name, "working directory", r.Cwd, w.cwd)
			}
			for _, k := range slices.Sorted(maps.Keys(w.env)) {
				if got, want := r.Env[k], w.env[k].value(); got != want {
					c.serverf(w.name, "the server got %s = %q, want %q (the reference did not resolve)", k, redact(got), redact(want))
				}
			}
		}
		return
	}
	hs := relay.at(w.url)
	switch {
	case w.disabled && len(hs) > 0:
		c.serverf(w.name, "reached, though disabled")
	case w.disabled:
	case len(hs) == 0:
		c.serverf(w.name, "the client sent no request to %s", w.url)
	default:
		if auth, ok := w.headers["Authorization"]; ok {
			var got []string
			for _, h := range hs {
				got = append(got, fmt.Sprintf("%q", h.Get("Authorization")))
			}
			if !slices.Contains(got, fmt.Sprintf("%q", auth.value())) {
				c.serverf(w.name, "the client sent Authorization %s, want %q (the reference did not resolve)", strings.Join(uniq(got), ", "), auth.value())
			}
		}
	}
}
