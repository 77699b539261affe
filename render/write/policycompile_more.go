package write

import (
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// pinned reports whether the policy pins its servers: nothing unlisted passes, and
// every allow rule names a server the registry defines.
func pinned(m *policy.ServerPolicy, reg *registry.Registry) bool {
	if m.AllowUnlisted || len(m.Allow) == 0 {
		return false
	}
	for _, r := range m.Allow {
		if r.Name == "" {
			return false
		}
		if _, ok := reg.Server(r.Name); !ok {
			return false
		}
	}
	return true
}

// pinnedServers is the client's own server list (Claude Code's managed-mcp.json) when
// the policy pins its servers: the allowed registry servers no deny rule matches,
// each with its transport, command and arguments or URL. Their variables and headers
// are not written (a system file readable by every user holds no credential): a
// warning names each server that has any. nil when the policy does not pin or the
// client has no such file.
func pinnedServers(p *providers.Provider, a *providers.AdminPolicy, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]byte, []string) {
	if a.Servers == (providers.AdminPaths{}) || !pinned(m, reg) {
		return nil, nil
	}
	warns := []string{fmt.Sprintf("%s: the policy pins its servers (every allow rule names a registry server), so its own server list is written too: the client then starts those servers only, and none from the users' files", p.Display)}
	servers := map[string]any{}
	for _, r := range m.Allow {
		s, _ := reg.Server(r.Name)
		if ps.Decide(s.Candidate()) != nil {
			continue
		}
		e := map[string]any{"type": s.Type}
		if s.Type == "" {
			e["type"] = registry.Stdio
		}
		if s.Remote() {
			e["url"] = s.URL
		} else {
			e["command"] = s.Command
			if len(s.Args) > 0 {
				e["args"] = s.Args
			}
		}
		if len(s.Env)+len(s.EnvSecret)+len(s.EnvInput)+len(s.EnvFrom)+len(s.Headers)+len(s.HeaderEnv)+len(s.HeaderSecret)+len(s.HeaderInput) > 0 || s.BearerEnv != "" || s.BearerSecret != "" || s.BearerInput != "" {
			warns = append(warns, fmt.Sprintf("%s: server %q is written to its server list without its variables and headers (a system file holds no credential): add them there by hand", p.Display, r.Name))
		}
		servers[r.Name] = e
	}
	b, _ := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	return append(b, '\n'), warns
}

// allowedNames are the names an allow list by name holds: a name rule's name unless
// a deny rule by that name denies it, and for a URL or command rule the names of the
// registry servers it admits, with a warning that the client matches names only.
func allowedNames(p *providers.Provider, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]string, []string) {
	var warns, allowed []string
	for _, r := range m.Allow {
		if r.Name != "" {
			if !deniedByName(m, r.Name) {
				allowed = providers.AppendNew(allowed, []string{r.Name})
			}
			continue
		}
		names := registryNames(reg, func(c policy.Candidate) bool { return r.Matches(c) && ps.Decide(c) == nil })
		allowed = providers.AppendNew(allowed, names)
		warns = append(warns, fmt.Sprintf("%s: matches server names only: allow rule %s is written as the registry's servers it admits (%s); another server under one of these names passes", p.Display, r, list(names)))
	}
	return allowed, warns
}

// deniedByName reports whether a deny rule names the server.
func deniedByName(m *policy.ServerPolicy, name string) bool {
	return slices.ContainsFunc(m.Deny, func(r policy.ServerRule) bool { return r.Name == name })
}

// nameAllow writes Cline's remote configuration: allowedMCPServers, an allow list of
// names with no deny list, where an empty list restricts nothing (so a policy that
// admits no server switches local servers off instead).
func nameAllow(p *providers.Provider, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]byte, []string) {
	if m.AllowUnlisted {
		if len(m.Deny) == 0 {
			return nil, nil
		}
		return nil, []string{fmt.Sprintf("%s: its organisation policy is an allow list of names only: with allowUnlisted true its deny rules cannot be written there (none written)", p.Display)}
	}
	names, warns := allowedNames(p, m, ps, reg)
	doc := map[string]any{}
	if len(names) == 0 {
		doc["mcpMarketplaceEnabled"] = false
		warns = append(warns, fmt.Sprintf("%s: an empty allow list restricts nothing there: the policy admits no server, so every local server is switched off (mcpMarketplaceEnabled false)", p.Display))
	} else {
		ids := make([]map[string]string, len(names))
		for i, n := range names {
			ids[i] = map[string]string{"id": n}
		}
		doc["allowedMCPServers"] = ids
		warns = append(warns, fmt.Sprintf("%s: matches server names only, and reads this from its remote configuration, not a file on the machine: paste it there", p.Display))
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n'), warns
}

// accessPolicy writes a client's one switch for all of MCP (VS Code's ChatMCP) in the
// form each system reads: a JSON file on Linux, a configuration profile on macOS, a
// registry file on Windows. It can say one thing of a server policy: that no server
// passes ("none"). Any other policy leaves it unwritten, with a warning, since the
// servers the client allows are in another client's file it reads.
func accessPolicy(p *providers.Provider, a *providers.AdminPolicy, m *policy.ServerPolicy, _ policy.ServerPolicies, _ *registry.Registry) ([]CompiledFile, []string) {
	if m.AllowUnlisted || len(m.Allow) > 0 {
		return nil, []string{fmt.Sprintf("%s: its own policy %s turns all of MCP on or off, and the policy admits some servers: none written (the servers it allows are the managed-settings.json it reads, compiled here)", p.Display, a.Policy)}
	}
	const value = "none"
	var out []CompiledFile
	for _, goos := range adminSystems {
		f := CompiledFile{Provider: p.Name, GOOS: goos, System: a.Paths.Path(goos)}
		switch {
		case f.System != "":
			b, _ := json.MarshalIndent(map[string]string{a.Policy: value}, "", "  ")
			f.Rel, f.Data = goos+"/"+relSystem(f.System), append(b, '\n')
		case goos == "darwin" && a.PolicyDomain != "":
			f.Rel, f.Data = goos+"/"+p.Name+".mobileconfig", mobileconfig(p, a, value)
			f.Install = "a configuration profile for the preference domain " + a.PolicyDomain + " (MDM, or System Settings > Device Management)"
		case goos == "windows" && a.PolicyKey != "":
			f.Rel, f.Data = goos+"/"+p.Name+"-policy.reg", regFile(a, value)
			f.Install = `reg import into ` + a.PolicyKey + ` (or the client's ADMX template in Group Policy)`
		default:
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// regFile is a registry file setting one string value under a key: UTF-16LE with its
// byte order mark and CRLF lines, as regedit writes.
func regFile(a *providers.AdminPolicy, value string) []byte {
	text := "Windows Registry Editor Version 5.00\r\n\r\n[" + a.PolicyKey + "]\r\n" +
		fmt.Sprintf("%q=%q\r\n", a.Policy, value)
	u := utf16.Encode([]rune("\ufeff" + text))
	b := make([]byte, 0, 2*len(u))
	for _, c := range u {
		b = append(b, byte(c), byte(c>>8))
	}
	return b
}

// mobileconfig is a macOS configuration profile setting one string preference of a
// domain.
func mobileconfig(p *providers.Provider, a *providers.AdminPolicy, value string) []byte {
	id := "io.aiwg.mcpwire.policy." + p.Name
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <array>
    <dict>
      <key>PayloadType</key>
      <string>` + a.PolicyDomain + `</string>
      <key>PayloadIdentifier</key>
      <string>` + id + `.payload</string>
      <key>PayloadUUID</key>
      <string>` + uuidOf(id+".payload") + `</string>
      <key>PayloadVersion</key>
      <integer>1</integer>
      <key>` + a.Policy + `</key>
      <string>` + value + `</string>
    </dict>
  </array>
  <key>PayloadDisplayName</key>
  <string>` + p.Display + ` MCP policy (mcpwire policy compile)</string>
  <key>PayloadIdentifier</key>
  <string>` + id + `</string>
  <key>PayloadType</key>
  <string>Configuration</string>
  <key>PayloadUUID</key>
  <string>` + uuidOf(id) + `</string>
  <key>PayloadVersion</key>
  <integer>1</integer>
</dict>
</plist>
`)
}

// uuidOf is a UUID derived from a name (so that compiling twice gives the same
// profile, which MDM then updates in place).
func uuidOf(name string) string {
	h := sha1.Sum([]byte(name))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return strings.ToUpper(fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16]))
}
