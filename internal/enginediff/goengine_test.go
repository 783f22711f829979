package enginediff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunGoAnswersTheScenarios replays every scenario of
// fixtures/scenarios.json through RunGo: its configuration must decode
// into Config (every knob the scenarios use), it must take exactly the
// pinned draws, and each step's actions must be the expected ones (by the
// file's matching rule: state changes in order, the rest as a multiset).
// This is what lets a disagreement's timeline become a scenario as it
// stands.
func TestRunGoAnswersTheScenarios(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "fixtures", "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Items []struct {
			ID     string    `json:"id"`
			Config Config    `json:"config"`
			Draws  []float64 `json:"draws"`
			Steps  []struct {
				AtMs   int64    `json:"atMs"`
				Event  string   `json:"event"`
				Expect []string `json:"expect"`
			} `json:"steps"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Items) < 100 {
		t.Fatalf("%d scenarios", len(file.Items))
	}
	for _, it := range file.Items {
		tl := Timeline{ID: it.ID, Config: it.Config, Draws: it.Draws}
		for _, st := range it.Steps {
			tl.Steps = append(tl.Steps, Step{AtMs: st.AtMs, Event: st.Event})
		}
		steps, drawn, err := RunGo(tl)
		if err != nil {
			t.Errorf("%s: %v", it.ID, err)
			continue
		}
		if drawn != len(it.Draws) {
			t.Errorf("%s: %d draws taken, %d pinned", it.ID, drawn, len(it.Draws))
		}
		for i, st := range it.Steps {
			if !sameStep(steps[i], st.Expect) {
				t.Errorf("%s step %d (%s):\n got %q\nwant %q", it.ID, i, st.Event, steps[i], st.Expect)
			}
		}
	}
}

// sameStep is the fixture's matching rule.
func sameStep(got, want []string) bool {
	states := func(xs []string) []string {
		var s []string
		for _, x := range xs {
			if strings.HasPrefix(x, "state ") {
				s = append(s, x)
			}
		}
		return s
	}
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w) && slices.Equal(states(got), states(want))
}

// TestConfigJSON: the knobs round-trip, fallbackHosts keeps the
// difference between absent and empty, and an unknown knob is an error.
func TestConfigJSON(t *testing.T) {
	for _, in := range []string{`{}`, `{"fallbackHosts":[]}`, `{"policy":"http-first","fallbackHosts":["a.example.com"],"webSocket":false}`} {
		var c Config
		if err := json.Unmarshal([]byte(in), &c); err != nil {
			t.Fatal(err)
		}
		if out := string(c.text()); out != in {
			t.Errorf("%s came back as %s", in, out)
		}
	}
	var c Config
	if err := json.Unmarshal([]byte(`{"slowTimeoutMs":1}`), &c); err == nil {
		t.Error("an unknown knob was accepted")
	}
}
