package main

// The report of simulate timeout: the recommendation (the mix's band),
// every profile's band, the tables, and the chart.

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

// secMs writes a cost or a time in seconds as whole milliseconds, or with
// one decimal below 10 ms.
func secMs(sec float64) string {
	v := sec * 1000
	if math.Abs(v) < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

func msText(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 0, 64) }

// bandText writes a band's timeouts: "250ms", "250ms to 500ms", or
// "250ms, 1s" when they are not neighbours in the sweep.
func bandText(tied, all []time.Duration) string {
	if len(tied) == 0 {
		return "none"
	}
	i, j := slices.Index(all, tied[0]), slices.Index(all, tied[len(tied)-1])
	if len(tied) == 1 {
		return tied[0].String()
	}
	if j-i+1 == len(tied) {
		return tied[0].String() + " to " + tied[len(tied)-1].String()
	}
	parts := make([]string, len(tied))
	for k, t := range tied {
		parts[k] = t.String()
	}
	return strings.Join(parts, ", ")
}

// bandSummary is one line saying what a band is.
func bandSummary(b sim.Band, all []time.Duration, horizon time.Duration) string {
	if b.Connected == 0 {
		return fmt.Sprintf("no answer: nobody connected within %v under any timeout", horizon)
	}
	s := bandText(b.Tied, all)
	switch {
	case len(b.Tied) == len(all):
		s = "any (" + s + "): the timeout makes no difference here"
	case b.Tied[0] == all[0] && len(all) > 1:
		s += fmt.Sprintf(" (the shortest tried, %v, is in the band: shorter ones may be as good)", all[0])
	case b.Tied[len(b.Tied)-1] == all[len(all)-1] && len(all) > 1:
		s += fmt.Sprintf(" (the longest tried, %v, is in the band: longer ones may be as good)", all[len(all)-1])
	}
	if len(b.Undecided) > 0 {
		s += "; undecided at this sample size: " + bandText(b.Undecided, all)
	}
	if b.Connected < 1 {
		s += fmt.Sprintf("; only %.1f%% connected under some timeout", 100*b.Connected)
	}
	return s
}

func printTimeoutReport(w io.Writer, rep timeoutReport, profiles []sim.Profile, timeouts []time.Duration) {
	all := slices.Sorted(slices.Values(timeouts))
	if mb := rep.MixBand; mb != nil {
		fmt.Fprintf(w, "Recommended short-circuit timeout for this mix: %s.\n", bandSummary(*mb, all, rep.Horizon))
		fmt.Fprintf(w, "(The band: every timeout tried whose cost is within %s ms of the best's, 95 %% interval included; best in this sample %v.)\n",
			secMs(mb.Threshold), mb.Best)
		names := make([]string, 0, len(rep.Mix))
		for n := range rep.Mix {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			if rep.Mix[names[i]] != rep.Mix[names[j]] {
				return rep.Mix[names[i]] > rep.Mix[names[j]]
			}
			return names[i] < names[j]
		})
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = fmt.Sprintf("%s %s%%", n, strconv.FormatFloat(100*rep.Mix[n], 'g', 3, 64))
		}
		fmt.Fprintf(w, "Mix (weights normalized): %s.\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "Cost per connection, in ms: %g × mean time to CONNECTED + %s ms × healthy transports thrown away (a client that never connects counts as the %v horizon).\n",
		rep.Cost.PerSecond, secMs(rep.Cost.PerWasted), rep.Horizon)
	fmt.Fprintf(w, "Every timeout saw the same %d clients per profile (common random numbers); \"vs best\" is the mean of each client's cost minus its cost under the best timeout,\n", rep.Clients)
	fmt.Fprintf(w, "with a 95 %% interval (± 1.96 standard errors). Tied: the interval lies below max(%s%% of the best cost, %s ms); worse: above it; undecided: it straddles it (more --clients decide).\n",
		strconv.FormatFloat(100*rep.Equivalence.Rel, 'f', -1, 64), secMs(rep.Equivalence.Abs))
	if mb := rep.MixBand; mb != nil {
		fmt.Fprintln(w)
		printBandTable(w, *mb, "mix")
	}
	fmt.Fprintln(w, "\nBand per profile (websocket-first):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, b := range rep.Bands {
		thr := fmt.Sprintf("(threshold %s ms)", secMs(b.Threshold))
		if b.Connected == 0 {
			thr = ""
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", b.Of, bandSummary(b, all, rep.Horizon), thr)
	}
	tw.Flush()
	printCellTables(w, rep, profiles)
}

// printBandTable writes one band's table: each timeout's cost and its
// difference from the best's, with intervals, and its verdict.
func printBandTable(w io.Writer, b sim.Band, what string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "short circuit\t%s cost ms\tvs best ms\t95%% interval\tmean to CONNECTED ms\twasted per connection\tverdict\t\n", what)
	for _, c := range b.Choices {
		diff, iv := "best", ""
		if c.Verdict != sim.VerdictBest {
			diff, iv = "+"+secMs(c.Diff.Value), fmt.Sprintf("[%s, %s]", secMs(c.Diff.Lo), secMs(c.Diff.Hi))
		}
		fmt.Fprintf(tw, "%v\t%s ±%s\t%s\t%s\t%s ±%s\t%.3f ±%.3f\t%s\t\n", c.Timeout, secMs(c.Cost.Value), secMs(c.Cost.Half()), diff, iv,
			secMs(c.Seconds.Value), secMs(c.Seconds.Half()), c.Wasted.Value, c.Wasted.Half(), c.Verdict)
	}
	tw.Flush()
}

// durText writes a time to CONNECTED in ms, or never when it is the
// horizon of a client that did not connect.
func durText(d, horizon time.Duration, allConnected bool) string {
	if d >= horizon && !allConnected {
		return "never"
	}
	return msText(d)
}

func printCellTables(w io.Writer, rep timeoutReport, profiles []sim.Profile) {
	fmt.Fprintf(w, "\nEvery cell: %s per cell, seed %d; times in ms; 95 %% intervals: a quantile's from order statistics, a mean's ± 1.96 standard errors, a share's Wilson's;\n",
		plural(rep.Clients, "simulated client", "simulated clients"), rep.Seed)
	fmt.Fprintln(w, "\"never\": that share of clients did not connect within the horizon; a mean marked ≥ counts them as the horizon.")
	fmt.Fprintln(w, "o1…o5: share of the transport-fallback proposal's five outcomes (websocket-first only);")
	fmt.Fprintln(w, "per connection: transports opened, HTTP opened, HTTP discarded while healthy, all transports discarded while healthy (wasted), fallback-host requests, connectivity checks.")
	fmt.Fprintln(w, "vs best: the cost's difference from the best timeout's, client by client, with its 95 % interval, and the verdict (websocket-first only).")
	byProfile := cellsByProfile(rep.Cells)
	choices := map[string]map[time.Duration]sim.Choice{}
	for _, b := range rep.Bands {
		choices[b.Of] = map[time.Duration]sim.Choice{}
		for _, c := range b.Choices {
			choices[b.Of][c.Timeout] = c
		}
	}
	for _, p := range profiles {
		fmt.Fprintf(w, "\n%s — %s\n", p.Name, p.Description)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "policy\tshort circuit\tconnected\tp50 ms\tp90 ms\tp99 ms\tmean ms\tvs best ms\tverdict\to1\to2\to3\to4\to5\topened\thttp\thttp discarded\twasted\tfallback\tchecks\t")
		for _, c := range byProfile[p.Name] {
			sc := "-"
			if c.ShortCircuit > 0 {
				sc = c.ShortCircuit.String()
			}
			iv := c.Intervals
			full := c.Connected == c.Clients
			conn := fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*iv.Connected.Value, 100*iv.Connected.Lo, 100*iv.Connected.Hi)
			quant := func(q sim.DurationInterval) string {
				if q.Value >= rep.Horizon && !full {
					return "never"
				}
				return fmt.Sprintf("%s [%s, %s]", msText(q.Value), durText(q.Lo, rep.Horizon, full), durText(q.Hi, rep.Horizon, full))
			}
			mean := fmt.Sprintf("%s ±%s", msText(iv.Mean.Value), msText((iv.Mean.Hi-iv.Mean.Lo)/2))
			switch {
			case c.Connected == 0:
				mean = "never"
			case !full:
				mean = "≥" + mean
			}
			vs, verdict := "-", "-"
			if ch, ok := choices[c.Profile][c.ShortCircuit]; ok && c.Policy == engine.PolicyWebSocketFirst.String() {
				vs, verdict = "best", ch.Verdict.String()
				if ch.Verdict != sim.VerdictBest {
					vs = strings.ReplaceAll(fmt.Sprintf("%+.0f [%.0f, %.0f]", 1000*ch.Diff.Value, 1000*ch.Diff.Lo, 1000*ch.Diff.Hi), "-0", "0")
					vs = strings.ReplaceAll(vs, "+0 ", "0 ")
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", c.Policy, sc, conn, quant(iv.P50), quant(iv.P90), quant(iv.P99), mean, vs, verdict)
			for k, o := range c.Outcomes {
				if c.Policy == engine.PolicyWebSocketFirst.String() {
					fmt.Fprintf(tw, "%.0f ±%.0f%%\t", 100*o, 100*iv.Outcomes[k].Half())
				} else {
					fmt.Fprint(tw, "-\t")
				}
			}
			pm := func(v float64, i sim.Interval) string { return fmt.Sprintf("%.2f ±%.2f", v, max(i.Hi-v, v-i.Lo)) }
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", pm(c.Opened, iv.Opened), pm(c.HTTPOpened, iv.HTTPOpened), pm(c.HTTPWasted, iv.HTTPWasted),
				pm(c.Wasted, iv.Wasted), pm(c.FallbackRequests, iv.FallbackRequests), pm(c.ConnectivityChecks, iv.ConnectivityChecks))
		}
		tw.Flush()
	}
}

// timeoutChart draws, for the mix and then for every profile simulated
// (the same as the tables), two panels side by side: the mean time to
// CONNECTED (the mix: its cost) by short-circuit timeout, and the
// transports wasted per connection, websocket-first with its 95 %
// interval as a light band and the fixed policies as dashed flat lines;
// the band of timeouts as good as the best is shaded. Each panel has its
// own linear y axis from 0 (the profiles' scales differ by a hundred);
// the x axis is the timeouts tried, on a log scale.
func timeoutChart(rep timeoutReport, profiles []sim.Profile, timeouts []time.Duration) sim.Multiples {
	m := sim.Multiples{Title: "Short-circuit timeout: mean time to CONNECTED (s) and transports wasted per connection, 95 % intervals; shaded: the band",
		XLabel: "short-circuit timeout (s, log scale)", YLabel: "mean time to CONNECTED, s (left of a pair) · wasted transports per connection (right)",
		LogX: true, Columns: 4, FreeY: true}
	lo, hi := slices.Min(timeouts).Seconds(), slices.Max(timeouts).Seconds()
	all := slices.Sorted(slices.Values(timeouts))
	shade := func(b *sim.Band) [2]float64 {
		if b == nil || len(b.Tied) == 0 || b.Connected == 0 {
			return [2]float64{}
		}
		return [2]float64{b.Tied[0].Seconds(), b.Tied[len(b.Tied)-1].Seconds()}
	}
	if mb := rep.MixBand; mb != nil {
		cost := sim.Series{Name: "websocket-first"}
		wasted := sim.Series{Name: "websocket-first"}
		for _, c := range mb.Choices {
			x := c.Timeout.Seconds()
			cost.X, cost.Y, cost.Lo, cost.Hi = append(cost.X, x), append(cost.Y, c.Cost.Value), append(cost.Lo, c.Cost.Lo), append(cost.Hi, c.Cost.Hi)
			wasted.X, wasted.Y, wasted.Lo, wasted.Hi = append(wasted.X, x), append(wasted.Y, c.Wasted.Value), append(wasted.Lo, max(c.Wasted.Lo, 0)), append(wasted.Hi, c.Wasted.Hi)
		}
		label := "band " + bandText(mb.Tied, all)
		m.Panels = append(m.Panels,
			sim.Panel{Title: "mix · cost (s)", Series: []sim.Series{cost}, Shade: shade(mb), ShadeLabel: label},
			sim.Panel{Title: "mix · wasted", Series: []sim.Series{wasted}, Shade: shade(mb)})
	}
	bands := map[string]*sim.Band{}
	for i := range rep.Bands {
		bands[rep.Bands[i].Of] = &rep.Bands[i]
	}
	byProfile := cellsByProfile(rep.Cells)
	for _, p := range profiles {
		note := fmt.Sprintf("never connected within %v", rep.Horizon)
		tp := sim.Panel{Title: p.Name + " · time (s)", Note: note, Shade: shade(bands[p.Name])}
		wp := sim.Panel{Title: p.Name + " · wasted", Note: note, Shade: shade(bands[p.Name])}
		if b := bands[p.Name]; b != nil && b.Connected > 0 {
			tp.ShadeLabel = "band " + bandText(b.Tied, all)
			if len(b.Tied) == len(all) {
				tp.ShadeLabel = "band: any"
			}
		}
		byPolicy := map[string][2]*sim.Series{}
		var order []string
		partial := false
		for _, c := range byProfile[p.Name] {
			if c.Connected == 0 {
				continue
			}
			partial = partial || c.Connected < c.Clients
			s, ok := byPolicy[c.Policy]
			if !ok {
				dashed := c.ShortCircuit == 0
				s = [2]*sim.Series{{Name: c.Policy, Dashed: dashed}, {Name: c.Policy, Dashed: dashed}}
				byPolicy[c.Policy] = s
				order = append(order, c.Policy)
			}
			iv := c.Intervals
			xs := []float64{c.ShortCircuit.Seconds()}
			if c.ShortCircuit == 0 {
				xs = []float64{lo, hi} // a flat line across the sweep
			}
			for _, x := range xs {
				s[0].X, s[0].Y = append(s[0].X, x), append(s[0].Y, c.Mean.Seconds())
				s[1].X, s[1].Y = append(s[1].X, x), append(s[1].Y, c.Wasted)
				if c.ShortCircuit > 0 {
					s[0].Lo, s[0].Hi = append(s[0].Lo, iv.Mean.Lo.Seconds()), append(s[0].Hi, iv.Mean.Hi.Seconds())
					s[1].Lo, s[1].Hi = append(s[1].Lo, iv.Wasted.Lo), append(s[1].Hi, iv.Wasted.Hi)
				}
			}
		}
		for _, name := range order {
			tp.Series = append(tp.Series, *byPolicy[name][0])
			wp.Series = append(wp.Series, *byPolicy[name][1])
		}
		if partial {
			tp.Corner = "some never connected: counted as the horizon"
		}
		m.Panels = append(m.Panels, tp, wp)
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
