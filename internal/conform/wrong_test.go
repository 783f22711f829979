package conform

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/internal/exhaustive"
)

// mutant is one deliberately wrong adapter: the JS reference with one line
// changed (conformance/wrong/mutants.json).
type mutant struct {
	Name     string `json:"name"`
	Decision string `json:"decision"`
	From     string `json:"from"`
	To       string `json:"to"`
}

func loadMutants(t *testing.T) (string, []mutant) {
	t.Helper()
	src, err := os.ReadFile("../../conformance/js/adapter.mjs")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../conformance/wrong/mutants.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Mutants []mutant `json:"mutants"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return string(src), f.Mutants
}

// oneLineChange reports whether b is a with exactly one line changed or
// removed.
func oneLineChange(a, b string) bool {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	switch len(x) - len(y) {
	case 0:
		diff := 0
		for i := range x {
			if x[i] != y[i] {
				diff++
			}
		}
		return diff == 1
	case 1:
		for i := range x {
			if slices.Equal(slices.Concat(x[:i], x[i+1:]), y) {
				return true
			}
		}
	}
	return false
}

// TestWrongAdaptersAreEachCaughtByTwoCases runs every wrong adapter under
// the harness: each must fail at least two cases, so that no documented
// decision is pinned by a single case. The default mode runs one in
// mutantSample of them, each to its verdict (sample_test.go); every one
// is checked to be a one-line change of the reference.
func TestWrongAdaptersAreEachCaughtByTwoCases(t *testing.T) {
	t.Parallel()
	node := mutantRunner(t)
	src, mutants := loadMutants(t)
	if len(mutants) < 25 {
		t.Fatalf("%d wrong adapters, want at least 25", len(mutants))
	}
	s := suite(t)
	var ran []mutant
	var adapters []wrongAdapter
	for i, m := range mutants {
		if n := strings.Count(src, m.From); n != 1 {
			t.Errorf("%s: %q occurs %d times in the reference adapter, want once", m.Name, m.From, n)
			continue
		}
		mutated := strings.Replace(src, m.From, m.To, 1)
		if !oneLineChange(src, mutated) {
			t.Errorf("%s: not a one-line change", m.Name)
			continue
		}
		if !exhaustive.Sampled(i, mutantSample) {
			continue // checked above; run in the exhaustive mode
		}
		ran = append(ran, m)
		adapters = append(adapters, wrongAdapter{name: m.Name, files: map[string]string{"adapter.mjs": mutated}, main: "adapter.mjs",
			suite: s, only: sectionAreas(src, m.From), maxFailures: verdictFailures()})
	}
	logSample(t, len(ran), len(mutants))
	control := wrongAdapter{name: "reference", files: map[string]string{"adapter.mjs": src}, main: "adapter.mjs", suite: s}
	for i, r := range runWrongAdapters(t, node, control, adapters) {
		m := ran[i]
		t.Logf("%-28s caught by %s cases  (%s)", m.Name, r.count(), m.Decision)
		if r.broken != "" {
			t.Errorf("%s: the run broke: %s", m.Name, r.broken)
		}
		if r.failed < 2 {
			t.Errorf("%s (%s): caught by %d cases, want at least 2", m.Name, m.Decision, r.failed)
		}
	}
}

// wrongAdapter is one wrong adapter for runWrongAdapters: the files of its
// directory (name to content), the one node runs, and the cases that judge
// it (suite, and only those of the areas only when only is not nil).
type wrongAdapter struct {
	name  string
	files map[string]string
	main  string
	suite Suite
	only  []string
	// maxFailures, if above 0, stops the run at that many failed cases
	// (Options.MaxFailures): see verdictFailures.
	maxFailures int
}

// wrongRun is what the harness said of one wrong adapter.
type wrongRun struct {
	failed  int
	ran     int      // the cases answered, passed or failed
	cases   []string // the ids of the cases it failed
	broken  string   // why the run broke, if it did
	stopped bool     // the run stopped at its maxFailures: failed is a lower bound
}

// count is how many cases failed, as a log line says it: "≥2" for a run
// stopped at its verdict.
func (r wrongRun) count() string {
	if r.stopped {
		return fmt.Sprintf("≥%3d", r.failed)
	}
	return fmt.Sprintf("%4d", r.failed)
}

// wrongHosts is how many adapter hosts run wrong adapters at once: each
// mostly computes, with a moment of waiting between runs.
const wrongHosts = 4

// wrongWindow is how many requests the harness writes ahead of the answers
// to a wrong adapter (see Options.window).
const wrongWindow = 256

// verdictWindow is the window of a run that stops at its verdict
// (wrongAdapter.maxFailures): small, since the adapter answers every
// request written ahead of the stop.
const verdictWindow = 16

// runWrongAdapters writes every wrong adapter into a directory of its own,
// named after it (so an adapter finds only the files it lists beside it),
// then runs each under the harness, in a worker of one of wrongHosts
// Node.js adapter hosts (see adapterHost), with the requests written ahead
// of the answers. Run i is adapter i's. A run that answers no case is an
// error: it would prove nothing. The control, the unchanged reference,
// runs the same way first and must pass every case it answers: a case that
// fails a wrong adapter then fails it for its change.
func runWrongAdapters(t *testing.T, node string, control wrongAdapter, adapters []wrongAdapter) []wrongRun {
	t.Helper()
	for _, a := range adapters {
		if a.name == control.name {
			t.Fatalf("a wrong adapter is named %q, the control's name", a.name)
		}
	}
	if len(adapters) == 0 {
		t.Fatal("no wrong adapter to run: a run of none proves nothing")
	}
	adapters = append([]wrongAdapter{control}, adapters...)
	dir := t.TempDir()
	mains := make([]string, len(adapters))
	for i, a := range adapters {
		sub := filepath.Join(dir, a.name)
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, content := range a.files {
			if err := os.WriteFile(filepath.Join(sub, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mains[i] = filepath.Join(sub, a.main)
	}
	runs := make([]wrongRun, len(adapters))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(wrongHosts, len(adapters)) {
		host := startAdapterHost(t, node)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				a := adapters[i]
				window := wrongWindow
				if a.maxFailures > 0 {
					// A run that stops at its verdict: what is written
					// ahead of the answers after it is answered for
					// nothing.
					window = verdictWindow
				}
				rep, err := host.run(context.Background(), a.suite, mains[i], Options{Only: a.only, Timeout: 60 * time.Second, window: window, MaxFailures: a.maxFailures})
				if err != nil {
					runs[i] = wrongRun{broken: err.Error()}
					continue
				}
				r := wrongRun{failed: rep.Failed, ran: rep.Passed + rep.Failed, broken: rep.Broken, stopped: rep.Stopped != ""}
				if r.ran == 0 && r.broken == "" {
					r.broken = "no case ran"
				}
				for _, f := range rep.Failures {
					r.cases = append(r.cases, f.ID)
				}
				runs[i] = r
			}
		}()
	}
	for i := range adapters {
		next <- i
	}
	close(next)
	wg.Wait()
	if c := runs[0]; c.broken != "" || c.failed != 0 {
		t.Fatalf("the control, the unchanged reference, failed %d cases %s; broken: %q", c.failed, firstCases(c.cases), c.broken)
	}
	t.Logf("the control, the unchanged reference, passed its %d cases", runs[0].ran)
	return runs[1:]
}

// sectionAreas names the areas whose cases can see a change of the
// reference adapter at from: the area of the "// ---- " section holding
// it, with hosts for the RTB1 section (hostOrder clamps its draws with
// clampU), retry for the retry families' section; every area for the protocol section, which serves them all.
func sectionAreas(src, from string) []string {
	i := strings.Index(src, from)
	if i < 0 {
		return nil
	}
	section := src[:i]
	section = section[strings.LastIndex(section, "\n// ---- ")+1:]
	switch {
	case strings.HasPrefix(section, "// ---- RTB1"):
		return []string{AreaRTB1, AreaHosts}
	case strings.HasPrefix(section, "// ---- Transport fallback"):
		return []string{AreaTransport}
	case strings.HasPrefix(section, "// ---- Host fallback"):
		return []string{AreaHosts}
	case strings.HasPrefix(section, "// ---- Transport preference"):
		return []string{AreaPreference}
	case strings.HasPrefix(section, "// ---- Retry families"):
		return []string{AreaRetry}
	}
	return nil
}

// mutantRunner returns the path of node for a test that runs wrong
// adapters, or skips it: under -short (hundreds of adapter runs) and under
// the race detector (it checks the fixtures' power, not concurrency; the
// harness it drives runs under the race detector in the other tests). A
// missing node skips it too, except in CI, where it fails: a run of no
// wrong adapter proves nothing.
func mutantRunner(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs hundreds of wrong adapters under Node.js; runs without -short")
	}
	if raceDetector {
		t.Skip("checks the fixtures; skipped under the race detector to keep CI short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no node: %v", err)
		}
		t.Skip("no node")
	}
	return node
}
