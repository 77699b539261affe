package tomledit

import (
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/internal/limits"
	"github.com/pelletier/go-toml/v2/unstable"
)

// FuzzNesting: the check made before parsing never counts fewer levels than the
// decoder finds (so that nothing deeper than the limit reaches go-toml's parser,
// which costs memory per level): whatever passes it at a small limit also passes the
// decoder's exact count at that limit.
//
// spec: K1 K3
func FuzzNesting(f *testing.F) {
	for _, s := range []string{"a = [[1]]\n", "[a.b]\nc.d = {e = [1]}\n", "[[a]]\nb = {c = {d = 1}}\n", "x = [{a.b = 1}, {c = [2]}]\n",
		"'a.b'.c = 1\n", "[a]\n\"b.c\" = [\"[\", '{']\n", "a = \"\"\"\n[[[\n\"\"\"\n", "a = 1.5 # [[[\n"} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, src []byte, max uint8) {
		if nesting(src, int(max)) != nil {
			return
		}
		dc := decoder{src: src, p: new(unstable.Parser), max: int(max)}
		dc.root = def{kind: defTable, explicit: true, table: map[string]any{}}
		dc.cur = &dc.root
		dc.p.Reset(src)
		for dc.p.NextExpression() {
			if err := dc.expression(dc.p.Expression()); err != nil {
				var le *limits.Error
				if errors.As(err, &le) {
					t.Fatalf("the check before parsing passed %q at %d levels, the decoder refused it: %v", src, max, err)
				}
				return
			}
		}
	})
}
