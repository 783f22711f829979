package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/reconnect-go/reconnect/internal/conform"
	"github.com/reconnect-go/reconnect/internal/fixturetest"
)

// TestFixtureScenariosAgainstEngine replays every scenario of
// fixtures/scenarios.json through a real Engine and checks each step's
// actions (by the fixture's matching rule: every action in order), state
// and retry count.
func TestFixtureScenariosAgainstEngine(t *testing.T) {
	type expected struct {
		ID    string `json:"id"`
		Steps []struct {
			Event            string   `json:"event"`
			Expect           []string `json:"expect"`
			ExpectState      string   `json:"expectState"`
			ExpectRetryCount *int     `json:"expectRetryCount"`
		} `json:"steps"`
	}
	for _, sc := range loadFixtureScenarios[expected](t) {
		in, exp := sc.in, sc.item
		t.Run(exp.ID, func(t *testing.T) {
			got, err := conform.RunScenario(in)
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range exp.Steps {
				g := got[i]
				if d := conform.ActionsDiff(g.Actions, st.Expect); d != "" {
					t.Fatalf("step %d (%s): %s\n got: %q\nwant: %q", i, st.Event, d, g.Actions, st.Expect)
				}
				if st.ExpectState != "" && g.State != st.ExpectState {
					t.Fatalf("step %d: state %s, want %s", i, g.State, st.ExpectState)
				}
				if st.ExpectRetryCount != nil && g.RetryCount != *st.ExpectRetryCount {
					t.Fatalf("step %d: retry count %d, want %d", i, g.RetryCount, *st.ExpectRetryCount)
				}
			}
		})
	}
}

// fixtureScenario is an item of fixtures/scenarios.json read twice: as
// the input the protocol sends, and as T, the fields of it a test reads
// besides.
type fixtureScenario[T any] struct {
	in   conform.ScenarioInput
	item T
}

// loadFixtureScenarios reads every item of fixtures/scenarios.json, in the
// file's order; a file or item that does not parse fails t.
func loadFixtureScenarios[T any](t *testing.T) []fixtureScenario[T] {
	t.Helper()
	items := fixturetest.Items(t, "../fixtures/scenarios.json")
	out := make([]fixtureScenario[T], len(items))
	for i, raw := range items {
		if err := json.Unmarshal(raw, &out[i].in); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &out[i].item); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
