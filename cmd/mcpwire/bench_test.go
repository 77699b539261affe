package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/benchgen"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// BenchmarkServerList runs `mcpwire server list` (text and --json) in process on 10,000
// servers and 1,000 profiles across 16 layers (SPEC Q4, issue 2: under 100 ms).
//
// spec: Q4 L3
func BenchmarkServerList(b *testing.B) {
	root := b.TempDir()
	dirs, err := benchgen.Write(root, benchgen.Full)
	if err != nil {
		b.Fatal(err)
	}
	layersVar := strings.Join(dirs, string(filepath.ListSeparator))
	for _, args := range [][]string{{"server", "list"}, {"server", "list", "--json"}, {"layers"}} {
		b.Run(strings.Join(args, "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var stderr bytes.Buffer
				env := &Env{
					Getenv: func(k string) string {
						if k == "AIWG_CONFIG_LAYERS" {
							return layersVar
						}
						return ""
					},
					Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr,
					FS: fsys.NewOS(), Home: root, Cwd: root,
				}
				if code := Main(args, env); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
		})
	}
}
