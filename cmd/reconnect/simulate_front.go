package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/internal/sim"
)

// The reference strategies of simulate storm --front: today's RTB1, the
// peers the lab measures, and the other jitters for scale.
var (
	frontPeers = []sim.Strategy{sim.StrategySocketIO, sim.StrategyCentrifugeJS}
	frontRefs  = []sim.Strategy{sim.StrategyRTB1, sim.StrategySocketIO, sim.StrategyCentrifugeJS, sim.StrategyCentrifugeGo,
		sim.StrategyFull, sim.StrategyDecorrelated, sim.StrategyRTB1Safe}
)

// frontRun is the front at one downtime, and the rule chosen there.
type frontRun struct {
	Downtime time.Duration    `json:"downtimeNs"`
	Points   []sim.FrontPoint `json:"points"`
	Chosen   *sim.FrontPoint  `json:"chosen,omitempty"`
}

// runFront runs the restart front at each downtime of o.frontDowntimes
// and chooses a first-retry rule at the first: the fastest to 99 % back
// among those ahead of every peer for no higher accept peak.
func runFront(o *stormOptions, out *output, stdout, stderr io.Writer) error {
	prog := newProgress(stderr, "storms")
	rules := sim.DefaultFrontRules(o.config.Timeouts)
	per := len(frontRefs) + len(rules)
	var runs []frontRun
	for i, d := range o.frontDowntimes {
		sc := o.config
		sc.Downtime = d
		ps, err := sim.RestartFront(sc, frontRefs, rules, func(done, _ int) { prog.update(i*per+done, len(o.frontDowntimes)*per) })
		if err != nil {
			return usagef("%v", err)
		}
		r := frontRun{Downtime: d, Points: ps}
		if c, ok := sim.ChooseFirstRetry(ps, frontPeers); ok {
			r.Chosen = &c
		}
		runs = append(runs, r)
	}
	prog.update(1, 1)
	var chosen *sim.FrontPoint
	if len(runs) > 0 {
		chosen = runs[0].Chosen
	}
	if out != nil {
		if err := out.finish(frontChart(runs, chosen, o).WriteSVG); err != nil {
			return err
		}
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(runs)
	}
	writeFront(stdout, runs, chosen, o)
	return nil
}

// frontFigures finds the point named name in ps.
func frontFigures(ps []sim.FrontPoint, name string) (sim.FrontPoint, bool) {
	i := slices.IndexFunc(ps, func(p sim.FrontPoint) bool { return p.Name == name })
	if i < 0 {
		return sim.FrontPoint{}, false
	}
	return ps[i], true
}

// writeFront writes, as Markdown, the chosen rule beside the references at
// every downtime, then every point of the first downtime's front.
func writeFront(w io.Writer, runs []frontRun, chosen *sim.FrontPoint, o *stormOptions) {
	c := o.config
	fmt.Fprintf(w, "A restart: %s clients drop at 0 s, the server refuses everything for the downtime, then accepts every attempt%s.\n",
		thousands(c.Clients), map[bool]string{true: "", false: fmt.Sprintf(" up to %s a second", thousands(c.Capacity))}[c.Capacity == 0])
	fmt.Fprintln(w, "Accept peak: the most attempts accepted within any one second (sliding by the millisecond). 99 % back: when 99 % had an accepted attempt.")
	fmt.Fprintln(w)
	if chosen == nil {
		fmt.Fprintf(w, "No first-retry rule is ahead of every peer (%s) in 99 %% back for no higher accept peak at %v.\n\n", strategyList(frontPeers), runs[0].Downtime)
	} else {
		fmt.Fprintf(w, "Chosen at %v: **%s**, the fastest to 99 %% back of the rules ahead of every peer (%s) for no higher accept peak.\n\n",
			runs[0].Downtime, chosen.Name, strategyList(frontPeers))
	}
	names := []string{"rtb1", "socketio", "centrifuge-js"}
	if chosen != nil {
		names = append(names, chosen.Name)
	}
	fmt.Fprintf(w, "| downtime | %s |\n|---|%s\n", strings.Join(names, " | "), strings.Repeat("---|", len(names)))
	for _, r := range runs {
		row := []string{r.Downtime.String()}
		for _, n := range names {
			p, _ := frontFigures(r.Points, n)
			row = append(row, fmt.Sprintf("%v, %s/s (median %v)", p.T99.Round(10*time.Millisecond), thousands(p.AcceptPeak), p.Median.Round(10*time.Millisecond)))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
	for _, r := range runs {
		fmt.Fprintf(w, "\n### every point at %v (Pareto: no other point as fast with as low a peak)\n\n", r.Downtime)
		fmt.Fprintln(w, "| strategy | 99 % back | median back | accept peak/s | attempts | Pareto |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|")
		for _, p := range r.Points {
			pareto := ""
			if p.Pareto {
				pareto = "yes"
			}
			fmt.Fprintf(w, "| %s | %v | %v | %s | %s | %s |\n", p.Name, p.T99.Round(10*time.Millisecond), p.Median.Round(10*time.Millisecond),
				thousands(p.AcceptPeak), thousands(p.Attempts), pareto)
		}
	}
}

func strategyList(ss []sim.Strategy) string {
	var names []string
	for _, s := range ss {
		names = append(names, s.String())
	}
	return strings.Join(names, ", ")
}

// frontChart draws one panel per downtime: 99 % back (s) against the
// accept peak (thousands a second), the references as points, each
// first-retry family as its own Pareto front (its points no other of the
// family dominates), and the chosen rule.
func frontChart(runs []frontRun, chosen *sim.FrontPoint, o *stormOptions) sim.Multiples {
	m := sim.Multiples{Title: fmt.Sprintf("A restart, %s clients: time to 99 %% back against the accept peak (lower left is better)", thousands(o.config.Clients)),
		XLabel: "accept peak (thousands a second, most in any one second)", YLabel: "99 % back (s)", Columns: len(runs)}
	xmax, ymax := 0.0, 0.0
	for _, r := range runs {
		p := sim.Panel{Title: fmt.Sprintf("down %v", r.Downtime)}
		for _, n := range []string{"rtb1", "socketio", "centrifuge-js"} {
			f, _ := frontFigures(r.Points, n)
			p.Series = append(p.Series, sim.Series{Name: n, X: []float64{float64(f.AcceptPeak) / 1000}, Y: []float64{f.T99.Seconds()}})
		}
		families := map[string][]sim.FrontPoint{}
		var order []string
		for _, f := range r.Points {
			if !f.Rule {
				continue
			}
			fam := f.First.Family()
			if _, ok := families[fam]; !ok {
				order = append(order, fam)
			}
			families[fam] = append(families[fam], f)
		}
		for _, fam := range order {
			front := familyFront(families[fam])
			s := sim.Series{Name: fam}
			for _, f := range front {
				s.X, s.Y = append(s.X, float64(f.AcceptPeak)/1000), append(s.Y, f.T99.Seconds())
			}
			p.Series = append(p.Series, s)
		}
		if chosen != nil {
			if f, ok := frontFigures(r.Points, chosen.Name); ok {
				p.Series = append(p.Series, sim.Series{Name: "chosen: " + chosen.Name, X: []float64{float64(f.AcceptPeak) / 1000}, Y: []float64{f.T99.Seconds()}})
			}
		}
		for _, s := range p.Series {
			for i := range s.X {
				xmax, ymax = max(xmax, s.X[i]), max(ymax, s.Y[i])
			}
		}
		m.Panels = append(m.Panels, p)
	}
	_ = ymax
	m.XMax = xmax * 1.05
	return m
}

// familyFront returns the points of one family no other of it dominates,
// by accept peak.
func familyFront(ps []sim.FrontPoint) []sim.FrontPoint {
	var out []sim.FrontPoint
	for _, p := range ps {
		if !slices.ContainsFunc(ps, func(q sim.FrontPoint) bool {
			return q.T99 <= p.T99 && q.AcceptPeak <= p.AcceptPeak && (q.T99 < p.T99 || q.AcceptPeak < p.AcceptPeak)
		}) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b sim.FrontPoint) int { return a.AcceptPeak - b.AcceptPeak })
	return out
}
