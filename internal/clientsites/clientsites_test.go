package clientsites

import (
	"testing"
)

// TestCount prints every branch on a client outside the providers package.
func TestCount(t *testing.T) {
	sites, err := Count("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]int{}
	for _, s := range sites {
		files[s.File]++
		t.Log(s)
	}
	t.Logf("%d sites in %d files", len(sites), len(files))
	for f, n := range files {
		t.Logf("%4d %s", n, f)
	}
}
