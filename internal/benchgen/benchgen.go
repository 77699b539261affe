// Package benchgen writes large layered registries for benchmarks (SPEC Q4): many
// servers spread over many layers, and profiles with long extends chains whose bases
// live in lower layers.
package benchgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Spec sizes a generated registry.
type Spec struct {
	Layers   int // number of layer directories
	Servers  int // distinct server names
	Profiles int // distinct profile names
	Depth    int // length of each extends chain
}

// Full is the size named by the issue: 10,000 servers and 1,000 profiles with extends
// chains 50 deep across 16 layers.
var Full = Spec{Layers: 16, Servers: 10000, Profiles: 1000, Depth: 50}

// Scale returns the spec with servers and profiles multiplied by f (layers and
// chain depth unchanged).
func (s Spec) Scale(f float64) Spec {
	s.Servers = int(float64(s.Servers) * f)
	s.Profiles = int(float64(s.Profiles) * f)
	return s
}

// ServerName and ProfileName are the generated names.
func ServerName(i int) string  { return fmt.Sprintf("srv-%05d", i) }
func ProfileName(i int) string { return fmt.Sprintf("prof-%05d", i) }

// Write creates the layer directories under root and returns them, lowest
// precedence first. Server i lives in layer i%Layers; every tenth server is also
// defined (differently) one layer higher, so replacement is exercised. Profile i is
// link i%Depth of chain i/Depth: it extends the previous link and lives in a layer
// at or above its base's, so bases come from lower layers.
func Write(root string, s Spec) ([]string, error) {
	dirs := make([]string, s.Layers)
	servers := make([]map[string]any, s.Layers)
	profiles := make([]map[string]any, s.Layers)
	for i := range dirs {
		dirs[i] = filepath.Join(root, fmt.Sprintf("layer-%02d", i))
		servers[i] = map[string]any{}
		profiles[i] = map[string]any{}
	}
	for i := 0; i < s.Servers; i++ {
		l := i % s.Layers
		servers[l][ServerName(i)] = server(i, l)
		if i%10 == 0 && l+1 < s.Layers {
			servers[l+1][ServerName(i)] = server(i, l+1)
		}
	}
	for i := 0; i < s.Profiles; i++ {
		pos := i % s.Depth
		l := pos * s.Layers / s.Depth
		p := map[string]any{
			"name":        ProfileName(i),
			"description": "generated",
			"servers":     []string{ServerName((i * 7) % s.Servers), ServerName((i*7 + 1) % s.Servers), ServerName((i*7 + 2) % s.Servers)},
			"providerOverrides": map[string]any{
				"*":     map[string]any{"toolDeny": []string{ServerName(i%s.Servers) + "__delete_*"}},
				"codex": map[string]any{"toolAllow": []string{ServerName(i%s.Servers) + "__read"}},
			},
		}
		if pos > 0 {
			p["extends"] = []string{ProfileName(i - 1)}
		}
		profiles[l][ProfileName(i)] = p
	}
	for i, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
		if err := writeJSON(filepath.Join(d, "mcp-servers.json"), map[string]any{
			"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": servers[i],
		}); err != nil {
			return nil, err
		}
		if err := writeJSON(filepath.Join(d, "mcp-profiles.json"), map[string]any{
			"apiVersion": "aiwg.io/v1", "kind": "McpProfileRegistry", "profiles": profiles[i],
		}); err != nil {
			return nil, err
		}
	}
	return dirs, nil
}

func server(i, layer int) map[string]any {
	if i%2 == 0 {
		return map[string]any{
			"name": ServerName(i), "type": "stdio", "command": "npx",
			"args":        []string{"-y", fmt.Sprintf("@example/server-%d", i), "--layer", fmt.Sprint(layer)},
			"env":         map[string]string{"LOG_LEVEL": "info"},
			"envFrom":     map[string]string{"API_TOKEN": "EXAMPLE_TOKEN"},
			"description": "generated stdio server",
			"addedAt":     "2026-01-01T00:00:00Z",
		}
	}
	return map[string]any{
		"name": ServerName(i), "type": "http", "url": fmt.Sprintf("https://mcp%d.example.com/mcp", i),
		"headerEnv":   map[string]string{"Authorization": "EXAMPLE_AUTH"},
		"description": "generated http server",
		"addedAt":     "2026-01-01T00:00:00Z",
	}
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o600)
}
