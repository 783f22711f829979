package main

// The report of simulate timeout: its tables and its chart.

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

func msText(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 0, 64) }

func printTimeoutTables(w io.Writer, rep timeoutReport, profiles []sim.Profile, cost sim.Cost) {
	fmt.Fprintf(w, "Time to CONNECTED from a connect request, %s per cell, seed %d.\n", plural(rep.Clients, "simulated client", "simulated clients"), rep.Seed)
	fmt.Fprintln(w, "o1…o5: share of the transport-fallback proposal's five outcomes (websocket-first only);")
	fmt.Fprintln(w, "per connection: transports opened, HTTP opened, HTTP discarded while healthy, all transports discarded while healthy, fallback-host requests, connectivity checks.")
	byProfile := cellsByProfile(rep.Cells)
	for _, p := range profiles {
		fmt.Fprintf(w, "\n%s — %s\n", p.Name, p.Description)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "policy\tshort circuit\tconnected\tp50 ms\tp90 ms\tp99 ms\tmean ms\to1\to2\to3\to4\to5\topened\thttp\thttp discarded\twasted\tfallback\tchecks\t")
		for _, c := range byProfile[p.Name] {
			sc := "-"
			if c.ShortCircuit > 0 {
				sc = c.ShortCircuit.String()
			}
			fmt.Fprintf(tw, "%s\t%s\t%.1f%%\t%s\t%s\t%s\t%s\t", c.Policy, sc, 100*float64(c.Connected)/float64(c.Clients), msText(c.P50), msText(c.P90), msText(c.P99), msText(c.Mean))
			for _, o := range c.Outcomes {
				if c.Policy == engine.PolicyWebSocketFirst.String() {
					fmt.Fprintf(tw, "%.0f%%\t", 100*o)
				} else {
					fmt.Fprint(tw, "-\t")
				}
			}
			fmt.Fprintf(tw, "%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", c.Opened, c.HTTPOpened, c.HTTPWasted, c.Wasted, c.FallbackRequests, c.ConnectivityChecks)
		}
		tw.Flush()
	}
	rec := rep.Recommendation
	if rec == nil {
		return
	}
	fmt.Fprintf(w, "\nCost = %g × mean seconds to CONNECTED + %g × healthy transports thrown away, per connection.\n", cost.PerSecond, cost.PerWasted)
	names := make([]string, 0, len(rec.Mix))
	for n := range rec.Mix {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %g", n, rec.Mix[n]))
	}
	fmt.Fprintf(w, "Mix: %s.\n\n", strings.Join(parts, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "short circuit\tmix mean ms\tmix wasted\tmix cost\t")
	for _, tc := range rec.ByValue {
		mark := ""
		if tc.Timeout == rec.Best {
			mark = "  ← best"
		}
		fmt.Fprintf(tw, "%v\t%s\t%.3f\t%.4f%s\t\n", tc.Timeout, msText(tc.Mean), tc.Wasted, tc.Cost, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nBest timeout per profile alone:")
	for _, p := range profiles {
		if b, ok := rep.BestByProfile[p.Name]; ok {
			fmt.Fprintf(w, " %s %v;", p.Name, b)
		}
	}
	fmt.Fprintf(w, "\nRecommended short-circuit timeout for this mix: %v\n", rec.Best)
}

// timeoutChart draws one panel per profile simulated (the same profiles
// as the tables), on shared axes: mean time to CONNECTED by short-circuit
// timeout for websocket-first, with the fixed policies as flat lines.
func timeoutChart(cells []sim.Cell, profiles []sim.Profile, timeouts []time.Duration, horizon time.Duration) sim.Multiples {
	m := sim.Multiples{Title: "Mean time to CONNECTED by short-circuit timeout, one panel per profile",
		XLabel: "short-circuit timeout (s, log scale)", YLabel: "mean time to CONNECTED (ms, log scale)", LogX: true, LogY: true, Columns: 4}
	lo, hi := slices.Min(timeouts).Seconds(), slices.Max(timeouts).Seconds()
	byProfile := cellsByProfile(cells)
	for _, p := range profiles {
		panel := sim.Panel{Title: p.Name, Note: fmt.Sprintf("nobody connected within %v", horizon)}
		bySeries := map[string]*sim.Series{}
		var order []string
		for _, c := range byProfile[p.Name] {
			if c.Connected == 0 {
				continue
			}
			s, ok := bySeries[c.Policy]
			if !ok {
				s = &sim.Series{Name: c.Policy}
				bySeries[c.Policy] = s
				order = append(order, c.Policy)
			}
			if c.ShortCircuit > 0 {
				s.X = append(s.X, c.ShortCircuit.Seconds())
				s.Y = append(s.Y, float64(c.Mean)/1e6)
				continue
			}
			for _, x := range []float64{lo, hi} { // a flat line across the sweep
				s.X = append(s.X, x)
				s.Y = append(s.Y, float64(c.Mean)/1e6)
			}
		}
		for _, name := range order {
			panel.Series = append(panel.Series, *bySeries[name])
		}
		m.Panels = append(m.Panels, panel)
	}
	return m
}

// cellsByProfile groups cells by profile, keeping their order: one pass,
// so that tables and charts cost O(cells) however many profiles there are.
func cellsByProfile(cells []sim.Cell) map[string][]sim.Cell {
	out := map[string][]sim.Cell{}
	for _, c := range cells {
		out[c.Profile] = append(out[c.Profile], c)
	}
	return out
}
