package main

import (
	"os"
	"runtime/debug"
)

// defaultGCPercent is the collector's goal for every command unless the user set
// GOGC: mcpwire runs for a fraction of a second and allocates a few tens of MB for a
// large registry, so it collects garbage less often than Go's default 100.
const defaultGCPercent = 400

// listGCPercent is the goal for the commands that only list what they loaded
// (server list and show, profile list and show, layers). Nearly all they allocate is
// the registry, live until they exit, so a collection finds little to free: at
// 10,000 servers the list's peak memory is the same at 400, 800, 1600 or with the
// collector off, and at 100,000 servers the same at 400, 800 and 1600, while each
// collection costs the list a tenth of its time (docs/performance.md, "server list").
// The commands that read client files (status, audit, import, inject) keep
// defaultGCPercent: their garbage is the files' parse, which a higher goal would
// add to their peak memory (K7).
const listGCPercent = 1600

// gcSetter returns how a process sets the collector's goal, or nil when the user
// chose it with GOGC (then mcpwire leaves it alone).
func gcSetter(getenv func(string) string) func(int) {
	if getenv("GOGC") != "" {
		return nil
	}
	return func(p int) { debug.SetGCPercent(p) }
}

// setProcessGC sets the default goal for this process (main).
func setProcessGC() {
	if set := gcSetter(os.Getenv); set != nil {
		set(defaultGCPercent)
	}
}

// listing is called first by a command that only lists what it loads: it raises the
// collector's goal to listGCPercent (nothing when GOGC was set, or in process, where
// Env.setGC is nil).
func (env *Env) listing() {
	if env.setGC != nil {
		env.setGC(listGCPercent)
	}
}
