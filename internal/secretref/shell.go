package secretref

import "strings"

// A client that runs a helper through a shell (Claude Code's headersHelper: /bin/sh
// on Unix, cmd.exe on Windows) gets one command line. References hold no character
// either shell expands (Parse refuses $ ` % " and braces), so quoting is enough to
// keep each word whole.

// ShellLine joins words into a command line for the shell of a system: POSIX single
// quotes (a quote inside closes, escapes and reopens them), or on Windows double
// quotes, around every word holding anything but letters, digits and -_./:=@+,.
func ShellLine(words []string, windows bool) string {
	out := make([]string, len(words))
	for i, w := range words {
		switch {
		case w != "" && allBytes(w, safeByte):
			out[i] = w
		case windows:
			out[i] = `"` + w + `"`
		default:
			out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

func safeByte(c byte) bool { return alnum(c) || strings.IndexByte("-_./:=@+,", c) >= 0 }

// SplitShellLine reads back a line ShellLine wrote (for either system): words
// separated by spaces, each made of bare runs, '…' runs, "…" runs and \' . Anything
// a shell would expand or treat specially makes it false: such a line is not
// mcpwire's, and is left as it is.
func SplitShellLine(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			continue
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case c == '\\' && i+1 < len(s) && s[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case safeByte(c) || c == '\\':
			cur.WriteByte(c)
		default:
			return nil, false
		}
		inWord = true
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, len(words) > 0
}
