package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/registry/manifest/mcpb/mcpbtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdMkmcpb builds a bundle (spec: M3): "mkmcpb [-sign [-tamper]] OUT ENTRY...", each
// ENTRY NAME=FILE (a file holding FILE's content, relative to the work directory;
// NAME+x makes it executable), NAME->TARGET (a link) or NAME/ (a directory). NAME is
// written as given, ../ included. -sign appends a self-signed signature block;
// -tamper then changes a byte of the archive. It sets $SHA256 to the bundle's digest
// and $SHA12 to its first 12 digits (the name of its directory).
func cmdMkmcpb(ts *testscript.TestScript, neg bool, args []string) {
	sign, tamper := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-sign":
			sign = true
		case "-tamper":
			tamper = true
		default:
			ts.Fatalf("mkmcpb: unknown option %s", args[0])
		}
		args = args[1:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkmcpb [-sign [-tamper]] OUT ENTRY...")
	}
	var entries []mcpbtest.Entry
	for _, a := range args[1:] {
		switch {
		case strings.HasSuffix(a, "/"):
			entries = append(entries, mcpbtest.Entry{Name: a, Mode: fs.ModeDir | 0o755})
		case strings.Contains(a, "->"):
			name, target, _ := strings.Cut(a, "->")
			entries = append(entries, mcpbtest.Entry{Name: name, Data: target, Mode: fs.ModeSymlink | 0o777})
		default:
			name, file, ok := strings.Cut(a, "=")
			if !ok {
				ts.Fatalf("mkmcpb: %q is no NAME=FILE, NAME->TARGET or NAME/", a)
			}
			e := mcpbtest.Entry{Name: name, Data: ts.ReadFile(file), Store: strings.HasSuffix(name, ".txt")}
			if n, ok := strings.CutSuffix(name, "+x"); ok {
				e.Name, e.Mode = n, 0o755
			}
			entries = append(entries, e)
		}
	}
	data := mcpbtest.Build(entries...)
	if sign {
		data = mcpbtest.Sign(data, mcpbtest.NewSigner("mcpwire script", nil, false))
	}
	if tamper {
		i := strings.Index(string(data), "console")
		if i < 0 {
			ts.Fatalf("mkmcpb -tamper: no \"console\" in the archive (store an entry holding it uncompressed: NAME=FILE with NAME ending in .txt)")
		}
		data[i] = 'C'
	}
	sum := sha256.Sum256(data)
	ts.Setenv("SHA256", hex.EncodeToString(sum[:]))
	ts.Setenv("SHA12", hex.EncodeToString(sum[:])[:12])
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}
