package layers

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// Layer is one configuration directory and its two registry files.
type Layer struct {
	// Dir is the layer's absolute directory.
	Dir string
	// Given is the directory as the user wrote it ("" for the default ~/.aiwg).
	Given string
	// Servers and Profiles are the layer's files (empty when missing).
	Servers, Profiles *File
	// Policy is the layer's server policy file, mcp-policy.json (G1).
	Policy *PolicyFile
}

// File returns the layer's file of a kind.
func (l *Layer) File(k Kind) *File {
	if k == Profiles {
		return l.Profiles
	}
	return l.Servers
}

// Set is every layer, lowest precedence first.
type Set struct {
	// Layers are the loaded layers; the last is the write layer.
	Layers []*Layer
	// Layered is true when the layers came from AIWG_CONFIG_LAYERS.
	Layered bool
	// Source is where the directories came from (Config.Source).
	Source string
	fs     fsys.FS
}

// Load reads both registry files of every layer. Errors are collected: one error
// names every bad file (L12).
func Load(f fsys.FS, cfg Config) (*Set, error) {
	s, err := LoadAll(f, cfg)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// LoadAll is Load that returns the set even when some files are bad (each bad file
// is an empty file in it, with its problem in File.Err), so that a caller can add
// the problems it finds in the good files to one report (L12). The error is a
// *LoadError naming every bad file, in layer order. A directory holding another
// system's list separator that does not exist (H2), then a lower layer whose
// directory is missing or unreadable (L13), fails first, with no set and nothing read.
//
// The files are read and parsed in parallel.
func LoadAll(f fsys.FS, cfg Config) (*Set, error) {
	if err := checkSeparators(f, cfg); err != nil {
		return nil, err
	}
	if err := checkLower(f, cfg); err != nil {
		return nil, err
	}
	s := &Set{Layered: cfg.Layered, Source: cfg.Source, fs: f, Layers: make([]*Layer, len(cfg.Dirs))}
	files := make([]*File, 2*len(cfg.Dirs))
	policies := make([]*PolicyFile, len(cfg.Dirs))
	Parallel(len(files), func(i int) {
		dir, kind := cfg.Dirs[i/2], Kind(i%2)
		if kind == Servers {
			policies[i/2] = readPolicy(f, dir)
		}
		file, err := readFile(f, dir, kind)
		if err != nil {
			file = newFile(filepath.Join(dir, kind.FileName()), kind)
			file.Err = err
		}
		files[i] = file
	})
	var problems []string
	for i, dir := range cfg.Dirs {
		s.Layers[i] = &Layer{Dir: dir, Servers: files[2*i], Profiles: files[2*i+1], Policy: policies[i]}
		if i < len(cfg.Given) {
			s.Layers[i].Given = cfg.Given[i]
		}
		for _, file := range files[2*i : 2*i+2] {
			if file.Err != nil {
				problems = append(problems, file.Err.Error())
			}
		}
		if policies[i].Err != nil {
			problems = append(problems, policies[i].Err.Error())
		}
	}
	if len(problems) > 0 {
		return s, &LoadError{Problems: problems}
	}
	return s, nil
}

// Parallel calls fn(0) … fn(n-1) on up to GOMAXPROCS goroutines and waits for them.
func Parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var faults bigbuf.Faults // a large layer file is mapped (internal/bigbuf)
	for range workers {
		wg.Go(func() {
			faults.Guard(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= n {
						return
					}
					fn(i)
				}
			})
		})
	}
	wg.Wait()
	faults.Raise()
}

// LoadError lists every bad layer file.
type LoadError struct {
	Problems []string
}

func (e *LoadError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0]
	}
	return fmt.Sprintf("%d configuration problems:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// Write returns the write layer (the last one).
func (s *Set) Write() *Layer { return s.Layers[len(s.Layers)-1] }

// Lower returns every layer below the write layer.
func (s *Set) Lower() []*Layer { return s.Layers[:len(s.Layers)-1] }

// errNoLayers is returned when a Set has no layer at all.
var errNoLayers = errors.New("no configuration directory")
