package main

import (
	"bufio"
	"io"
	"slices"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

type layersView struct {
	Layered    bool                 `json:"layered"`
	Layers     []registry.LayerInfo `json:"layers"`
	WriteLayer string               `json:"writeLayer"`
	Floor      *floorView           `json:"floor"`
	Servers    []originView         `json:"servers"`
	Profiles   []originView         `json:"profiles"`
}

type originView struct {
	Name      string   `json:"name"`
	File      string   `json:"file"`
	Overrides []string `json:"overrides,omitempty"`
}

func layersCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:   "layers",
		Usage:  "show the configuration layers, the write layer, the policy floor and which file supplies each entry",
		Flags:  []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error { return runLayers(env, c) },
	}
}

// runLayers prints the layers, the floor and the origin of every entry (L2, P2).
func runLayers(env *Env, c *cli.Context) error {
	env.listing()
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	v := newLayersView(reg)
	if c.Bool("json") {
		return writeJSON(env.Stdout, v)
	}
	bw := bufio.NewWriter(env.Stdout)
	if err := printLayers(bw, v); err != nil {
		return err
	}
	return bw.Flush()
}

// newLayersView is the registry's layers, floor, and the file each server and profile
// comes from, with the files whose same-named entries it overrides (L3).
func newLayersView(reg *registry.Registry) layersView {
	infos := reg.Layers()
	// empty lists are [] in --json, never null
	v := layersView{Layered: reg.Set().Layered, Layers: infos, WriteLayer: reg.Set().Write().Dir,
		Servers: []originView{}, Profiles: []originView{}}
	if f := reg.Floor(); f.Set {
		v.Floor = &floorView{Policy: f.Level.String(), File: f.File}
	}
	serverFiles, profileFiles := map[string][]string{}, map[string][]string{}
	for _, l := range infos {
		for _, n := range l.Servers {
			serverFiles[n] = append(serverFiles[n], l.ServersFile)
		}
		for _, n := range l.Profiles {
			profileFiles[n] = append(profileFiles[n], l.ProfilesFile)
		}
	}
	shadowed := func(files []string, winner string) []string {
		return slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == winner })
	}
	for _, n := range reg.ServerNames() {
		o := reg.ServerOrigin(n)
		v.Servers = append(v.Servers, originView{Name: n, File: o, Overrides: shadowed(serverFiles[n], o)})
	}
	for _, n := range reg.ProfileNames() {
		o := reg.ProfileOrigin(n)
		v.Profiles = append(v.Profiles, originView{Name: n, File: o, Overrides: shadowed(profileFiles[n], o)})
	}
	return v
}

// printLayers writes the view as text.
func printLayers(bw io.Writer, v layersView) error {
	printf(bw, "layers (lowest precedence first):\n")
	for i, l := range v.Layers {
		mark := ""
		if l.Write {
			mark = "  (write layer)"
		}
		if l.Given != "" {
			mark += "  (given as " + termtext.Quote(l.Given) + ")"
		}
		printf(bw, "  %d. %s%s\n", i+1, termtext.Quote(l.Dir), mark)
		if l.Relative {
			printf(bw, "     %s is relative: resolved against the working directory, so from another directory it names another layer\n", termtext.Quote(l.Given))
		}
	}
	if v.Floor != nil {
		printf(bw, "credential policy floor: %s (set in %s)\n", v.Floor.Policy, termtext.Quote(v.Floor.File))
	} else {
		// not "none": that is the name of the strictest policy (P1)
		printf(bw, "credential policy floor: (no floor)\n")
	}
	for _, group := range []struct {
		title string
		items []originView
	}{{"servers", v.Servers}, {"profiles", v.Profiles}} {
		printf(bw, "%s:\n", group.title)
		if len(group.items) == 0 {
			printf(bw, "  (none)\n")
			continue
		}
		rows := make([][]string, len(group.items))
		for i, o := range group.items {
			extra := ""
			if len(o.Overrides) > 0 {
				extra = "  (overrides " + termtext.Join(o.Overrides, ", ") + ")"
			}
			rows[i] = []string{termtext.Quote(o.Name), termtext.Quote(o.File) + extra}
		}
		if err := table(bw, "  ", rows); err != nil {
			return err
		}
	}
	return nil
}
