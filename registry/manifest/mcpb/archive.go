// Package mcpb reads MCP bundles (.mcpb, formerly .dxt: a ZIP archive with a
// manifest.json at its root, modelcontextprotocol/mcpb MANIFEST.md) and checks them
// before anything is unpacked (SPEC M3): every path stays inside the bundle, no link
// points out of it, the sizes, the number of entries and the compression ratio stay
// under limits, the manifest is valid, and a signature, when there is one, matches
// the archive. It reads bytes and writes nothing; registry/manifest unpacks.
package mcpb

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"
)

// Limits bound what a bundle may hold (M3): a bundle over any of them is refused
// before anything is unpacked.
type Limits struct {
	// ArchiveBytes bounds the .mcpb file itself.
	ArchiveBytes int64
	// Entries bounds the number of entries (files, directories and links).
	Entries int
	// TotalBytes bounds the sum of the entries' unpacked sizes; EntryBytes one entry's.
	TotalBytes, EntryBytes uint64
	// Ratio bounds the unpacked size over the packed size, of the whole archive and
	// of each entry larger than RatioFloor (a zip bomb unpacks a small archive into
	// a very large one).
	Ratio      uint64
	RatioFloor uint64
}

// DefaultLimits are the limits of server add --from: larger than any bundle seen
// published (github-mcp-server's, 31.4 MB for six platforms), far below a disk's.
var DefaultLimits = Limits{
	ArchiveBytes: 256 << 20,
	Entries:      50_000,
	TotalBytes:   1 << 30,
	EntryBytes:   512 << 20,
	Ratio:        100,
	RatioFloor:   1 << 20,
}

// Kind is what an entry of the archive is.
type Kind int

// Entry kinds.
const (
	File Kind = iota
	Dir
	Link
)

// Entry is one checked entry of the archive.
type Entry struct {
	// Name is the entry's path inside the bundle: slash-separated, clean, relative,
	// never "..", never empty.
	Name string
	Kind Kind
	// Exec reports an executable file (a mode bit of the archive).
	Exec bool
	// Target is a link's target, relative and inside the bundle (Link only).
	Target string
	// Size is the unpacked size.
	Size uint64

	f *zip.File
}

// Open returns the entry's content (File only), which fails when it is larger than
// its declared size or does not match its checksum.
func (e Entry) Open() (io.ReadCloser, error) { return e.f.Open() }

// ReadAll returns the entry's content.
func (e Entry) ReadAll() ([]byte, error) {
	r, err := e.f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	defer r.Close()
	b := make([]byte, 0, e.Size)
	buf := bytes.NewBuffer(b)
	if _, err := io.Copy(buf, io.LimitReader(r, int64(e.Size)+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	if uint64(buf.Len()) != e.Size {
		return nil, fmt.Errorf("%s: holds more than its declared size", e.Name)
	}
	return buf.Bytes(), nil
}

// Archive is a bundle whose entries passed every check.
type Archive struct {
	// Entries in name order.
	Entries []Entry
	// Manifest is the bundle's manifest.json, decoded and checked.
	Manifest *Manifest
	// Signed is the signature block at the end of the file, when there is one; Content
	// is the file without it (what the signature covers).
	Signed  *SignatureBlock
	Content []byte
}

// Error is a refusal of a bundle: what is wrong, naming the entry when one is.
type Error struct {
	Entry string
	Msg   string
}

func (e *Error) Error() string {
	if e.Entry == "" {
		return e.Msg
	}
	return fmt.Sprintf("entry %q: %s", e.Entry, e.Msg)
}

func refuse(entry, format string, args ...any) error {
	return &Error{Entry: entry, Msg: fmt.Sprintf(format, args...)}
}

// ManifestName is the manifest's path at the root of a bundle.
const ManifestName = "manifest.json"

// Open checks a bundle (the bytes of the .mcpb file) against lim and returns its
// entries and manifest. Nothing is unpacked: the sizes are the archive's declared
// ones, and Entry.Open refuses content that exceeds them.
func Open(data []byte, lim Limits) (*Archive, error) {
	if int64(len(data)) > lim.ArchiveBytes {
		return nil, refuse("", "the bundle is %d bytes, over the limit of %d", len(data), lim.ArchiveBytes)
	}
	content, sig, err := SplitSignature(data)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(content), int64(len(content)))
	if errors.Is(err, zip.ErrInsecurePath) {
		err = nil // checkEntry names the entry
	}
	if err != nil {
		return nil, refuse("", "not a ZIP archive: %v", err)
	}
	if len(zr.File) > lim.Entries {
		return nil, refuse("", "the bundle holds %d entries, over the limit of %d", len(zr.File), lim.Entries)
	}
	a := &Archive{Signed: sig, Content: content}
	seen := map[string]Kind{}     // clean name → kind
	folded := map[string]string{} // lower-case name → name (case-insensitive filesystems)
	var total uint64
	for _, f := range zr.File {
		e, err := checkEntry(f, lim)
		if err != nil {
			return nil, err
		}
		if e.Name == "" {
			continue // "./" or the root itself
		}
		if prev, ok := folded[strings.ToLower(e.Name)]; ok {
			if prev == e.Name && e.Kind == Dir && seen[prev] == Dir {
				continue // a directory listed twice
			}
			return nil, refuse(e.Name, "the bundle holds it twice (or as %q, the same name on a case-insensitive filesystem)", prev)
		}
		folded[strings.ToLower(e.Name)] = e.Name
		seen[e.Name] = e.Kind
		total += e.Size
		if total > lim.TotalBytes {
			return nil, refuse("", "the bundle unpacks to more than %d bytes, the limit", lim.TotalBytes)
		}
		a.Entries = append(a.Entries, e)
	}
	if packed := uint64(len(content)); total > lim.RatioFloor && total/max(packed, 1) > lim.Ratio {
		return nil, refuse("", "the bundle unpacks to %d bytes from %d: more than %d times its size (a zip bomb?)", total, packed, lim.Ratio)
	}
	sort.Slice(a.Entries, func(i, j int) bool { return a.Entries[i].Name < a.Entries[j].Name })
	if err := checkTree(a.Entries, seen); err != nil {
		return nil, err
	}
	m, err := a.readManifest()
	if err != nil {
		return nil, err
	}
	a.Manifest = m
	return a, nil
}

// checkEntry checks one entry's name, kind and sizes.
func checkEntry(f *zip.File, lim Limits) (Entry, error) {
	raw := f.Name
	name, err := cleanName(raw)
	if err != nil {
		return Entry{}, refuse(printable(raw), "%v", err)
	}
	e := Entry{Name: name, Size: f.UncompressedSize64, f: f}
	if f.Flags&0x1 != 0 {
		return e, refuse(name, "encrypted entries are not supported")
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return e, refuse(name, "compression method %d is not supported (store and deflate are)", f.Method)
	}
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		e.Kind = Link
	case mode.IsDir() || strings.HasSuffix(raw, "/"):
		e.Kind = Dir
		if e.Size != 0 {
			return e, refuse(name, "a directory entry with content")
		}
	case mode&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice|fs.ModeIrregular) != 0:
		return e, refuse(name, "not a regular file, a directory or a link")
	default:
		e.Kind = File
		e.Exec = mode&0o111 != 0
	}
	if e.Size > lim.EntryBytes {
		return e, refuse(name, "%d bytes unpacked, over the limit of %d for one entry", e.Size, lim.EntryBytes)
	}
	if e.Size > lim.RatioFloor && e.Size/max(f.CompressedSize64, 1) > lim.Ratio {
		return e, refuse(name, "unpacks to more than %d times its packed size (a zip bomb?)", lim.Ratio)
	}
	if e.Kind == Link {
		if e.Size > 4096 {
			return e, refuse(name, "a link whose target is longer than 4096 bytes")
		}
		t, err := e.ReadAll()
		if err != nil {
			return e, refuse(name, "cannot read the link's target: %v", err)
		}
		target, err := linkTarget(name, string(t))
		if err != nil {
			return e, refuse(name, "%v", err)
		}
		e.Target = target
	}
	return e, nil
}

// cleanName checks an entry's name and returns it clean: relative, slash-separated,
// no "." or ".." component, no backslash, no drive letter, valid UTF-8 without
// control characters. "" stands for the root itself ("./").
func cleanName(raw string) (string, error) {
	switch {
	case raw == "":
		return "", errors.New("an empty name")
	case !utf8.ValidString(raw):
		return "", errors.New("a name that is not valid UTF-8")
	case strings.ContainsAny(raw, "\\"):
		return "", errors.New("a backslash in its name (a Windows path separator)")
	case strings.HasPrefix(raw, "/"):
		return "", errors.New("an absolute path")
	case len(raw) >= 2 && raw[1] == ':':
		return "", errors.New("a drive letter in its name")
	}
	for _, r := range raw {
		if r < 0x20 || r == 0x7f {
			return "", errors.New("a control character in its name")
		}
	}
	parts := strings.Split(strings.TrimSuffix(raw, "/"), "/")
	out := parts[:0]
	for _, p := range parts {
		switch p {
		case "", ".":
			continue
		case "..":
			return "", errors.New("a path that leaves the bundle (..)")
		}
		out = append(out, p)
	}
	return strings.Join(out, "/"), nil
}

// linkTarget checks a link's target: relative, and inside the bundle once resolved
// against the link's directory. It returns the target as written.
func linkTarget(name, target string) (string, error) {
	if target == "" || strings.ContainsAny(target, "\\\x00") || strings.HasPrefix(target, "/") || (len(target) >= 2 && target[1] == ':') {
		return "", errors.New("a link that points out of the bundle")
	}
	resolved := path.Join(path.Dir(name), target)
	if resolved == "." || resolved == ".." || strings.HasPrefix(resolved, "../") {
		return "", errors.New("a link that points out of the bundle")
	}
	return target, nil
}

// checkTree refuses an entry below a file or a link (writing it would go through the
// link, or replace the file), and a link whose target is not an entry.
func checkTree(entries []Entry, kinds map[string]Kind) error {
	for _, e := range entries {
		for dir := path.Dir(e.Name); dir != "."; dir = path.Dir(dir) {
			switch k, ok := kinds[dir]; {
			case !ok:
			case k == Link:
				return refuse(e.Name, "below the link %q: unpacking it would write through the link", dir)
			case k == File:
				return refuse(e.Name, "below the file %q", dir)
			}
		}
		if e.Kind == Link {
			if _, ok := kinds[path.Join(path.Dir(e.Name), e.Target)]; !ok {
				return refuse(e.Name, "a link to %q, which the bundle does not hold", e.Target)
			}
		}
	}
	return nil
}

// readManifest finds, reads and checks manifest.json.
func (a *Archive) readManifest() (*Manifest, error) {
	for _, e := range a.Entries {
		if e.Name != ManifestName {
			continue
		}
		if e.Kind != File {
			return nil, refuse(ManifestName, "not a file")
		}
		if e.Size > 4<<20 {
			return nil, refuse(ManifestName, "larger than 4 MiB")
		}
		b, err := e.ReadAll()
		if err != nil {
			return nil, refuse(ManifestName, "%v", err)
		}
		m, err := ParseManifest(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ManifestName, err)
		}
		return m, nil
	}
	return nil, refuse("", "no %s at the root of the bundle", ManifestName)
}

// Entry returns the entry of a name.
func (a *Archive) Entry(name string) (Entry, bool) {
	i := sort.Search(len(a.Entries), func(i int) bool { return a.Entries[i].Name >= name })
	if i < len(a.Entries) && a.Entries[i].Name == name {
		return a.Entries[i], true
	}
	return Entry{}, false
}

// printable shows a name that failed a check without its control characters.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}
