package fsys

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// A minified file is one line: a dry run's diff of a small edit of a minified 50 MB
// ~/.claude.json would print that line twice, and hide the credentials of 100 MB of
// text before printing it (27 s and 1 GB, SPEC K7). A line longer than longLine is
// shown shortened instead: a changed line paired with its new version is cut to the
// part that differs and some context, an unchanged one to its start, each followed by
// a "\ " note line (as "\ No newline at end of file" is) saying which bytes are shown.
// Cuts fall only between tokens — after a ',', '{' or '[' and before a ',', '}' or
// ']' outside quoted strings — so that every string shown is whole and a credential
// is never shown in part, where the redaction could not recognise it.

// longLine is the length from which a line of a diff is shown shortened.
const longLine = 4096

// shortContext is how many bytes of context are shown at least on each side of what
// changed in a long line (more, up to the next cut between tokens).
const shortContext = 64

// excerpt is the text shown for a long line and the note that follows it.
type excerpt struct{ text, note string }

// shortened returns the excerpts of the long lines of a hunk, by op index. A run of
// k deleted lines followed by k added ones pairs them in order.
func shortened(ops []op, al, bl [][]byte) map[int]excerpt {
	var out map[int]excerpt
	put := func(i int, x excerpt) {
		if out == nil {
			out = map[int]excerpt{}
		}
		out[i] = x
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			if l := trimNL(al[ops[i].a]); len(l) > longLine {
				put(i, excerptOf(l, 0, 0))
			}
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind == '-' {
			j++
		}
		k := j
		for k < len(ops) && ops[k].kind == '+' {
			k++
		}
		dels, adds := j-i, k-j
		for n := range max(dels, adds) {
			var a, b []byte
			if n < dels {
				a = trimNL(al[ops[i+n].a])
			}
			if n < adds {
				b = trimNL(bl[ops[j+n].b])
			}
			if len(a) <= longLine && len(b) <= longLine {
				continue
			}
			if dels != adds { // nothing to pair with: its start
				if n < dels && len(a) > longLine {
					put(i+n, excerptOf(a, 0, 0))
				}
				if n < adds && len(b) > longLine {
					put(j+n, excerptOf(b, 0, 0))
				}
				continue
			}
			p, s := commonEnds(a, b)
			start := cutBefore(a, max(0, p-shortContext)) // the same in b: before p, b is a
			put(i+n, excerptOf(a, start, len(a)-s))
			put(j+n, excerptOf(b, start, len(b)-s))
		}
		if k == i {
			k++
		}
		i = k
	}
	return out
}

// trimNL is a line without its line break.
func trimNL(l []byte) []byte { return bytes.TrimSuffix(l, []byte("\n")) }

// commonEnds returns the lengths of the common prefix and suffix of a and b (not
// overlapping on either).
func commonEnds(a, b []byte) (prefix, suffix int) {
	prefix = commonPrefix(a, b)
	return prefix, commonSuffix(a[prefix:], b[prefix:])
}

// commonSuffix returns the length of the common suffix of a and b, comparing a step
// of bytes at a time where they are the same (K7: an edit at the start of a minified
// 50 MB file).
func commonSuffix(a, b []byte) int {
	n := 0
	for n+compareStep <= len(a) && n+compareStep <= len(b) &&
		bytes.Equal(a[len(a)-n-compareStep:len(a)-n], b[len(b)-n-compareStep:len(b)-n]) {
		n += compareStep
	}
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// compareStep is how many bytes commonPrefix and commonEnds compare at once.
const compareStep = 4096

// commonPrefix returns the length of the common prefix of a and b, comparing a
// step of bytes at a time where they are the same.
func commonPrefix(a, b []byte) int {
	n := 0
	for n+compareStep <= len(a) && n+compareStep <= len(b) && bytes.Equal(a[n:n+compareStep], b[n:n+compareStep]) {
		n += compareStep
	}
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// excerptOf is line shortened to start (a cut between tokens, see cutBefore) up to
// what changed, which ends at to, with context, cut between tokens after it; a line
// shown alone (start and to 0) to its first shortContext bytes or so. A change longer
// than longLine is shown to its first longLine bytes or so (K7: an import of 200,000
// servers into a layer file written on one line adds 30 MB to it).
func excerptOf(line []byte, start, to int) excerpt {
	to = min(to, start+longLine)
	end := cutAfter(line, start, min(len(line), to+shortContext))
	text := string(line[start:end])
	if start > 0 {
		text = "…" + text
	}
	if end < len(line) {
		text += "…"
	}
	return excerpt{text, fmt.Sprintf(`\ line of %d bytes, shown from byte %d to %d`, len(line), start+1, end)}
}

// cutBefore returns the last place at or before at where line can be cut between
// tokens: just after a ',', '{' or '[' outside quoted strings, or 0. It reads the line
// from its start, the only way to know what is quoted, skipping each string with
// bytes.IndexByte.
func cutBefore(line []byte, at int) int { return cutBetween(line, 0, at) }

// cutBetween is cutBefore reading the line from from, a place where it can be cut
// (or 0), which it returns when no later place before at is one.
func cutBetween(line []byte, from, at int) int {
	cut := from
	// a mapped file's pages are dropped behind, a Chunk at a time
	relFrom, relAt := from, len(line)+1
	if bigbuf.IsMapped(line) {
		relAt = from + bigbuf.Chunk
	}
	for i := from; i < at; {
		if i >= relAt {
			bigbuf.Release(line[relFrom:i])
			relFrom, relAt = i, i+bigbuf.Chunk
		}
		switch c := line[i]; c {
		case '"', '\'':
			i = quotedEnd(line, i)
		case ',', '{', '[':
			i++
			cut = i
		default:
			i++
		}
	}
	return min(cut, at)
}

// quotedEnd returns the offset just after the string whose quote is at line[i] (a
// double-quoted one ends at a quote not escaped by a backslash), or len(line).
func quotedEnd(line []byte, i int) int {
	q := line[i]
	if q != '"' {
		if k := bytes.IndexByte(line[i+1:], q); k >= 0 {
			return i + 1 + k + 1
		}
		return len(line)
	}
	for j := i + 1; j < len(line); j += 2 { // past a backslash and what it escapes
		j = indexQuoteOrEscape(line, j)
		if j < 0 {
			break
		}
		if line[j] == '"' {
			return j + 1
		}
	}
	return len(line)
}

// indexQuoteOrEscape returns the offset of the first '"' or '\\' in line from from,
// or -1. It reads eight bytes at a time (K7: the cuts of a minified 50 MB
// ~/.claude.json read its 2,500,000 strings, mostly text, in 10 ms, not 50).
func indexQuoteOrEscape(line []byte, from int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	j := from
	for ; j+8 <= len(line); j += 8 {
		w := binary.LittleEndian.Uint64(line[j:])
		x, y := w^('"'*ones), w^('\\'*ones) // a zero byte where w has one of them
		if m := ((x-ones)&^x | (y-ones)&^y) & highs; m != 0 {
			return j + bits.TrailingZeros64(m)/8
		}
	}
	for ; j < len(line); j++ {
		if line[j] == '"' || line[j] == '\\' {
			return j
		}
	}
	return -1
}

// cutAfter returns the first place at or after at where line can be cut between
// tokens: just before a ',', '}' or ']' outside quoted strings, or the end; from is a
// place outside quoted strings before at.
func cutAfter(line []byte, from, at int) int {
	var quote byte
	for i := from; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case i >= at && (c == ',' || c == '}' || c == ']'):
			return i
		}
	}
	return len(line)
}
