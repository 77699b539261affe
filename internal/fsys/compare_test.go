package fsys

import (
	"path/filepath"
	"runtime"
	"testing"
)

// bytesAllocated returns the bytes fn allocates.
func bytesAllocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestCompareSmallFileSmallBuffer: the comparison before a rename reads a small file
// into a buffer of its size, not of a whole chunk (1 MB, zeroed, for every file of an
// injection into every client: a megabyte of fresh memory per run). Every answer
// stays right: the same content, another content of the same size, a longer file.
func TestCompareSmallFileSmallBuffer(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.json")
	writeTestFile(t, p, `{"a": 1}`, 0o600)
	o := OS{}
	for _, c := range []struct {
		want string
		same bool
	}{{`{"a": 1}`, true}, {`{"a": 2}`, false}, {`{"a": }`, false}, {`{"a": 1} `, false}} {
		got, err := o.sameContent(p, Snapshot{Exists: true, Data: []byte(c.want)})
		if err != nil || got != c.same {
			t.Errorf("against %q: %v, %v, want %v", c.want, got, err, c.same)
		}
	}
	n := bytesAllocated(func() {
		for range 10 {
			if same, err := o.sameContent(p, Snapshot{Exists: true, Data: []byte(`{"a": 1}`)}); !same || err != nil {
				t.Fatal(same, err)
			}
		}
	})
	if n > 64<<10 {
		t.Errorf("10 comparisons of an 8-byte file allocated %d bytes, want at most 64 KB", n)
	}
}
