package enginediff

// The known disagreements: each a class with a name, what it is, and how
// it is recognised. The differential reports their counts and fails on
// any disagreement none of them explains. Fixing one in the engines
// empties its entry (TestKnownClassesStillDisagree says when).

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Class is a known disagreement between the engines.
type Class struct {
	// Name names the class and its minimised timeline,
	// testdata/<Name>.json.
	Name string
	// Doc says what differs, who does what, and where the document
	// stands.
	Doc string
	// Normalise, when set, declares two ways of writing an action the
	// same: every engine's every action is rewritten by it; if the engines
	// then agree, or first differ at a later step, the class explains the
	// disagreement, and what remains is classified in turn.
	Normalise func(action string) string
	// Neutralise, when set, rewrites the timeline so that the cause is
	// gone while the Go engine answers exactly as before (so every
	// rewritten event is one the Go engine ignores or answers alike): if
	// the engines then agree, or first differ at a later step, the class
	// explains the disagreement, and what remains is classified in turn.
	Neutralise func(tl Timeline, goSteps [][]string) Timeline
	// AtStep, when set, recognises the class at the first differing step
	// itself (every later step follows from it and is not looked at).
	AtStep func(d *Disagreement) bool
}

// Known are the known classes, in the order they are tried. It is empty:
// every class the differential has found so far was decided in
// docs/engine.md, pinned by scenarios written from that rule
// (engine/testdata/scenarios/15-differential.txt: the text of a
// DISCONNECTED without a status, the background websocket check's
// lifetime, the RTN17f1 check after a failed websocket check, the host
// order of the walk a passing background check starts;
// 33-differential-config.txt: hosts lowered, the fallbackHosts option's
// under the default endpoint too, and the adaptive short circuit's
// product rounded to the nanosecond) and fixed in the engine that was
// wrong. A new class is added here with its minimised
// timeline in testdata/ only while its fix is being decided.
var Known = []Class{}

// Verdict is how the known classes explain one disagreement.
type Verdict struct {
	// Classes are the known classes that explain it, in the order found.
	Classes []string
	// New is the disagreement no known class explains (nil if none):
	// the original one, or what was left after neutralising.
	New *Disagreement
}

// normalise rewrites every action of o by the normalisers of classes
// (those that have one).
func normalise(o Outcomes, classes []Class) Outcomes {
	var n Outcomes
	for k, x := range o {
		n[k].Err = x.Err
		for _, acts := range x.Steps {
			na := make([]string, len(acts))
			for j, a := range acts {
				for _, c := range classes {
					if c.Normalise != nil {
						a = c.Normalise(a)
					}
				}
				na[j] = a
			}
			n[k].Steps = append(n[k].Steps, na)
		}
	}
	return n
}

// Classify explains d by the known classes, replaying rewritten
// timelines through differ. Every normaliser applies throughout (each
// only declares two writings the same); the neutralisers and the
// predicates at the differing step then explain what remains, in turn. A
// class with a normaliser explains d in part when, leaving it out at the
// end, the engines would differ earlier.
func Classify(d *Disagreement, differ *Differ) (Verdict, error) {
	var v Verdict
	first := d.Step
	goSteps := d.Outcomes[0].Steps // the same for every rewrite
	tl, raw := d.Timeline, d.Outcomes
	d = Compare(tl, normalise(raw, Known))
	tried := map[string]bool{}
	end := math.MaxInt // the step no class explains, if any
	for d != nil && end == math.MaxInt {
		found := false
		for _, c := range Known {
			if tried[c.Name] {
				continue
			}
			if c.AtStep != nil && c.AtStep(d) {
				v.Classes = append(v.Classes, c.Name)
				end, found = d.Step, true
				break
			}
			if c.Neutralise == nil {
				continue
			}
			ntl := c.Neutralise(d.Timeline.clone(), goSteps)
			if slices.Equal(ntl.Steps, d.Timeline.Steps) {
				continue
			}
			if steps, _, err := RunGo(ntl); err != nil || !slices.EqualFunc(steps, goSteps, slices.Equal[[]string]) {
				continue // not a rewrite the Go engine answers alike
			}
			outs, err := differ.Outcomes([]Timeline{ntl}, nil)
			if err != nil {
				return v, err
			}
			nd := Compare(ntl, normalise(outs[0], Known))
			if nd == nil || nd.Step > d.Step || d.Step < 0 && nd.Step >= 0 {
				tried[c.Name] = true
				v.Classes = append(v.Classes, c.Name)
				d, tl, raw, found = nd, ntl, outs[0], true
				break
			}
		}
		if !found {
			v.New = d
			end = d.Step
		}
	}
	for i, c := range Known {
		if c.Normalise == nil {
			continue
		}
		without := Compare(tl, normalise(raw, slices.Delete(slices.Clone(Known), i, i+1)))
		switch {
		case without == nil || without.Step >= end:
		case without.Step == first:
			v.Classes = append([]string{c.Name}, v.Classes...)
		default:
			v.Classes = append(v.Classes, c.Name)
		}
	}
	return v, nil
}

// String is the classes joined, or "NEW" and the classes.
func (v Verdict) String() string {
	s := strings.Join(v.Classes, "+")
	if v.New != nil {
		s = strings.TrimSuffix("NEW("+v.New.Split()+")+"+s, "+")
	}
	return s
}

// Key is the class a disagreement is minimised and counted under: the
// first known class, or "new" with the engines' split.
func (v Verdict) Key() string {
	if v.New != nil {
		return fmt.Sprintf("new %s", v.New.Split())
	}
	return v.Classes[0]
}
