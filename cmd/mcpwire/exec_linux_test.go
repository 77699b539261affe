package main

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// spec: S2 — what mcpwire exec does before it becomes the server is bounded, whatever
// the registry holds: it opens the secret file once and no file of the configuration
// layers, the home directory or the working directory — no registry is loaded, no
// layer read, no project looked for (a missing lower layer, which every other command
// refuses, L13, is not even noticed). Counted by the kernel (inotify), not timed.
func TestExecOpensOnlyItsSecrets(t *testing.T) {
	root := t.TempDir()
	home, lower, layer, project, secrets := filepath.Join(root, "home"), filepath.Join(root, "org"), filepath.Join(root, "home", ".aiwg"), filepath.Join(root, "project"), filepath.Join(root, "secrets")
	for _, d := range []string{lower, layer, project, secrets} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{lower, layer} {
		os.WriteFile(filepath.Join(d, "mcp-servers.json"), []byte(`{"servers": {"a": {"command": "x"}}}`), 0o600)
	}
	os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(`{}`), 0o600)
	secret := filepath.Join(secrets, "token")
	os.WriteFile(secret, []byte("SENTINEL\n"), 0o600)

	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	watched := map[int32]string{}
	for _, d := range []string{home, lower, layer, project, secrets} {
		wd, err := unix.InotifyAddWatch(fd, d, unix.IN_OPEN|unix.IN_ACCESS)
		if err != nil {
			t.Fatal(err)
		}
		watched[int32(wd)] = d
	}
	run := func(layers string) {
		t.Helper()
		cmd := exec.Command("mcpwire", "exec", "--env-secret", "K=file:"+secret, "--", "true")
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "HOME="+home, "AIWG_CONFIG_LAYERS="+layers)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	run(lower + string(os.PathListSeparator) + layer)
	run(filepath.Join(root, "missing-lower") + string(os.PathListSeparator) + layer)
	opens := map[string]int{}
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(fd, buf)
		if n <= 0 || err != nil {
			break
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			wd := int32(binary.NativeEndian.Uint32(buf[off:]))
			mask := binary.NativeEndian.Uint32(buf[off+4:])
			l := int(binary.NativeEndian.Uint32(buf[off+12:]))
			name := string(trimNUL(buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+l]))
			if mask&unix.IN_OPEN != 0 {
				opens[filepath.Join(watched[wd], name)]++
			}
			off += unix.SizeofInotifyEvent + l
		}
	}
	if opens[secret] != 2 || len(opens) != 1 {
		t.Errorf("files opened: %v; want the secret file once a run and nothing else", opens)
	}
}

func trimNUL(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}
