package format

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// spec: C6
// TestDigestMemo: Digest gives what DigestOnce computes, holds the digests of entries
// of up to 4 KiB (an injection into 36 clients digests 200 different entries 1,440
// times), and stays within its bound however many entries a process digests.
func TestDigestMemo(t *testing.T) {
	digests.mu.Lock()
	digests.m = nil
	digests.mu.Unlock()
	small := []byte(`{"command": "srv", "args": ["--n", "1"], "env": {"B": "2", "A": "1"}}`)
	big := []byte(`{"command": "` + strings.Repeat("x", maxMemoInput) + `"}`)
	for _, in := range [][]byte{small, big, []byte(`not json`), nil} {
		if got, want := Digest(in), DigestOnce(in); got != want {
			t.Errorf("Digest(%.40q) = %s, DigestOnce %s", in, got, want)
		}
		if got, want := Digest(in), DigestOnce(in); got != want {
			t.Errorf("Digest(%.40q) again = %s, want %s", in, got, want)
		}
	}
	if _, ok := digests.get(small); !ok {
		t.Error("a small entry's digest is not held")
	}
	if _, ok := digests.get(big); ok {
		t.Error("an entry over 4 KiB is held")
	}
	for i := range maxMemoDigests + 100 {
		in := []byte(fmt.Sprintf(`{"n": %d}`, i))
		if got, want := Digest(in), DigestOnce(in); got != want {
			t.Fatalf("Digest(%s) = %s, want %s", in, got, want)
		}
	}
	if n := len(digests.m); n > maxMemoDigests {
		t.Errorf("the memo holds %d digests, bound %d", n, maxMemoDigests)
	}
}

// TestDigestMemoConcurrent: two cores digest the same entries at once (the edits an
// injection computes ahead, render/write's precompute); run with -race.
func TestDigestMemoConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				in := []byte(fmt.Sprintf(`{"server": %d, "g": %d}`, i%50, g%2))
				if Digest(in) != DigestOnce(in) {
					t.Errorf("Digest(%s) differs", in)
					return
				}
			}
		})
	}
	wg.Wait()
}
