package enginediff

// Comparing the engines' answers for one timeline: the first step whose
// ordered action lists are not the same in all three.

import (
	"fmt"
	"slices"
	"strings"
)

// Engines are the engines compared, in the order of Outcomes.
var Engines = [3]string{"go", "js", "python"}

// Outcomes are the answers of the engines of Engines for one timeline.
type Outcomes [3]Outcome

// Disagreement is a timeline on which the engines do not all answer the
// same, at its first differing step.
type Disagreement struct {
	Timeline Timeline
	Outcomes Outcomes
	// Step is the index of the first step whose actions differ, or -1
	// when an engine answered an error (or the wrong number of steps).
	Step int
}

// Compare returns the disagreement on tl, or nil when every engine
// answered every step with the same actions in the same order.
func Compare(tl Timeline, o Outcomes) *Disagreement {
	if o[0].Err != "" && o[1].Err != "" && o[2].Err != "" {
		return nil // every engine refused the timeline
	}
	for _, x := range o {
		if x.Err != "" || len(x.Steps) != len(tl.Steps) {
			return &Disagreement{Timeline: tl, Outcomes: o, Step: -1}
		}
	}
	for i := range tl.Steps {
		if !slices.Equal(o[0].Steps[i], o[1].Steps[i]) || !slices.Equal(o[0].Steps[i], o[2].Steps[i]) {
			return &Disagreement{Timeline: tl, Outcomes: o, Step: i}
		}
	}
	return nil
}

// at returns engine k's actions at the differing step (nil for none).
func (d *Disagreement) at(k int) []string {
	if d.Step < 0 || d.Step >= len(d.Outcomes[k].Steps) {
		return nil
	}
	return d.Outcomes[k].Steps[d.Step]
}

// Split names which engines agree at the differing step, e.g.
// "go+python|js": the groups of engines with the same answer.
func (d *Disagreement) Split() string {
	var groups []string
	seen := [3]bool{}
	for i := range Engines {
		if seen[i] {
			continue
		}
		g := Engines[i]
		for j := i + 1; j < len(Engines); j++ {
			if !seen[j] && d.same(i, j) {
				seen[j] = true
				g += "+" + Engines[j]
			}
		}
		groups = append(groups, g)
	}
	return strings.Join(groups, "|")
}

// same reports whether engines i and j answered the differing step alike.
func (d *Disagreement) same(i, j int) bool {
	if d.Step < 0 {
		return d.Outcomes[i].Err == d.Outcomes[j].Err && len(d.Outcomes[i].Steps) == len(d.Outcomes[j].Steps)
	}
	return slices.Equal(d.at(i), d.at(j))
}

// String renders the disagreement as a short timeline: the configuration
// and draws, every step up to the differing one with the Go engine's
// actions, then each engine's answer there, and the timeline as one line
// of the scenario encoding (ready to become a scenario).
func (d *Disagreement) String() string {
	var b strings.Builder
	tl := d.Timeline
	cfg, _ := tl.Config.MarshalJSON()
	fmt.Fprintf(&b, "config %s draws %v (%s)\n", cfg, tl.Draws, d.Split())
	last := d.Step
	if last < 0 {
		last = len(tl.Steps) - 1
	}
	for i := 0; i <= last && i < len(tl.Steps); i++ {
		st := tl.Steps[i]
		fmt.Fprintf(&b, "  %3d  at %-7d %s\n", i, st.AtMs, st.Event)
		if i < last && i < len(d.Outcomes[0].Steps) {
			fmt.Fprintf(&b, "         → %s\n", strings.Join(d.Outcomes[0].Steps[i], "; "))
		}
	}
	for k, name := range Engines {
		switch {
		case d.Outcomes[k].Err != "":
			fmt.Fprintf(&b, "    %-6s %s\n", name+":", d.Outcomes[k].Err)
		case d.Step < 0:
			fmt.Fprintf(&b, "    %-6s %d steps answered\n", name+":", len(d.Outcomes[k].Steps))
		default:
			fmt.Fprintf(&b, "    %-6s [%s]\n", name+":", strings.Join(d.at(k), "; "))
		}
	}
	fmt.Fprintf(&b, "  as a scenario: %s\n", tl.JSON())
	return b.String()
}
