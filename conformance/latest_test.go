//go:build conformance && unix

package conformance

// The newest clients (spec: Q5): with MCPWIRE_CONFORMANCE_LATEST=1 the suite installs
// the newest published version of every client instead of the pinned one (npm view
// PKG version; server-everything and Bun, which are no clients, stay pinned), into a
// cache folder of its own keyed by the versions it found, and runs the same tests. A
// client whose newest version does not install or start fails its tests with the
// reason; the others run. Either way the suite ends with one line per client: the
// pinned version, the newest (with LATEST), and each scenario's verdict, so that a
// weekly run shows which client moved and what broke.

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"
)

// latestVar switches the suite to the newest published clients; summaryVar names a file
// the summary is written to as well (`go test` shows the test binary's stderr only with
// -v or on a failure).
const (
	latestVar  = "MCPWIRE_CONFORMANCE_LATEST"
	summaryVar = "MCPWIRE_CONFORMANCE_SUMMARY"
)

// writeSummary prints the summary on stderr, and into $MCPWIRE_CONFORMANCE_SUMMARY when
// set.
func writeSummary(c *clients) error {
	var b strings.Builder
	results.print(&b, c)
	fmt.Fprint(os.Stderr, b.String())
	if path := os.Getenv(summaryVar); path != "" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("%s: %w", summaryVar, err)
		}
	}
	return nil
}

// newestList resolves the newest published version of every client package (npm view)
// and returns the package.json of that list: the helpers keep their pinned versions,
// and the platform package pinned for linux-x64 (Factory's) becomes this platform's.
func newestList(npm string, deps, optional map[string]string) (pkg []byte, newDeps, newOptional map[string]string, err error) {
	scratch, err := os.MkdirTemp("", "conformance-npm-home-")
	if err != nil {
		return nil, nil, nil, err
	}
	defer os.RemoveAll(scratch)
	env := npmEnv(scratch)
	newest := func(name string) (string, error) {
		r := runProcess(scratch, env, 2*time.Minute, npm, "view", name, "version")
		v := strings.TrimSpace(r.stdout)
		if r.err != nil || r.exit != 0 || v == "" || strings.ContainsAny(v, " \n") {
			return "", fmt.Errorf("npm view %s version (%s):\n%s%s", name, r.status(), r.stdout, r.stderr)
		}
		return v, nil
	}
	newDeps, newOptional = map[string]string{}, map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(deps)) {
		if slices.Contains(helpers, name) {
			newDeps[name] = deps[name]
			continue
		}
		if newDeps[name], err = newest(name); err != nil {
			return nil, nil, nil, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(optional)) {
		name = strings.Replace(name, "-linux-x64", "-"+nodePlatform, 1)
		v, err := newest(name)
		if err != nil { // no such package for this platform: the client is missing
			continue
		}
		newOptional[name] = v
	}
	pkg, err = json.MarshalIndent(map[string]any{
		"name": "mcpwire-conformance-newest", "private": true,
		"dependencies": newDeps, "optionalDependencies": newOptional,
	}, "", "  ")
	return pkg, newDeps, newOptional, err
}

// installNewest installs the newest list into dir: all at once, and when that fails
// (a client's newest release can pin a dependency that is not published), the helpers
// first and then one client at a time, so that one client that does not install is
// missing (with npm's error) and the others are there. Then the rebuild of install.
func installNewest(npm, dir string, pkg []byte, deps, optional map[string]string, missing map[string]string) error {
	scratch, err := os.MkdirTemp("", "conformance-npm-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	env := npmEnv(scratch)
	p := newProgress()
	defer p.close()
	start := time.Now()
	if err := os.WriteFile(dir+"/package.json", pkg, 0o644); err != nil {
		return err
	}
	if npmStep(p, dir, env, npm, fmt.Sprintf("npm install (%d newest packages)", len(deps)+len(optional)), npmInstall) != nil {
		base := map[string]string{}
		for _, h := range helpers {
			base[h] = deps[h]
		}
		b, err := json.MarshalIndent(map[string]any{"name": "mcpwire-conformance-newest", "private": true, "dependencies": base}, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(dir+"/package.json", b, 0o644); err != nil {
			return err
		}
		if err := npmStep(p, dir, env, npm, "npm install (helpers)", npmInstall); err != nil {
			return err
		}
		all := map[string]string{}
		maps.Copy(all, deps)
		maps.Copy(all, optional)
		for _, name := range slices.Sorted(maps.Keys(all)) {
			if slices.Contains(helpers, name) {
				continue
			}
			args := append(slices.Clone(npmInstall), "--save-exact", name+"@"+all[name])
			if err := npmStep(p, dir, env, npm, "npm install "+name+"@"+all[name], args); err != nil {
				missing[name] = "npm install " + name + "@" + all[name] + " failed: " + npmErrors(err.Error())
			}
		}
	}
	var present []string
	for _, name := range rebuilt {
		if _, err := os.Stat(dir + "/node_modules/" + name + "/package.json"); err == nil {
			present = append(present, name)
		}
	}
	if len(present) > 0 {
		if err := npmStep(p, dir, env, npm, "npm rebuild "+strings.Join(present, " "), append(slices.Clone(npmRebuild), present...)); err != nil {
			return err
		}
	}
	p.printf("conformance: installed the newest clients in %s\n", time.Since(start).Round(time.Second))
	return nil
}

// npmErrors keeps the "npm error" lines of npm's output (at most four), for a summary.
func npmErrors(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "npm error") && !strings.Contains(l, "A complete log") && len(keep) < 4 {
			keep = append(keep, strings.TrimSpace(strings.TrimPrefix(l, "npm error")))
		}
	}
	if len(keep) == 0 {
		return strings.TrimSpace(out)
	}
	return strings.Join(keep, "; ")
}

// verdicts are the scenarios' verdicts: provider → scenario label → failed.
type verdicts struct {
	sync.Mutex
	m map[string]map[string]bool
}

// results are the verdicts of this run (newScenario records each scenario when it ends).
var results = &verdicts{}

// record keeps one scenario's verdict; a label seen twice fails if either failed.
func (v *verdicts) record(provider, label string, failed bool) {
	v.Lock()
	defer v.Unlock()
	if v.m == nil {
		v.m = map[string]map[string]bool{}
	}
	if v.m[provider] == nil {
		v.m[provider] = map[string]bool{}
	}
	v.m[provider][label] = v.m[provider][label] || failed
}

// scenarioLabel is how the summary names a scenario: its variant ("user", "project",
// "negative", …), prefixed with the client's name when it is not the provider's own
// client (TestSharedMCPJSON's "shared", TestMeaningLoaders' "claude-meaning").
func scenarioLabel(provider, client, variant string) string {
	for _, b := range clientBins {
		if b.provider == provider && b.client == client {
			return variant
		}
	}
	return client + "-" + variant
}

// print writes one line per client: pinned version, newest version (with
// LATEST), and the verdict of each of its scenarios in alphabetical order ("not run"
// when -run left it out, the reason when it is not installed).
func (v *verdicts) print(w io.Writer, c *clients) {
	v.Lock()
	defer v.Unlock()
	mode := "pinned clients"
	if c.latest {
		mode = "newest clients (" + latestVar + "=1)"
	}
	fmt.Fprintf(w, "conformance: summary, %s:\n", mode)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "client\tpinned\tnewest\tresult")
	for _, b := range clientBins {
		pinned := c.pinned[b.pkg]
		if b.provider == "factory" {
			pinned = c.pinned["@factory/cli-linux-x64"]
		}
		newest := "-"
		if c.latest && c.versions[b.pkg] != "" {
			newest = c.versions[b.pkg]
		}
		var each []string
		for _, label := range slices.Sorted(maps.Keys(v.m[b.provider])) {
			verdict := "pass"
			if v.m[b.provider][label] {
				verdict = "FAIL"
			}
			each = append(each, label+" "+verdict)
		}
		line := strings.Join(each, ", ")
		if why, gone := c.missing[b.pkg]; gone {
			line = "not installed: " + firstLine(why)
		} else if line == "" {
			line = "not run"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.provider, pinned, newest, line)
	}
	tw.Flush()
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return first
}

// TestSummaryLines is a self-test of the summary, which runs no client: one line per
// client with its pinned version, the newest with LATEST, the verdict of each scenario
// (a failure in any scenario of a label fails it), "not run" for a client no test ran,
// and the reason for one that is not installed.
//
// spec: Q5
func TestSummaryLines(t *testing.T) {
	var v verdicts
	v.record("codex", "user", false)
	v.record("codex", "relocated", false)
	v.record("codex", "user", true)
	v.record("kilo", "project", false)
	c := &clients{latest: true,
		pinned:   map[string]string{"@openai/codex": "0.169.0", "@kilocode/cli": "7.7.7", "@oh-my-pi/pi-coding-agent": "18.2.3"},
		versions: map[string]string{"@openai/codex": "0.170.1", "@kilocode/cli": "7.8.1", "@oh-my-pi/pi-coding-agent": "18.3.4"},
		missing:  map[string]string{"@oh-my-pi/pi-coding-agent": "npm install failed: 404 @oh-my-pi/omp-stats@18.3.4\nmore"}}
	var b strings.Builder
	v.print(&b, c)
	out := b.String()
	for _, want := range []string{
		"conformance: summary, newest clients (MCPWIRE_CONFORMANCE_LATEST=1):\n",
		"codex         0.169.0  0.170.1  relocated pass, user FAIL\n",
		"kilo          7.7.7    7.8.1    project pass\n",
		"omp           18.2.3   18.3.4   not installed: npm install failed: 404 @oh-my-pi/omp-stats@18.3.4\n",
		"claude-code            -        not run\n",
		"continue-cli           -        not run\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	if got := strings.Count(out, "\n"); got != len(clientBins)+2 {
		t.Errorf("the summary has %d lines, want %d (a header, a title, one per client):\n%s", got, len(clientBins)+2, out)
	}
}
