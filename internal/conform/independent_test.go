package conform

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/internal/exhaustive"
)

// independentMutant is one wrong adapter written from the spec and the
// reference adapter without looking at the fixtures
// (conformance/wrong/independent.json): the reference with one line
// changed the way an SDK in another language plausibly gets it wrong. The
// wrong engines (conformance/wrong/independent-engine.json) are the same
// for the reference engine, engine.mjs, written from docs/engine.md
// without looking at the scenarios.
type independentMutant struct {
	Name string `json:"name"`
	// Area is the part of the spec it gets wrong: rtb1, transport,
	// preference, scenarios, or one of the hosts-… parts.
	Area string `json:"area"`
	Bug  string `json:"bug"`
	From string `json:"from"`
	To   string `json:"to"`
	// Equivalent, when set, proves in one line that the change cannot be
	// seen through the protocol's inputs; such a mutant must then pass
	// every case.
	Equivalent string `json:"equivalent,omitempty"`
	// SingleInput, when set, proves in one line that exactly one input of
	// the function tells the mutant apart from the reference; such a
	// mutant must then fail that case.
	SingleInput string `json:"singleInput,omitempty"`
	// Escape, when set, is the scenario (timeline and expected
	// difference) that would catch a mutant the cases catch fewer than
	// twice today: it is reported, not failed, until it is caught twice,
	// and then the mark must go.
	Escape string `json:"escape,omitempty"`
	// engine is set for a wrong engine: the change is to engine.mjs, not
	// to adapter.mjs.
	engine bool
}

// independentFiles are the files of wrong adapters: each with the reference
// file its changes apply to and whether that is the engine.
var independentFiles = []struct {
	mutants, reference string
	engine             bool
}{
	{"../../conformance/wrong/independent.json", "../../conformance/js/adapter.mjs", false},
	{"../../conformance/wrong/independent-engine.json", "../../conformance/js/engine.mjs", true},
	// A second set of wrong engines, written from docs/engine.md alone.
	{"../../conformance/wrong/independent-engine-2.json", "../../conformance/js/engine.mjs", true},
	// A third set, written from docs/engine.md alone in the areas the first
	// two reached least: the server's details outside the first CONNECTED,
	// token errors and activity on transports that are not active, renewals
	// owed across attempts, websocket-check's 5xx before CONNECTED, the rate
	// limit.
	{"../../conformance/wrong/independent-engine-3.json", "../../conformance/js/engine.mjs", true},
}

// pendingEscapes names every wrong adapter or engine marked as an escape in
// the files above: caught by fewer than two cases today, each waiting for
// the scenario its mark describes (the row or sentence it violates and the
// timeline that would catch it). The list and the marks must agree
// (TestIndependentMutantsFile); when two cases catch one,
// TestIndependentMutantsAreEachCaughtByTwoCases fails until its mark and
// its name here go.
var pendingEscapes = []string{
	// none: engine/testdata/scenarios/18-escapes.txt catches each of the
	// wrong engines of independent-engine-2.json that was one twice, and
	// 26-escapes-3.txt each of those of independent-engine-3.json.
}

// independentAreas are the areas the file must cover, each with at least
// minIndependentPerArea wrong adapters.
var independentAreas = []string{
	"rtb1", "transport",
	"hosts-resolve", "hosts-qualifying-failures", "hosts-connectivity", "hosts-order", "hosts-preferred-host",
	"preference", "scenarios",
}

const minIndependentPerArea = 25

// harnessArea is the conformance area whose cases judge a mutant's area.
func harnessArea(area string) string {
	if strings.HasPrefix(area, "hosts-") {
		return "hosts"
	}
	return area
}

// areaFunctions are the protocol functions whose cases judge a part of the
// hosts area; the other areas are judged by all their cases.
var areaFunctions = map[string]string{
	"hosts-resolve":             "resolveHosts",
	"hosts-qualifying-failures": "shouldFallback",
	"hosts-connectivity":        "connectivityUp",
	"hosts-order":               "hostOrder",
	"hosts-preferred-host":      "preferredHost",
}

// suiteFor keeps the cases that judge area: its harness area's, and of
// those only its function's for a part of the hosts area.
func suiteFor(s Suite, area string) Suite {
	out := Suite{Tolerance: s.Tolerance}
	for _, c := range s.Cases {
		if c.Area != harnessArea(area) {
			continue
		}
		if fn, ok := areaFunctions[area]; ok && c.Function != fn {
			continue
		}
		out.Cases = append(out.Cases, c)
	}
	return out
}

// independentSources are the reference files the wrong adapters edit.
type independentSources struct{ adapter, engine string }

// of is the reference file m edits.
func (s independentSources) of(m independentMutant) string {
	if m.engine {
		return s.engine
	}
	return s.adapter
}

func loadIndependent(t *testing.T) (independentSources, []independentMutant) {
	t.Helper()
	var src independentSources
	var ms []independentMutant
	for _, file := range independentFiles {
		ref, err := os.ReadFile(file.reference)
		if err != nil {
			t.Fatal(err)
		}
		if file.engine {
			src.engine = string(ref)
		} else {
			src.adapter = string(ref)
		}
		data, err := os.ReadFile(file.mutants)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		var f struct {
			Comment string              `json:"_comment"`
			Mutants []independentMutant `json:"mutants"`
		}
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("%s: %v", file.mutants, err)
		}
		for _, m := range f.Mutants {
			if file.engine != (m.Area == AreaScenarios) {
				t.Errorf("%s: area %q in %s: the scenarios area's wrong adapters, and only they, edit the engine", m.Name, m.Area, file.mutants)
			}
			m.engine = file.engine
			ms = append(ms, m)
		}
	}
	return src, ms
}

// TestIndependentMutantsFile checks the file's shape without running
// anything: every area covered, names unique, each change a one-line edit
// of the reference.
func TestIndependentMutantsFile(t *testing.T) {
	src, ms := loadIndependent(t)
	names := map[string]bool{}
	per := map[string]int{}
	for _, m := range ms {
		if names[m.Name] {
			t.Errorf("%s: listed twice", m.Name)
		}
		names[m.Name] = true
		if !slices.Contains(independentAreas, m.Area) {
			t.Errorf("%s: unknown area %q", m.Name, m.Area)
		}
		if m.Bug == "" {
			t.Errorf("%s: no bug description", m.Name)
		}
		if (m.Equivalent != "") && (m.SingleInput != "") || (m.Escape != "") && (m.Equivalent != "" || m.SingleInput != "") {
			t.Errorf("%s: more than one of equivalent, single-input and escape", m.Name)
		}
		per[m.Area]++
		ref := src.of(m)
		if n := strings.Count(ref, m.From); n != 1 {
			t.Errorf("%s: %q occurs %d times in the reference, want once", m.Name, m.From, n)
			continue
		}
		if !oneLineChange(ref, strings.Replace(ref, m.From, m.To, 1)) {
			t.Errorf("%s: not a one-line change", m.Name)
		}
	}
	for _, m := range ms {
		if (m.Escape != "") != slices.Contains(pendingEscapes, m.Name) {
			t.Errorf("%s: marked as an escape %v, in pendingEscapes %v: the mark and the list must agree", m.Name, m.Escape != "", slices.Contains(pendingEscapes, m.Name))
		}
	}
	for _, name := range pendingEscapes {
		if !names[name] {
			t.Errorf("pendingEscapes names %s, which no file lists", name)
		}
	}
	for _, a := range independentAreas {
		if per[a] < minIndependentPerArea {
			t.Errorf("area %s: %d wrong adapters, want at least %d", a, per[a], minIndependentPerArea)
		}
	}
}

// independentResult is what one mutant's run gave.
type independentResult struct {
	Name   string   `json:"name"`
	Area   string   `json:"area"`
	Failed int      `json:"failed"`
	Cases  []string `json:"cases"`
	Broken string   `json:"broken,omitempty"`
	equiv  string
	single string
	escape string
}

// TestIndependentMutantsAreEachCaughtByTwoCases runs every independent
// wrong adapter over the cases that judge its area: each must fail at
// least two cases, unless it is listed as equivalent (then it must fail
// none), as having a single telling input (then it must fail that one), or
// as an escape with the scenario that would catch it (then it is reported
// until two cases catch it). A wrong engine runs as engine.mjs next to an
// unmodified adapter.mjs.
// It runs hundreds of adapters (see runWrongAdapters), so -short skips it,
// and the default mode runs one in mutantSample of each area's, each to
// its verdict, and every marked one (sample_test.go). Set
// INDEPENDENT_REPORT to a file name to get every mutant's failing case ids
// as JSON, and INDEPENDENT_AREAS to a comma-separated list of areas to run
// only those.
func TestIndependentMutantsAreEachCaughtByTwoCases(t *testing.T) {
	t.Parallel()
	node := mutantRunner(t)
	src, ms := loadIndependent(t)
	if only := os.Getenv("INDEPENDENT_AREAS"); only != "" {
		ms = slices.DeleteFunc(ms, func(m independentMutant) bool { return !slices.Contains(strings.Split(only, ","), m.Area) })
	}
	s := suite(t)
	var ran []independentMutant
	var adapters []wrongAdapter
	inArea := map[string]int{} // the wrong adapters of each area met so far
	for _, m := range ms {
		i := inArea[m.Area]
		inArea[m.Area]++
		marked := m.Equivalent != "" || m.SingleInput != "" || m.Escape != ""
		if !marked && !exhaustive.Sampled(i, mutantSample) {
			continue // TestIndependentMutantsFile checks its text; run in the exhaustive mode
		}
		ref := src.of(m)
		if strings.Count(ref, m.From) != 1 {
			t.Errorf("%s: its text does not occur exactly once in the reference", m.Name)
			continue
		}
		changed := strings.Replace(ref, m.From, m.To, 1)
		files := map[string]string{"adapter.mjs": changed}
		if m.engine {
			// The adapter loads engine.mjs from its own directory: the
			// wrong engine goes next to an unmodified adapter.
			files = map[string]string{"adapter.mjs": src.adapter, "engine.mjs": changed}
		}
		ran = append(ran, m)
		adapters = append(adapters, wrongAdapter{name: m.Name, files: files, main: "adapter.mjs", suite: suiteFor(s, m.Area), maxFailures: verdictFailures()})
	}
	logSample(t, len(ran), len(ms))
	start := time.Now()
	results := make([]independentResult, len(ran))
	control := wrongAdapter{name: "reference", files: map[string]string{"adapter.mjs": src.adapter, "engine.mjs": src.engine}, main: "adapter.mjs", suite: s}
	for i, run := range runWrongAdapters(t, node, control, adapters) {
		m := ran[i]
		results[i] = independentResult{Name: m.Name, Area: m.Area, Failed: run.failed, Cases: run.cases, Broken: run.broken,
			equiv: m.Equivalent, single: m.SingleInput, escape: m.Escape}
	}
	t.Logf("%d wrong adapters in %v", len(ran), time.Since(start).Round(time.Millisecond))

	type tally struct{ written, equivalent, single, escapes, caught, caught2, least int }
	per := map[string]*tally{}
	for _, a := range independentAreas {
		per[a] = &tally{least: -1}
	}
	for _, r := range results {
		if r.Broken != "" {
			t.Errorf("%s: the run broke: %s", r.Name, r.Broken)
			continue
		}
		switch {
		case r.equiv != "" && r.Failed != 0:
			t.Errorf("%s is listed as equivalent (%s) but fails %d cases: %s", r.Name, r.equiv, r.Failed, firstCases(r.Cases))
		case r.single != "" && r.Failed < 1:
			t.Errorf("%s [%s] has a single telling input (%s) but no case catches it", r.Name, r.Area, r.single)
		case r.escape != "" && r.Failed >= 2:
			t.Errorf("%s [%s] is listed as an escape but %d cases catch it now: drop its escape mark", r.Name, r.Area, r.Failed)
		case r.escape != "":
			t.Logf("escape %s [%s]: caught by %d cases %s; would be caught by: %s", r.Name, r.Area, r.Failed, firstCases(r.Cases), r.escape)
		case r.equiv == "" && r.single == "" && r.Failed < 2:
			t.Errorf("%s [%s]: caught by %d cases %s, want at least 2", r.Name, r.Area, r.Failed, firstCases(r.Cases))
		}
		a := per[r.Area]
		if a == nil {
			continue
		}
		a.written++
		if r.equiv != "" {
			a.equivalent++
			continue
		}
		if r.single != "" {
			a.single++
		}
		if r.escape != "" {
			a.escapes++
		}
		if r.Failed > 0 {
			a.caught++
		}
		if r.Failed >= 2 {
			a.caught2++
		}
		if a.least < 0 || r.Failed < a.least {
			a.least = r.Failed
		}
	}
	label := "written"
	if len(ran) < len(ms) || verdictFailures() > 0 {
		label = "run" // the default mode's sample, each run to its verdict (sample_test.go)
	}
	for _, a := range independentAreas {
		x := per[a]
		t.Logf("%-26s %s %3d  equivalent %d  single-input %d  escapes %2d  caught %3d  caught by >=2 %3d  least %d",
			a, label, x.written, x.equivalent, x.single, x.escapes, x.caught, x.caught2, x.least)
	}
	if len(pendingEscapes) > 0 {
		t.Logf("%d pending escapes, each waiting for the scenario its mark describes: %s", len(pendingEscapes), strings.Join(pendingEscapes, ", "))
	}
	if out := os.Getenv("INDEPENDENT_REPORT"); out != "" {
		data, err := json.MarshalIndent(results, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func firstCases(ids []string) string {
	if len(ids) > 4 {
		return fmt.Sprintf("%v…", ids[:4])
	}
	return fmt.Sprint(ids)
}
