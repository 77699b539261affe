package bigbuf

import "testing"

// TestMake checks that Make is make: the length and capacity asked for, zeroed.
func TestMake(t *testing.T) {
	for _, c := range []struct{ n, c int }{{0, 0}, {0, 10}, {5, 10}, {0, threshold}, {threshold, threshold + 1}} {
		b := Make(c.n, c.c)
		if len(b) != c.n || cap(b) != c.c {
			t.Errorf("Make(%d, %d): len %d cap %d", c.n, c.c, len(b), cap(b))
		}
		for i, x := range b[:cap(b)] {
			if x != 0 {
				t.Fatalf("Make(%d, %d)[%d] = %d, want zeroed", c.n, c.c, i, x)
			}
		}
	}
}
