package engine

import (
	"fmt"
	"regexp"
)

// unnumberedAnswer is an answer event written without the check it
// answers.
var unnumberedAnswer = regexp.MustCompile(`^(connectivity|websocket-check) (up|down)$`)

// numberChecks writes the check IDs into scenarios written without them,
// by the rule the engine numbers checks with: C1, C2, … in the order the
// engine asks (connectivity and websocket checks counted together), an
// answer naming the earliest check of its kind asked and not yet answered
// (the order the engine took answers in before checks had IDs).
// Scenarios that already name their checks pass through unchanged.
func numberChecks(scs []scenario) []scenario {
	out := make([]scenario, len(scs))
	for i, sc := range scs {
		next := 1
		pending := map[string][]int{} // "check" or "check-websocket" → IDs asked, unanswered
		steps := make([]scenarioStep, len(sc.Steps))
		for j, st := range sc.Steps {
			if m := unnumberedAnswer.FindStringSubmatch(st.Event); m != nil {
				kind := "check"
				if m[1] == "websocket-check" {
					kind = "check-websocket"
				}
				if ids := pending[kind]; len(ids) > 0 {
					st.Event = fmt.Sprintf("%s C%d %s", m[1], ids[0], m[2])
					pending[kind] = ids[1:]
				}
			}
			expect := make([]string, len(st.Expect))
			for k, a := range st.Expect {
				if a == "check" || a == "check-websocket" {
					pending[a] = append(pending[a], next)
					a = fmt.Sprintf("%s C%d", a, next)
					next++
				}
				expect[k] = a
			}
			st.Expect = expect
			steps[j] = st
		}
		sc.Steps = steps
		out[i] = sc
	}
	return out
}
