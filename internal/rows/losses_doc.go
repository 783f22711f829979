package rows

import (
	"fmt"
	"strings"
)

// RenderLossTable renders the decision for a transport lost before
// CONNECTED as docs/engine.md shows it (between the loss-decision
// markers): the dimensions, then LossRows with the number of combinations
// each decides.
func RenderLossTable() string {
	var b strings.Builder
	cases := LossCases()
	count := make([]int, len(LossRows))
	reachable := 0
	for _, c := range cases {
		i := DecideLoss(c)
		count[i]++
		if LossRows[i].Unreachable == "" {
			reachable++
		}
	}
	sizes := make([]string, numLossDims)
	for d, dim := range LossDims {
		sizes[d] = fmt.Sprint(len(dim.Values))
	}
	fmt.Fprintf(&b, "%d dimensions, %s = %d combinations, each decided by the first row that applies: %d can be reached, %d cannot (the U rows, each with the reason).\n\n",
		numLossDims, strings.Join(sizes, " × "), len(cases), reachable, len(cases)-reachable)
	b.WriteString("| dimension | values | what it is |\n|---|---|---|\n")
	for _, dim := range LossDims {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", dim.Name, strings.Join(dim.Values, "; "), dim.Doc)
	}
	b.WriteString("\n| # |")
	for _, dim := range LossDims {
		b.WriteString(" " + dim.Name + " |")
	}
	b.WriteString(" combinations | outcome | scenarios |\n|---|")
	for range LossDims {
		b.WriteString("---|")
	}
	b.WriteString("---|---|---|\n")
	for i, r := range LossRows {
		fmt.Fprintf(&b, "| %s |", r.ID)
		for _, vals := range r.When {
			cell := "—"
			if vals != nil {
				cell = strings.Join(vals, "; ")
			}
			b.WriteString(" " + cell + " |")
		}
		out := "unreachable: " + r.Unreachable
		if r.Unreachable == "" {
			links := make([]string, len(r.Outcome))
			for j, id := range r.Outcome {
				links[j] = "[" + id + "](#" + strings.ToLower(id) + ")"
			}
			out = strings.Join(links, " or ") + ": " + r.Note
		}
		pins := "—"
		if len(r.Pins) > 0 {
			pins = "`" + strings.Join(r.Pins, "`, `") + "`"
		}
		fmt.Fprintf(&b, " %d | %s | %s |\n", count[i], out, pins)
	}
	return b.String()
}
