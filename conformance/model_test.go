//go:build conformance && unix

package conformance

// A loopback model: Continue CLI and Cline list no MCP servers, but a prompt makes them
// start their servers and offer the servers' tools to the model. This stands in for an
// OpenAI-compatible provider (/<scenario>/v1/chat/completions, streamed or not, and
// /<scenario>/v1/models), answers every prompt "hello", and keeps the tool names each
// request offered, per scenario. Nothing leaves the machine.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// modelServer is the loopback model.
type modelServer struct {
	base string // http://127.0.0.1:PORT
	mu   sync.Mutex
	seen map[string][][]string // scenario → the tool names of each chat request
}

var model *modelServer

// modelName is the model the clients are configured with.
const modelName = "conformance-model"

// modelURL is the OpenAI-compatible base URL of this scenario's model (…/v1).
func (s *scenario) modelURL() string { return model.base + "/" + s.name + "/v1" }

// requests are the tool names of each chat request of one scenario.
func (m *modelServer) requests(scenario string) [][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seen[scenario])
}

func (m *modelServer) forget(scenario string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.seen, scenario)
}

func startModelServer() (stop func(), err error) {
	model = &modelServer{seen: map[string][][]string{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(model.serve), ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(ln)
	model.base = "http://" + ln.Addr().String()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		srv.Close()
	}, nil
}

func (m *modelServer) serve(w http.ResponseWriter, r *http.Request) {
	scenario, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	switch {
	case r.Method == http.MethodGet && rest == "v1/models":
		writeJSONResponse(w, map[string]any{"object": "list",
			"data": []any{map[string]any{"id": modelName, "object": "model", "owned_by": "conformance"}}})
	case r.Method == http.MethodPost && rest == "v1/chat/completions":
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Stream bool `json:"stream"`
			Tools  []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		tools := []string{}
		for _, t := range req.Tools {
			tools = append(tools, t.Function.Name)
		}
		m.mu.Lock()
		m.seen[scenario] = append(m.seen[scenario], tools)
		m.mu.Unlock()
		answer(w, req.Stream)
	default:
		http.NotFound(w, r)
	}
}

// answer replies "hello" and stops, as an OpenAI-compatible chat completion (a stream of
// chunks when the client asked for one).
func answer(w http.ResponseWriter, stream bool) {
	created := time.Now().Unix()
	usage := map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
	if !stream {
		writeJSONResponse(w, map[string]any{"id": "conformance", "object": "chat.completion", "created": created, "model": modelName,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": "hello"}, "finish_reason": "stop"}},
			"usage":   usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	chunk := func(delta map[string]any, finish any, extra map[string]any) {
		c := map[string]any{"id": "conformance", "object": "chat.completion.chunk", "created": created, "model": modelName,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		for k, v := range extra {
			c[k] = v
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"role": "assistant", "content": "hello"}, nil, nil)
	chunk(map[string]any{}, "stop", map[string]any{"usage": usage})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func writeJSONResponse(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
