package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

func serverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "type", Usage: "stdio, http or sse (default: stdio with --command or --, else http)"},
		&cli.StringFlag{Name: "command", Usage: "program to start (stdio), one word; or give the command line after --"},
		argFlag("arg", "one argument of the command (repeat for more)"),
		pairFlag("env", `literal environment value K=V, kept out of committed project files; repeat, or a comma list A=1,B=2 (never split when a value holds "=": DSN=host=db,user=me is one value)`),
		pairFlag("env-plain", "environment value K=V that is no secret (a path, a port, a flag): written into committed project files too"),
		pairFlag("env-from", "pass the client's variable VAR as the server's K: K=VAR"),
		&cli.StringFlag{Name: "url", Usage: "absolute http(s) URL (http, sse)"},
		headerFlag("header", `literal header K=V or "K: V"; repeat, or a comma list (never split when a value holds "="); a whole value "${VAR}" or "Bearer ${VAR}" is a reference`),
		headerFlag("header-plain", "header K=V that is no secret (a team name, a region): written into committed project files too"),
		headerFlag("header-env", "header whose whole value comes from a variable: HEADER=VAR"),
		&cli.StringFlag{Name: "bearer-env", Usage: "send Authorization: Bearer <value of VAR>"},
		pairFlag("env-secret", "K=REF: the server's K from a secret store, resolved when it starts (op://VAULT/ITEM/FIELD, pass:PATH, keyring:SERVICE/ACCOUNT, file:PATH); the reference may go into committed files"),
		headerFlag("header-secret", "H=REF: header H from a secret store, resolved when the client connects"),
		&cli.StringFlag{Name: "bearer-secret", Usage: "REF: send Authorization: Bearer <the secret REF names>"},
		&cli.StringFlag{Name: "cwd", Usage: "working directory of the server (stdio)"},
		&cli.StringFlag{Name: "description", Usage: "free text"},
	}
}

// updateFlags are server update's own flags, beyond serverFlags.
func updateFlags() []cli.Flag {
	return []cli.Flag{
		listFlag("unset-env", "remove the server's environment variable K (from env, --env-plain, --env-from and --env-secret)"),
		listFlag("unset-header", "remove the header K (from headers, --header-env and --header-secret; Authorization also drops --bearer-env and --bearer-secret)"),
		moveFlag("move-secrets-to"),
		&cli.BoolFlag{Name: "dry-run", Usage: "print the server before and after (values hidden); write nothing"},
	}
}

// applyServerFlags copies the given flags, and the command line after "--" (U3),
// into s and reports whether any was given.
func applyServerFlags(env *Env, c *cli.Context, s *registry.Server, update bool) (bool, error) {
	if err := pairErr(c, "env", "env-plain", "env-from", "env-secret", "header", "header-plain", "header-env", "header-secret"); err != nil {
		return false, err
	}
	if err := checkVarFlags(env, c); err != nil {
		return false, err
	}
	if err := checkCommandFlags(env, c); err != nil {
		return false, err
	}
	if err := checkTransportFlags(env, c); err != nil {
		return false, err
	}
	given := false
	if update {
		// --unset-env/--unset-header name the server's keys as they are now, before
		// --env or --header replace a part of them (docs/layers.md)
		unset, err := applyUnset(c, s)
		if err != nil {
			return false, err
		}
		given = unset
	}
	str := func(name string, dst *string) {
		if c.IsSet(name) {
			*dst = c.String(name)
			given = true
		}
	}
	oldType := s.Type
	str("type", &s.Type)
	str("command", &s.Command)
	if c.IsSet("arg") {
		s.Args = argList(c, "arg")
		given = true
	}
	if env.dashdash {
		s.Command, s.Args, given = env.passthrough[0], slices.Clone(env.passthrough[1:]), true
	}
	envGiven, err := applyEnv(c, s)
	if err != nil {
		return false, err
	}
	str("url", &s.URL)
	headersGiven, err := applyHeaders(c, s)
	if err != nil {
		return false, err
	}
	given = given || envGiven || headersGiven
	str("cwd", &s.Cwd)
	str("description", &s.Description)
	if !c.IsSet("type") {
		switch {
		case c.IsSet("command") || env.dashdash:
			s.Type = registry.Stdio
		case c.IsSet("url") && (!update || oldType == registry.Stdio):
			s.Type = registry.HTTP
		}
	}
	if update && s.Type != oldType && (s.Type == registry.Stdio) != (oldType == registry.Stdio) {
		dropOtherTransport(env, c, s)
	}
	return given, nil
}

// checkVarFlags refuses a value of --env-from, --header-env or --bearer-env that is
// no variable's name but a credential (T4): the current value of a variable of this
// environment (the shell expanded $TICKETS_TOKEN where 'TICKETS_TOKEN' was meant), or
// a name shaped like a token or a long random string. The refusal names the flag and
// the key, never the value; a value that is no name at all is left to the registry's
// check (not a valid variable name).
func checkVarFlags(env *Env, c *cli.Context) error {
	type given struct{ flag, key, value string }
	var all []given
	for _, f := range []string{"env-from", "header-env", "value-from"} {
		m, _ := pairs(c, f)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			all = append(all, given{f, k, m[k]})
		}
	}
	if c.IsSet("bearer-env") {
		all = append(all, given{"bearer-env", "", c.String("bearer-env")})
	}
	environ := env.environ()
	for _, g := range all {
		what, form := "--"+g.flag, "--"+g.flag+" "
		if g.key != "" {
			what += " " + g.key
			form += g.key + "="
		}
		if name := policy.ExpandedFrom(g.value, environ); name != "" {
			return withHint(fmt.Errorf("%s: the value is the current value of the variable %s, not a variable name (the shell expanded $%s)", what, name, name),
				fmt.Sprintf("give the name, in single quotes so that the shell leaves it: %s'%s'", form, name))
		}
		if !policy.IsVarName(g.value) {
			continue
		}
		if why := policy.NameProblem(g.value); why != "" {
			return withHint(fmt.Errorf("%s: %s", what, why),
				fmt.Sprintf("give the name of the variable that holds the credential: %sVAR (the client reads its value when it starts the server)", form))
		}
	}
	return nil
}

// checkNewRefs refuses, as checkVarFlags does, the references next holds that cur
// did not (every one of a new server, cur nil): those a --header value spelled as a
// reference ("${VAR}", "Bearer ${VAR}") became name their variable there (T4).
func checkNewRefs(env *Env, cur, next *registry.Server) error {
	if cur == nil {
		cur = &registry.Server{}
	}
	fresh := &registry.Server{EnvFrom: map[string]string{}, HeaderEnv: map[string]string{}}
	for k, v := range next.EnvFrom {
		if cur.EnvFrom[k] != v {
			fresh.EnvFrom[k] = v
		}
	}
	for k, v := range next.HeaderEnv {
		if cur.HeaderEnv[k] != v {
			fresh.HeaderEnv[k] = v
		}
	}
	if next.BearerEnv != cur.BearerEnv {
		fresh.BearerEnv = next.BearerEnv
	}
	if err := fresh.CheckRefNames(env.environ()); err != nil {
		return fmt.Errorf("server %q: %w", next.Name, err)
	}
	return nil
}

// checkCommandFlags refuses a command given two ways (-- and --command/--arg) and a
// --command holding a whole command line (U3): both are usage errors.
func checkCommandFlags(env *Env, c *cli.Context) error {
	if env.dashdash {
		if c.IsSet("command") || c.IsSet("arg") {
			return usagef("give the command either after -- or with --command/--arg, not both")
		}
		if len(env.passthrough) == 0 {
			return usagef("nothing after --: give the command and its arguments, as in %s NAME -- npx -y PACKAGE", commandPath(c))
		}
		return nil
	}
	if cmd := c.String("command"); strings.ContainsAny(cmd, " \t\r\n") {
		fields := policy.RedactArgs(strings.Fields(cmd))
		whole := policy.RedactArgs([]string{cmd})
		err := usagef("--command %q holds spaces: it names one program, not a command line", strings.Join(fields, " "))
		if fi, serr := env.FS.Stat(cmd); serr == nil && !fi.IsDir() {
			// an existing program whose path holds a space
			return withHint(err, "put the program after --, quoted as one word: "+dashForm(c, whole))
		}
		split := "put the command and its arguments after --: " + dashForm(c, fields)
		if !strings.ContainsAny(fields[0], `/\`) {
			return withHint(err, split, "a program path that holds a space goes after -- too, quoted as one word")
		}
		path := "if it is one program whose path holds a space: " + dashForm(c, whole)
		if slices.ContainsFunc(fields[1:], func(f string) bool { return strings.HasPrefix(f, "-") }) {
			return withHint(err, split, path)
		}
		// "/Applications/My App/bin/mcp": most likely one path
		return withHint(err, path, "if it is a command and its arguments: "+dashForm(c, fields))
	}
	return nil
}

// dashForm is the command line that gives the server's command after "--", as a
// person pastes it into a POSIX shell (every word quoted where it needs it).
func dashForm(c *cli.Context, command []string) string {
	name := "NAME"
	if c.NArg() > 0 {
		name = c.Args().First()
	}
	return providers.Launch{Binary: commandPath(c), Args: append([]string{name, "--"}, command...)}.String()
}

// checkTransportFlags refuses a command line that makes a server both local and
// remote (U2, U3): a command (after -- or --command) with --url, or with --type http
// or sse; --url with --type stdio. These are usage errors, each with the way to say
// what was meant.
func checkTransportFlags(env *Env, c *cli.Context) error {
	command := env.dashdash || c.IsSet("command")
	typ := c.String("type")
	switch {
	case command && c.IsSet("url"):
		return withHint(usagef("a command (after -- or --command) and --url cannot be used together: a server is local or remote"),
			"a local server: its command after -- and no --url; a remote one: --url and nothing after --")
	case command && (typ == registry.HTTP || typ == registry.SSE):
		return withHint(usagef("--type %s takes --url, not a command (after -- or --command)", typ),
			"a local server needs no --type (stdio is the default with --); a remote one gives --url instead of the command")
	case c.IsSet("url") && typ == registry.Stdio:
		return withHint(usagef("--type stdio takes a command (after -- or --command), not --url"),
			"a remote server: --type http or sse, or no --type (http is the default with --url); a local one: its command after -- instead of --url")
	}
	return nil
}

// noTransport is the refusal of server add given neither a command nor a URL, with
// both ways to give one.
func noTransport(c *cli.Context, name string) error {
	return withHint(fmt.Errorf("server %q: give its command after -- (a local server) or its --url (a remote one)", name),
		"a local server: "+dashForm(c, []string{"npx", "-y", "PACKAGE"}),
		"a remote server: "+providers.Launch{Binary: commandPath(c), Args: []string{name, "--url", "https://HOST/mcp"}}.String())
}

// applyEnv applies --env, --env-plain (P11) and --env-from key by key (H3): each key
// given is set, in the part the flag names — a literal value, a plain one, or a
// reference to a variable — and leaves the others, so that a reference given for a
// key that holds a literal replaces the literal (and the other way round). The keys
// not given keep what they have. A key given to two of them is a usage error.
func applyEnv(c *cli.Context, s *registry.Server) (bool, error) {
	lit, litGiven := pairs(c, "env")
	plain, plainGiven := pairs(c, "env-plain")
	from, fromGiven := pairs(c, "env-from")
	secret, secretGiven := pairs(c, "env-secret")
	if !litGiven && !plainGiven && !fromGiven && !secretGiven {
		return false, nil
	}
	if err := givenOnce(false, map[string]map[string]string{"env": lit, "env-plain": plain, "env-from": from, "env-secret": secret}); err != nil {
		return false, err
	}
	isPlain := s.PlainEnvKeys()
	env, envFrom, envSecret := maps.Clone(s.Env), maps.Clone(s.EnvFrom), maps.Clone(s.EnvSecret)
	if envSecret == nil {
		envSecret = map[string]string{}
	}
	if env == nil {
		env = map[string]string{}
	}
	if envFrom == nil {
		envFrom = map[string]string{}
	}
	for k, v := range lit {
		env[k] = v
		delete(envFrom, k)
		delete(isPlain, k)
	}
	for k, v := range plain {
		env[k] = v
		delete(envFrom, k)
		if isPlain == nil {
			isPlain = map[string]bool{}
		}
		isPlain[k] = true
	}
	for k, v := range from {
		envFrom[k] = v
		delete(env, k)
		delete(isPlain, k)
	}
	for k, v := range secret {
		envSecret[k] = v
		delete(env, k)
		delete(envFrom, k)
		delete(isPlain, k)
	}
	for _, m := range []map[string]string{lit, plain, from} {
		for k := range m {
			delete(envSecret, k)
		}
	}
	plainKeys := slices.Sorted(maps.Keys(isPlain))
	if len(plainKeys) == 0 {
		plainKeys = nil
	}
	// a key given a value here no longer comes from an input the client asks for (T3)
	envInput := maps.Clone(s.EnvInput)
	for _, m := range []map[string]string{lit, plain, from, secret} {
		for k := range m {
			delete(envInput, k)
		}
	}
	s.Env, s.EnvFrom, s.PlainEnv, s.EnvInput = nilIfNone(env), nilIfNone(envFrom), plainKeys, nilIfNone(envInput)
	s.EnvSecret = nilIfNone(envSecret)
	return true, nil
}

// applyHeaders applies --header, --header-plain (H10), --header-env and --bearer-env
// header by header (H3), as applyEnv does env keys; header names compare without
// case, and the Authorization header is one header whichever of them gives it:
// --bearer-env replaces a literal or a variable Authorization, and an Authorization
// given to another flag ends --bearer-env. A --header value that is one reference
// ("${VAR}", in any client's spelling) is the variable's (--header-env), and an
// Authorization of "Bearer " and a reference is --bearer-env: the value Claude Code's
// own --header "Authorization: Bearer ${TOKEN}" means.
func applyHeaders(c *cli.Context, s *registry.Server) (bool, error) {
	lit, litGiven := pairs(c, "header")
	plain, plainGiven := pairs(c, "header-plain")
	from, fromGiven := pairs(c, "header-env")
	bearer, bearerGiven := c.String("bearer-env"), c.IsSet("bearer-env")
	secret, secretGiven := pairs(c, "header-secret")
	bearerSecret, bearerSecretGiven := c.String("bearer-secret"), c.IsSet("bearer-secret")
	if !litGiven && !plainGiven && !fromGiven && !bearerGiven && !secretGiven && !bearerSecretGiven {
		return false, nil
	}
	lit, from = maps.Clone(lit), maps.Clone(from)
	if from == nil {
		from = map[string]string{}
	}
	for k, v := range lit {
		if name, ok := policy.AnyVariable(v); ok {
			delete(lit, k)
			from[k] = name
		} else if rest, ok := strings.CutPrefix(v, policy.BearerScheme); ok && strings.EqualFold(k, "Authorization") {
			if name, ok := policy.AnyVariable(rest); ok && !bearerGiven {
				delete(lit, k)
				bearer, bearerGiven = name, true
			}
		}
	}
	given := map[string]map[string]string{"header": lit, "header-plain": plain, "header-env": from, "header-secret": secret}
	if bearerGiven {
		given["bearer-env"] = map[string]string{"Authorization": bearer}
	}
	if bearerSecretGiven {
		given["bearer-secret"] = map[string]string{"Authorization": bearerSecret}
	}
	if err := givenOnce(true, given); err != nil {
		return false, err
	}
	headers, headerEnv, headerInput, headerSecret := maps.Clone(s.Headers), maps.Clone(s.HeaderEnv), maps.Clone(s.HeaderInput), maps.Clone(s.HeaderSecret)
	if headerSecret == nil {
		headerSecret = map[string]string{}
	}
	if headers == nil {
		headers = map[string]string{}
	}
	if headerEnv == nil {
		headerEnv = map[string]string{}
	}
	isPlain := s.PlainHeaderKeys()
	// clear ends every source of header k (an input the client asks for included, T3);
	// set gives it one
	clear := func(k string) {
		deleteFold(headers, k)
		deleteFold(headerEnv, k)
		deleteFold(headerInput, k)
		deleteFold(headerSecret, k)
		for p := range isPlain {
			if strings.EqualFold(p, k) {
				delete(isPlain, p)
			}
		}
		if strings.EqualFold(k, "Authorization") {
			s.BearerEnv, s.BearerInput, s.BearerSecret = "", "", ""
		}
	}
	set := func(dst map[string]string, k, v string) {
		clear(k)
		dst[k] = v
	}
	for k, v := range lit {
		set(headers, k, v)
	}
	for k, v := range plain {
		set(headers, k, v)
		if isPlain == nil {
			isPlain = map[string]bool{}
		}
		isPlain[k] = true
	}
	for k, v := range from {
		set(headerEnv, k, v)
	}
	for k, v := range secret {
		set(headerSecret, k, v)
	}
	if bearerGiven {
		clear("Authorization")
		s.BearerEnv = bearer
	}
	if bearerSecretGiven {
		clear("Authorization")
		s.BearerSecret = bearerSecret
	}
	plainKeys := slices.Sorted(maps.Keys(isPlain))
	if len(plainKeys) == 0 {
		plainKeys = nil
	}
	s.Headers, s.HeaderEnv, s.HeaderInput, s.PlainHeaders = nilIfNone(headers), nilIfNone(headerEnv), nilIfNone(headerInput), plainKeys
	s.HeaderSecret = nilIfNone(headerSecret)
	return true, nil
}

// givenOnce refuses a key given to two of the flags (header names compared without
// case when fold is set): each key says where its value comes from once.
func givenOnce(fold bool, byFlag map[string]map[string]string) error {
	flags := slices.Sorted(maps.Keys(byFlag))
	for i, a := range flags {
		for _, b := range flags[i+1:] {
			for _, k := range slices.Sorted(maps.Keys(byFlag[a])) {
				for k2 := range byFlag[b] {
					if k == k2 || fold && strings.EqualFold(k, k2) {
						return usagef("%s is given to both --%s and --%s; choose one", k, a, b)
					}
				}
			}
		}
	}
	return nil
}

func nilIfNone(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// dropOtherTransport clears the fields of the transport a server update left,
// unless this update gives them.
func dropOtherTransport(env *Env, c *cli.Context, s *registry.Server) {
	if s.Remote() {
		if !c.IsSet("command") && !env.dashdash {
			s.Command = ""
		}
		if !c.IsSet("arg") && !env.dashdash {
			s.Args = nil
		}
		if !c.IsSet("cwd") {
			s.Cwd = ""
		}
		if !c.IsSet("env") && !c.IsSet("env-plain") {
			s.Env, s.PlainEnv = nil, nil
		}
		if !c.IsSet("env-from") {
			s.EnvFrom = nil
		}
		if !c.IsSet("env-secret") {
			s.EnvSecret = nil
		}
		s.EnvInput = nil
		return
	}
	if !c.IsSet("url") {
		s.URL = ""
	}
	if !c.IsSet("header") && !c.IsSet("header-plain") {
		s.Headers, s.PlainHeaders = nil, nil
	}
	if !c.IsSet("header-env") {
		s.HeaderEnv = nil
	}
	if !c.IsSet("bearer-env") {
		s.BearerEnv = ""
	}
	if !c.IsSet("header-secret") {
		s.HeaderSecret = nil
	}
	if !c.IsSet("bearer-secret") {
		s.BearerSecret = ""
	}
	s.HeaderInput, s.BearerInput = nil, ""
}

// applyUnset applies server update's --unset-env and --unset-header (U3). A key the
// same update also sets is a usage error; a key the server does not have is refused
// naming the keys it has (names only, R8).
func applyUnset(c *cli.Context, s *registry.Server) (bool, error) {
	envKeys, headerKeys := list(c, "unset-env"), list(c, "unset-header")
	for _, k := range envKeys {
		for _, f := range []string{"env", "env-plain", "env-from", "env-secret"} {
			if m, _ := pairs(c, f); m != nil {
				if _, ok := m[k]; ok {
					return false, usagef("--unset-env %s and --%s %s=… contradict each other", k, f, k)
				}
			}
		}
		_, inEnv := s.Env[k]
		_, inFrom := s.EnvFrom[k]
		_, inInput := s.EnvInput[k]
		_, inSecret := s.EnvSecret[k]
		if !inEnv && !inFrom && !inInput && !inSecret {
			return false, withHint(fmt.Errorf("--unset-env %s: server %q has no such environment variable", k, s.Name),
				"its variables: "+orNone(slices.Concat(s.EnvKeys(), slices.Sorted(maps.Keys(s.EnvFrom)), slices.Sorted(maps.Keys(s.EnvInput)), slices.Sorted(maps.Keys(s.EnvSecret)))))
		}
		delete(s.Env, k)
		delete(s.EnvFrom, k)
		delete(s.EnvInput, k)
		delete(s.EnvSecret, k)
		s.PlainEnv = slices.DeleteFunc(s.PlainEnv, func(p string) bool { return p == k })
	}
	for _, k := range headerKeys {
		for _, f := range []string{"header", "header-plain", "header-env", "header-secret"} {
			if m, _ := pairs(c, f); m != nil && hasFold(slices.Sorted(maps.Keys(m)), k) {
				return false, usagef("--unset-header %s and --%s %s=… contradict each other", k, f, k)
			}
		}
		bearer := strings.EqualFold(k, "Authorization") && (s.BearerEnv != "" || s.BearerInput != "" || s.BearerSecret != "")
		if bearer && (c.IsSet("bearer-env") || c.IsSet("bearer-secret")) {
			return false, usagef("--unset-header %s and --bearer-env or --bearer-secret contradict each other", k)
		}
		named := slices.Concat(s.HeaderKeys(), slices.Sorted(maps.Keys(s.HeaderEnv)), slices.Sorted(maps.Keys(s.HeaderInput)), slices.Sorted(maps.Keys(s.HeaderSecret)))
		if !hasFold(named, k) && !bearer {
			return false, withHint(fmt.Errorf("--unset-header %s: server %q sends no such header", k, s.Name), "its headers: "+orNone(named))
		}
		deleteFold(s.Headers, k)
		deleteFold(s.HeaderEnv, k)
		deleteFold(s.HeaderInput, k)
		deleteFold(s.HeaderSecret, k)
		s.PlainHeaders = slices.DeleteFunc(s.PlainHeaders, func(p string) bool { return strings.EqualFold(p, k) })
		if bearer {
			s.BearerEnv, s.BearerInput, s.BearerSecret = "", "", ""
		}
	}
	s.Env, s.EnvFrom, s.Headers, s.HeaderEnv = nilIfNone(s.Env), nilIfNone(s.EnvFrom), nilIfNone(s.Headers), nilIfNone(s.HeaderEnv)
	s.EnvInput, s.HeaderInput = nilIfNone(s.EnvInput), nilIfNone(s.HeaderInput)
	s.EnvSecret, s.HeaderSecret = nilIfNone(s.EnvSecret), nilIfNone(s.HeaderSecret)
	if len(s.PlainEnv) == 0 {
		s.PlainEnv = nil
	}
	if len(s.PlainHeaders) == 0 {
		s.PlainHeaders = nil
	}
	return len(envKeys)+len(headerKeys) > 0, nil
}

// hasFold reports whether keys holds k, ignoring case (header names).
func hasFold(keys []string, k string) bool {
	return slices.ContainsFunc(keys, func(x string) bool { return strings.EqualFold(x, k) })
}

// deleteFold deletes every key of m equal to k ignoring case.
func deleteFold(m map[string]string, k string) {
	for x := range m {
		if strings.EqualFold(x, k) {
			delete(m, x)
		}
	}
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ", ")
}
