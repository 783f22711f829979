package conform

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
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
// decision is pinned by a single case.
func TestWrongAdaptersAreEachCaughtByTwoCases(t *testing.T) {
	node := mutantRunner(t)
	src, mutants := loadMutants(t)
	if len(mutants) < 25 {
		t.Fatalf("%d wrong adapters, want at least 25", len(mutants))
	}
	s := suite(t)
	dir := t.TempDir()
	type result struct {
		m      mutant
		failed int
		broken string
	}
	results := make([]result, len(mutants))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
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
		only := sectionAreas(src, m.From)
		path := filepath.Join(dir, m.Name+".mjs")
		if err := os.WriteFile(path, []byte(mutated), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rep, err := RunCommand(context.Background(), s, []string{node, path}, Options{Only: only, Timeout: 60 * time.Second})
			if err != nil {
				results[i] = result{m: m, broken: err.Error()}
				return
			}
			results[i] = result{m: m, failed: rep.Failed, broken: rep.Broken}
		}()
	}
	wg.Wait()
	for _, r := range results {
		if r.m.Name == "" {
			continue
		}
		t.Logf("%-28s caught by %4d cases  (%s)", r.m.Name, r.failed, r.m.Decision)
		if r.broken != "" {
			t.Errorf("%s: the run broke: %s", r.m.Name, r.broken)
		}
		if r.failed < 2 {
			t.Errorf("%s (%s): caught by %d cases, want at least 2", r.m.Name, r.m.Decision, r.failed)
		}
	}
}

// sectionAreas names the areas whose cases can see a change of the
// reference adapter at from: the area of the "// ---- " section holding
// it, with hosts for the RTB1 section (hostOrder clamps its draws with
// clampU); every area for the protocol section, which serves them all.
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
	}
	return nil
}

// mutantRunner returns the path of node for a test that runs wrong
// adapters, or skips it: under -short (one process per adapter) and under
// the race detector (it checks the fixtures' power, not concurrency; the
// harness it drives runs under the race detector in the other tests). A
// missing node skips it too, except in CI, where it fails: a run of no
// wrong adapter proves nothing.
func mutantRunner(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts one adapter process per wrong adapter; runs without -short")
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
