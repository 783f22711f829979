package engine_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/reconnect-go/reconnect/internal/conform"
)

// TestFixtureScenariosAgainstEngine replays every scenario of
// fixtures/scenarios.json through a real Engine and checks each step's
// actions (by the fixture's matching rule: every action in order), state
// and retry count.
func TestFixtureScenariosAgainstEngine(t *testing.T) {
	data, err := os.ReadFile("../fixtures/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	for _, raw := range f.Items {
		var in conform.ScenarioInput
		var exp struct {
			ID    string `json:"id"`
			Steps []struct {
				Event            string   `json:"event"`
				Expect           []string `json:"expect"`
				ExpectState      string   `json:"expectState"`
				ExpectRetryCount *int     `json:"expectRetryCount"`
			} `json:"steps"`
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &exp); err != nil {
			t.Fatal(err)
		}
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
