package layers

import (
	"strings"
	"testing"
)

// spec: L1 — --config-dir=~/x names a directory under the home directory, as
// AIWG_CONFIG=~/x does: the shell does not expand the ~ after "=", and a literal "~"
// directory must not appear in the working directory.
func TestResolveConfigDirExpandsHome(t *testing.T) {
	for _, explicit := range []string{"~/x", "~"} {
		cfg, err := Resolve(env(nil), explicit, osPath(t, "/h"), "")
		if err != nil {
			t.Fatal(err)
		}
		want := osPath(t, "/h"+strings.TrimPrefix(explicit, "~"))
		if len(cfg.Dirs) != 1 || cfg.Dirs[0] != want || cfg.Layered {
			t.Errorf("--config-dir %s: %+v, want [%s]", explicit, cfg, want)
		}
	}
	if _, err := Resolve(env(nil), "~/x", "", ""); err == nil || !strings.Contains(err.Error(), "home directory") {
		t.Errorf("--config-dir ~/x without a home: err = %v, want a home directory error", err)
	}
	// only a leading ~/ is special
	cfg, err := Resolve(env(nil), "/a/~b", osPath(t, "/h"), "")
	if err != nil || cfg.Dirs[0] != osPath(t, "/a/~b") {
		t.Errorf("/a/~b: %+v %v", cfg, err)
	}
}
