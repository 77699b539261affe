package registry_test

import (
	"runtime"
	"testing"

	"github.com/mcpwire/mcpwire/internal/benchgen"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/registry"
)

// maxGrowth bounds how much the allocations of a load and resolve may grow when the
// registry doubles. Linear cost gives 2× (measured: 62,618 allocations and 18.4 MB for
// the half registry, 124,089 and 36.7 MB for the full one); a cost quadratic in any
// part of the input gives well above 2.3×.
const maxGrowth = 2.3

// allocs is what one load and resolve allocated: how many objects, and how many bytes.
type allocs struct{ count, bytes uint64 }

// loadResolveAllocs returns the allocations of one load of the generated registry
// plus a resolve of every profile (the work BenchmarkLoadResolve times), measured on
// a second run so that one-time initialisation does not count.
func loadResolveAllocs(t *testing.T, spec benchgen.Spec) allocs {
	t.Helper()
	dirs, err := benchgen.Write(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	cfg := layers.Config{Dirs: dirs, Layered: true}
	run := func() {
		set, err := layers.Load(fsys.NewOS(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := registry.Load(set)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(reg.ServerNames()); n != spec.Servers {
			t.Fatalf("%d servers, want %d", n, spec.Servers)
		}
		if n := len(reg.ProfileNames()); n != spec.Profiles {
			t.Fatalf("%d profiles, want %d", n, spec.Profiles)
		}
		for _, name := range reg.ProfileNames() {
			r, err := reg.Resolve(name)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Servers) == 0 {
				t.Fatalf("%s resolved to no servers", name)
			}
		}
	}
	run()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return allocs{after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc}
}

// TestLoadResolveScalesLinearly keeps the cost of loading a layered registry and
// resolving every profile linear in the input (issue 2): doubling the servers and
// profiles (16 layers, extends chains 50 deep, as in BenchmarkLoadResolve) at most
// doubles the allocations, in number and in bytes, within maxGrowth. Allocations,
// unlike time, do not depend on the machine's load. -short compares a quarter and half of the full size instead
// of half and full.
//
// spec: Q4 L3 R4
func TestLoadResolveScalesLinearly(t *testing.T) {
	small, large := benchgen.Full.Scale(0.5), benchgen.Full
	if testing.Short() {
		small, large = benchgen.Full.Scale(0.25), benchgen.Full.Scale(0.5)
	}
	if large.Servers != 2*small.Servers || large.Profiles != 2*small.Profiles {
		t.Fatalf("sizes %+v and %+v do not double", small, large)
	}
	a := loadResolveAllocs(t, small)
	b := loadResolveAllocs(t, large)
	t.Logf("%d servers, %d profiles: %d allocations, %d bytes; %d servers, %d profiles: %d allocations, %d bytes",
		small.Servers, small.Profiles, a.count, a.bytes, large.Servers, large.Profiles, b.count, b.bytes)
	for _, m := range []struct {
		what       string
		half, full uint64
	}{{"allocations", a.count, b.count}, {"allocated bytes", a.bytes, b.bytes}} {
		if g := float64(m.full) / float64(m.half); g > maxGrowth {
			t.Errorf("doubling the registry multiplied the %s by %.2f (%d → %d), want at most %.1f: the cost is no longer linear in the input",
				m.what, g, m.half, m.full, maxGrowth)
		}
	}
}
