package registry_test

import (
	"fmt"
	"testing"

	"github.com/mcpwire/mcpwire/internal/benchgen"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/registry"
)

// BenchmarkLoadResolve loads a layered registry and resolves every profile (SPEC Q4):
// full is 10,000 servers and 1,000 profiles with extends chains 50 deep across 16
// layers; half has half the servers and profiles. Cost should grow linearly: compare
// the ns/op of the two sizes.
//
// spec: Q4 L3 R4
func BenchmarkLoadResolve(b *testing.B) {
	for _, size := range []struct {
		name  string
		scale float64
	}{{"half", 0.5}, {"full", 1}} {
		spec := benchgen.Full.Scale(size.scale)
		b.Run(fmt.Sprintf("%s/servers=%d/profiles=%d", size.name, spec.Servers, spec.Profiles), func(b *testing.B) {
			dirs, err := benchgen.Write(b.TempDir(), spec)
			if err != nil {
				b.Fatal(err)
			}
			cfg := layers.Config{Dirs: dirs, Layered: true}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				set, err := layers.Load(fsys.NewOS(), cfg)
				if err != nil {
					b.Fatal(err)
				}
				reg, err := registry.Load(set)
				if err != nil {
					b.Fatal(err)
				}
				if n := len(reg.ServerNames()); n != spec.Servers {
					b.Fatalf("%d servers, want %d", n, spec.Servers)
				}
				for _, name := range reg.ProfileNames() {
					r, err := reg.Resolve(name)
					if err != nil {
						b.Fatal(err)
					}
					if len(r.Servers) == 0 {
						b.Fatalf("%s resolved to no servers", name)
					}
				}
			}
		})
	}
}
