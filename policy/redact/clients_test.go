package redact

// The clients' spellings of references (Continue's ${{ secrets.VAR }} among them),
// which they declare to policy as the program starts.
import _ "github.com/mcpwire/mcpwire/providers"
