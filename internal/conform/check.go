package conform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Mismatch is one way an answer differs from the expectation: a result
// key (empty for the answer as a whole) with both values as JSON.
type Mismatch struct {
	Key      string          `json:"key,omitempty"`
	Expected json.RawMessage `json:"expected,omitempty"`
	Actual   json.RawMessage `json:"actual,omitempty"`
	Problem  string          `json:"problem"`
}

func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil { // a NaN or an infinity
		if f, ok := v.(float64); ok {
			b, _ = json.Marshal(wireNumber(f))
		}
	}
	return b
}

// actualOf is the answer as the report shows it.
func actualOf(resp Response) json.RawMessage {
	if resp.Error != nil {
		return rawJSON(map[string]any{"error": resp.Error})
	}
	return rawJSON(resp.Result)
}

func rawActual(line []byte) json.RawMessage {
	var v any
	if json.Unmarshal(line, &v) != nil {
		return nil
	}
	return rawJSON(v)
}

// withExactNs returns c with its exact-nanosecond results added to the
// expected ones: all of them when the adapter declared exactNs, else those
// the adapter answered (what it answers is checked).
func withExactNs(c Case, exactNs bool, result map[string]any) Case {
	if len(c.ExactNs) == 0 {
		return c
	}
	want := clone(c.Expected)
	for k, v := range c.ExactNs {
		if _, answered := result[k]; exactNs || answered {
			want[k] = v
		}
	}
	c.Expected = want
	return c
}

// resultKeys lists the result keys a case has: its expected results and
// its exact-nanosecond ones.
func resultKeys(c Case) []string {
	keys := make([]string, 0, len(c.Expected)+len(c.ExactNs))
	for k := range c.Expected {
		keys = append(keys, k)
	}
	for k := range c.ExactNs {
		if _, dup := c.Expected[k]; !dup {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// check compares an answer with the expectation (c after withExactNs) and
// returns every mismatch, in key order: a result key missing, a value that
// differs, and a result key the case does not have.
func check(c Case, resp Response, tol Tolerance) []Mismatch {
	want, wantErr := c.Expected["error"].(map[string]any)
	if resp.Error != nil {
		if !wantErr {
			return []Mismatch{{Key: "error", Actual: rawJSON(resp.Error), Problem: "the adapter answered with an error; no error was expected"}}
		}
		if wf, _ := want["field"].(string); wf != resp.Error.Field {
			if resp.Error.Field == "" {
				return []Mismatch{{Key: "error.field", Expected: rawJSON(wf), Actual: rawJSON(resp.Error), Problem: "the error names no field"}}
			}
			return []Mismatch{{Key: "error.field", Expected: rawJSON(wf), Actual: rawJSON(resp.Error.Field), Problem: "the error names another field"}}
		}
		return nil
	}
	if wantErr {
		return []Mismatch{{Key: "error", Expected: rawJSON(want), Actual: rawJSON(resp.Result), Problem: "expected an error"}}
	}
	keys := make([]string, 0, len(c.Expected)+len(resp.Result))
	for k := range c.Expected {
		keys = append(keys, k)
	}
	own := resultKeys(c)
	for k := range resp.Result {
		if _, ok := c.Expected[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []Mismatch
	for _, k := range keys {
		got, answered := resp.Result[k]
		want, expected := c.Expected[k]
		switch {
		case !expected && !slices.Contains(own, k):
			out = append(out, Mismatch{Key: k, Actual: rawJSON(got), Problem: fmt.Sprintf("not a result of %s (its results: %s)", c.Function, strings.Join(own, ", "))})
		case !expected:
			// An exact-nanosecond result neither declared nor answered.
		case !answered:
			out = append(out, Mismatch{Key: k, Expected: rawJSON(want), Problem: "missing from the result"})
		default:
			if p := compare(k, want, got, tol); p != "" {
				out = append(out, Mismatch{Key: k, Expected: rawJSON(want), Actual: rawJSON(got), Problem: p})
			}
		}
	}
	return out
}

func compare(key string, want, got any, tol Tolerance) string {
	switch w := want.(type) {
	case float64:
		g, err := number(got)
		if err != nil {
			return "want a number"
		}
		limit := 0.0
		switch {
		case strings.HasSuffix(key, "Ms") && key != "rule":
			limit = math.Max(tol.AbsoluteMs, tol.Relative*math.Abs(w))
		case key == "coefficient" || key == "jitter":
			limit = tol.Relative * math.Abs(w)
		}
		if !(math.Abs(g-w) <= limit) {
			return fmt.Sprintf("difference %s, tolerance %g", string(rawJSON(g-w)), limit)
		}
	case string:
		if strings.HasSuffix(key, "Ns") {
			g, ok := got.(string)
			switch {
			case !ok:
				return "want a decimal string of whole nanoseconds"
			case g != w:
				return "differs (exact nanoseconds, compared as strings)"
			}
			return ""
		}
		if !jsonEqual(want, got) {
			return "differs"
		}
	case []any:
		if key == "steps" {
			return compareSteps(w, got)
		}
		if !jsonEqual(w, got) {
			return "differs"
		}
	default:
		if !jsonEqual(want, got) {
			return "differs"
		}
	}
	return ""
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// compareSteps applies the scenario matching rule: per step, every action
// in order (SameActions); a step that differs is named with how it differs
// (ActionsDiff).
func compareSteps(want []any, got any) string {
	g, ok := got.([]any)
	if !ok || len(g) != len(want) {
		return fmt.Sprintf("want %d steps", len(want))
	}
	var bad []string
	for i := range want {
		wm, _ := want[i].(map[string]any)
		wa := stringsOf(wm["actions"])
		gm, _ := g[i].(map[string]any)
		ga := stringsOf(gm["actions"])
		if d := ActionsDiff(ga, wa); d != "" {
			bad = append(bad, fmt.Sprintf("step %d: %s: want %s, got %s", i, d, rawJSON(wa), rawJSON(ga)))
		}
	}
	return strings.Join(bad, "; ")
}

func stringsOf(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// SameActions is the scenarios' matching rule: a step's actions are
// compared in order, every one of them, as text (docs/engine.md, The order
// of actions within one step: the whole order is normative and no set of
// actions is compared as a multiset).
func SameActions(got, want []string) bool {
	return slices.Equal(got, want)
}

// ActionsDiff says how a step's actions differ from the expected ones, or
// returns "" when SameActions holds. The same actions in another order
// name the first position that differs, so that a port learns the order
// from the failure; otherwise the actions missing and those not expected
// are listed (each as often as it is missing or extra).
func ActionsDiff(got, want []string) string {
	if SameActions(got, want) {
		return ""
	}
	count := map[string]int{}
	for _, a := range want {
		count[a]++
	}
	for _, a := range got {
		count[a]--
	}
	var missing, extra []string
	for _, a := range want {
		if count[a] > 0 {
			missing = append(missing, a)
			count[a]--
		}
	}
	for _, a := range got {
		if count[a] < 0 {
			extra = append(extra, a)
			count[a]++
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		i := 0
		for got[i] == want[i] {
			i++
		}
		return fmt.Sprintf("the same actions in another order: action %d is %q, want %q (docs/engine.md, The order of actions within one step)", i+1, got[i], want[i])
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("missing %q", missing))
	}
	if len(extra) > 0 {
		parts = append(parts, fmt.Sprintf("not expected %q", extra))
	}
	return strings.Join(parts, ", ")
}
