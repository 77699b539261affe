package format

import "sync"

// digestMemo holds the digests of the entries a process has digested (Digest). An
// injection into every client digests each server's entry, as written and as the
// file holds it, once for each client: 1,440 digests of 200 different entries for a
// 20-server profile in 36 clients (issue 31), since mcpwire writes a server alike for
// every client of a dialect. It is bounded (maxMemoDigests entries of at most
// maxMemoInput bytes; an entry past the bound is digested every time) and safe for
// concurrent use: an injection computes its edits on two cores.
type digestMemo struct {
	mu sync.Mutex
	m  map[string]string
}

// maxMemoDigests and maxMemoInput bound the memo: 4,096 entries of up to 4 KiB.
const (
	maxMemoDigests = 4096
	maxMemoInput   = 4 << 10
)

var digests digestMemo

// get returns the digest of in, when it is held.
func (m *digestMemo) get(in []byte) (string, bool) {
	if len(in) > maxMemoInput {
		return "", false
	}
	m.mu.Lock()
	d, ok := m.m[string(in)]
	m.mu.Unlock()
	return d, ok
}

// put holds the digest d of in, while the memo has room.
func (m *digestMemo) put(in []byte, d string) {
	if len(in) > maxMemoInput {
		return
	}
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]string{}
	}
	if len(m.m) < maxMemoDigests {
		m.m[string(in)] = d
	}
	m.mu.Unlock()
}
