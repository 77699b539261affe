package main

import (
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
)

// listValue is a list flag: repeats and comma lists (--servers a,b = --servers a --servers b).
type listValue struct{ items []string }

func (l *listValue) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			l.items = append(l.items, part)
		}
	}
	return nil
}

func (l *listValue) String() string { return strings.Join(l.items, ",") }

// argValue is a repeatable flag that takes each value whole (--arg: one argument per flag).
type argValue struct{ items []string }

func (a *argValue) Set(v string) error { a.items = append(a.items, v); return nil }
func (a *argValue) String() string     { return strings.Join(a.items, " ") }

// pairValue is a list of K=V pairs. A comma starts a new pair only when what follows
// looks like KEY=, so values may hold commas (--env LIST=a,b,C=d gives LIST and C).
// When a value of the split would itself hold "=", the flag value is one pair, not
// split at all: --env DSN=host=db,user=me sets DSN to "host=db,user=me", and
// --header Accept=a=1,b=2 sets Accept only. (Several such pairs: repeat the flag.)
type pairValue struct {
	// header: an item may be "Name: value" too, as curl and Claude Code's --header
	// write a header (H10)
	header bool
	keys   []string
	values map[string]string
	// err is a malformed item. Set does not return it: the flag package would quote
	// the whole value, which may be a secret (R8); pairs reports it instead.
	err error
}

// pairStart finds a comma that starts another KEY= pair (compiled on first use).
var pairStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,\s*[A-Za-z_][A-Za-z0-9_.-]*=`) })

func (p *pairValue) Set(v string) error {
	if p.err != nil {
		return nil
	}
	for _, item := range splitPairs(v) {
		if err := p.add(item); err != nil {
			p.err = err
			return nil
		}
	}
	return nil
}

// splitPairs splits a comma list of pairs (see pairValue).
func splitPairs(v string) []string {
	var items []string
	for rest := v; ; {
		end := len(rest)
		if loc := pairStart().FindStringIndex(rest); loc != nil {
			end = loc[0]
		}
		items = append(items, rest[:end])
		if end == len(rest) {
			break
		}
		rest = strings.TrimLeft(rest[end+1:], " ")
	}
	if len(items) > 1 {
		for _, item := range items {
			if _, val, _ := strings.Cut(item, "="); strings.Contains(val, "=") {
				return []string{v}
			}
		}
	}
	return items
}

func (p *pairValue) add(item string) error {
	k, val, ok := strings.Cut(item, "=")
	if name, v, colon := strings.Cut(item, ":"); p.header && colon && (!ok || len(name) < len(k)) && headerToken(strings.TrimSpace(name)) {
		// "Authorization: Bearer tok": the header's own syntax
		k, val, ok = name, strings.TrimLeft(v, " \t"), true
	}
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		// no key to name: what was typed may be a secret (R8), so none of it is shown
		return errors.New("a value is not KEY=VALUE (it is not shown: it may be a secret)")
	}
	if p.values == nil {
		p.values = map[string]string{}
	}
	if _, dup := p.values[k]; !dup {
		p.keys = append(p.keys, k)
	}
	p.values[k] = val
	return nil
}

func (p *pairValue) String() string { return strings.Join(p.keys, ",") }

// headerToken reports whether s can be a header name (RFC 9110 token).
func headerToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// Flag constructors.
func listFlag(name, usage string) cli.Flag {
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &listValue{}}
}

func pairFlag(name, usage string) cli.Flag {
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &pairValue{}}
}

// headerFlag is pairFlag for headers: Name=value or Name: value.
func headerFlag(name, usage string) cli.Flag {
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &pairValue{header: true}}
}

func argFlag(name, usage string) cli.Flag {
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &argValue{}}
}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print one JSON document on stdout"}

// list returns the values of a list flag.
func list(c *cli.Context, name string) []string {
	if v, ok := c.Generic(name).(*listValue); ok && v != nil {
		return v.items
	}
	return nil
}

// pairs returns the values of a K=V flag and whether it was given.
func pairs(c *cli.Context, name string) (map[string]string, bool) {
	if v, ok := c.Generic(name).(*pairValue); ok && v != nil && v.values != nil {
		return v.values, true
	}
	return nil, false
}

// pairErr returns the usage error of a malformed K=V flag (the key only is quoted).
func pairErr(c *cli.Context, names ...string) error {
	for _, name := range names {
		if v, ok := c.Generic(name).(*pairValue); ok && v != nil && v.err != nil {
			return usagef("--%s: %v", name, v.err)
		}
	}
	return nil
}

// args returns the values of an --arg flag.
func argList(c *cli.Context, name string) []string {
	if v, ok := c.Generic(name).(*argValue); ok && v != nil {
		return v.items
	}
	return nil
}
