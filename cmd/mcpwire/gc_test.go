package main

import (
	"slices"
	"strings"
	"testing"
)

// TestListingRaisesGC: the commands that only list what they load raise the
// collector's goal before loading (issue 31, server list under 50 ms); the others,
// which parse client files or write, keep the process's default (K7's memory).
func TestListingRaisesGC(t *testing.T) {
	vars := map[string]string{}
	env, _, stderr := testEnv(t, vars)
	for _, setup := range [][]string{
		{"server", "add", "s", "--command", "x"},
		{"profile", "add", "p", "--servers", "s"},
	} {
		if code := Main(setup, env); code != 0 {
			t.Fatalf("%v: exit %d: %s", setup, code, stderr)
		}
	}
	for _, tc := range []struct {
		args []string
		want []int
	}{
		{[]string{"server", "list"}, []int{listGCPercent}},
		{[]string{"server", "list", "--json"}, []int{listGCPercent}},
		{[]string{"server", "show", "s"}, []int{listGCPercent}},
		{[]string{"profile", "list"}, []int{listGCPercent}},
		{[]string{"profile", "show", "p"}, []int{listGCPercent}},
		{[]string{"layers"}, []int{listGCPercent}},
		{[]string{"status"}, nil},
		{[]string{"audit"}, nil},
		{[]string{"inject", "--profile", "p", "--provider", "claude-code", "--scope", "user", "--dry-run"}, nil},
		{[]string{"server", "add", "t", "--command", "y"}, nil},
	} {
		t.Run(strings.Join(tc.args, "_"), func(t *testing.T) {
			var got []int
			env.setGC = func(p int) { got = append(got, p) }
			stderr.Reset()
			if code := Main(tc.args, env); code != 0 {
				t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%v set the collector's goal to %v, want %v (stderr %q)", tc.args, got, tc.want, stderr)
			}
		})
	}
}

// TestGCSetterLeavesGOGC: a GOGC the user set is theirs; without one mcpwire sets its
// own goal.
func TestGCSetterLeavesGOGC(t *testing.T) {
	if gcSetter(func(string) string { return "200" }) != nil {
		t.Error("GOGC=200: mcpwire would set the collector's goal anyway")
	}
	if gcSetter(func(string) string { return "" }) == nil {
		t.Error("no GOGC: mcpwire would leave Go's default goal")
	}
}
