package conform

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// activation is a step of outcome-1-websocket-within-short-circuit in the
// order docs/engine.md gives (block 8).
var activation = []string{
	"cancel connect T1",
	"activate T1",
	"cancel short-circuit",
	"cancel state-ttl",
	"state connecting connected connected",
}

// moved returns xs with the action at i moved to position j.
func moved(xs []string, i, j int) []string {
	out := slices.Clone(xs)
	a := out[i]
	out = slices.Delete(out, i, i+1)
	return slices.Insert(out, j, a)
}

// TestSameActionsComparesTheWholeOrder: the matching rule compares every
// action in order and no set of actions is unordered, so every reordering
// of a step fails, a swap of two cancels included.
func TestSameActionsComparesTheWholeOrder(t *testing.T) {
	if !SameActions(slices.Clone(activation), activation) {
		t.Fatal("a step does not match itself")
	}
	if !SameActions(nil, []string{}) || !SameActions([]string{}, nil) {
		t.Error("no action and an empty list differ")
	}
	for _, c := range []struct {
		name string
		got  []string
	}{
		{"activate after the CONNECTED state change", moved(activation, 1, 4)},
		{"the attempt timers cancelled after the state change", moved(activation, 2, 4)},
		{"two cancels swapped", moved(activation, 2, 3)},
		{"the connect timer cancelled after activate", moved(activation, 0, 1)},
		{"an action missing", activation[:4]},
		{"an action twice", append(slices.Clone(activation), "cancel short-circuit")},
	} {
		if SameActions(c.got, activation) {
			t.Errorf("%s: %q matches %q", c.name, c.got, activation)
		}
		if ActionsDiff(c.got, activation) == "" {
			t.Errorf("%s: no difference described", c.name)
		}
	}
}

// TestActionsDiffNamesWhatDiffers: the same actions in another order name
// the first position that differs and the rule's section; otherwise the
// missing and unexpected actions are listed, each as often as it differs.
func TestActionsDiffNamesWhatDiffers(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want []string
		says      []string
	}{
		{"in order", activation, activation, nil},
		{"activate moved after the state change", moved(activation, 1, 4), activation,
			[]string{"another order", `action 2 is "cancel short-circuit", want "activate T1"`, "The order of actions within one step"}},
		{"one missing", activation[1:], activation, []string{`missing ["cancel connect T1"]`}},
		{"one extra", append([]string{"dispose T1"}, activation...), activation, []string{`not expected ["dispose T1"]`}},
		{"one of two missing", []string{"dispose T2"}, []string{"dispose T2", "dispose T2"}, []string{`missing ["dispose T2"]`}},
		{"one replaced", []string{"a", "x"}, []string{"a", "b"}, []string{`missing ["b"]`, `not expected ["x"]`}},
	} {
		d := ActionsDiff(c.got, c.want)
		if (d == "") != (c.says == nil) {
			t.Errorf("%s: ActionsDiff = %q", c.name, d)
		}
		for _, s := range c.says {
			if !strings.Contains(d, s) {
				t.Errorf("%s: ActionsDiff = %q, want it to say %q", c.name, d, s)
			}
		}
	}
}

// TestActivateAfterConnectedIsCaught runs an implementation that moves
// activate after the CONNECTED state change (the order an SDK must not
// see) through the scenarios: it fails at least two of them, each failure
// saying the actions came in another order. The same wrong order written
// into the reference engine is a wrong engine of
// conformance/wrong/independent-engine.json.
func TestActivateAfterConnectedIsCaught(t *testing.T) {
	h := mutate(func(req Request, resp *Response) {
		if req.Function != "scenario" {
			return
		}
		for i, st := range resp.Result["steps"].([]StepResult) {
			a := slices.IndexFunc(st.Actions, func(s string) bool { return strings.HasPrefix(s, "activate ") })
			c := slices.IndexFunc(st.Actions, func(s string) bool { return strings.HasPrefix(s, "state ") && strings.Fields(s)[2] == "connected" })
			if a >= 0 && c > a {
				resp.Result["steps"].([]StepResult)[i].Actions = moved(st.Actions, a, c)
			}
		}
	})
	rep := RunHandler(context.Background(), suite(t), h, Options{Only: []string{AreaScenarios}})
	if rep.Broken != "" {
		t.Fatal(rep.Broken)
	}
	if rep.Failed < 2 {
		t.Fatalf("caught by %d scenarios, want at least 2", rep.Failed)
	}
	for _, f := range rep.Failures {
		found := false
		for _, m := range f.Mismatches {
			found = found || strings.Contains(m.Problem, "the same actions in another order")
		}
		if !found {
			t.Errorf("%s: the failure does not say the order differs: %+v", f.ID, f.Mismatches)
		}
	}
	t.Logf("caught by %d scenarios", rep.Failed)
}
