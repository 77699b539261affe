package write

import (
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
)

// accessPolicy writes a client's one switch for all of MCP (VS Code's ChatMCP) in the
// form each system reads: a JSON file on Linux, a configuration profile on macOS, a
// registry file on Windows. It can say one thing of a server policy: that no server
// passes ("none"). Any other policy leaves it unwritten, with a warning, since the
// servers the client allows are in another client's file it reads.
func accessPolicy(p *providers.Provider, a *providers.AdminPolicy, m *policy.ServerPolicy) ([]CompiledFile, []string) {
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
