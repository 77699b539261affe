package bigbuf

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseMarksHugePages reads the kernel's own account of the process's memory
// (/proc/self/smaps): the mapping holding a large buffer carries the "hg" flag
// (huge pages advised).
func TestAdviseMarksHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("this kernel has no transparent huge pages: madvise refuses the advice, and Make is plain make")
	}
	big := Make(0, 3*threshold)
	flags, err := vmFlags(uintptr(unsafe.Pointer(unsafe.SliceData(big))))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("mapping of a %d-byte buffer has VmFlags %q, want hg", cap(big), flags)
	}
}

// vmFlags returns the VmFlags line of the mapping that holds addr.
func vmFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	in := false
	for s.Scan() {
		line := s.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	return "", fmt.Errorf("no mapping holds %#x", addr)
}
