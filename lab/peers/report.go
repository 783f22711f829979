package peers

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// FormatDuration writes a measured time for a table: "never" for Never,
// milliseconds below 10 s, seconds with one decimal above.
func FormatDuration(d time.Duration) string {
	switch {
	case d == Never:
		return "never"
	case d < time.Millisecond:
		return "<1 ms"
	case d < 10*time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// formatSpread is "median [lo, hi]".
func formatSpread(s Spread) string {
	if s.N == 0 {
		return "–"
	}
	if s.Lo == s.Hi {
		return FormatDuration(s.Median)
	}
	return fmt.Sprintf("%s [%s, %s]", FormatDuration(s.Median), FormatDuration(s.Lo), FormatDuration(s.Hi))
}

// transports is "websocket 18, polling 2".
func transports(m map[string]int) string {
	if len(m) == 0 {
		return "–"
	}
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// WriteTables writes one Markdown table per fault: per kind, how many
// clients got there, the time (median with its 95 % interval, p90),
// the transport, and what each client opened and exchanged; for a
// fault after connected also the time to detect the loss, and for a
// restart the accept peak and the time until 99 % were back.
func (r *Report) WriteTables(w io.Writer) {
	for _, f := range r.Options.Faults {
		fmt.Fprintf(w, "\n### %s\n\n", f)
		var cols []string
		if f.afterConnected() {
			cols = []string{"kind", "back", "detected (median [95 %])", "first message again (median [95 %])", "p90", "on"}
			if f == Restart {
				cols = append(cols, "99 % back", "accept peak/s")
			}
		} else {
			cols = []string{"kind", "reached", "first message (median [95 %])", "p90", "on", "requests before it"}
		}
		cols = append(cols, "sockets/client", "requests/client", "KiB/client")
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
		for _, k := range r.Options.Kinds {
			c, _ := r.Cell(f, k)
			if c.Err != nil && len(c.Result.Times) == 0 {
				fmt.Fprintf(w, "| %s | not measured: %v |%s\n", k, c.Err, strings.Repeat(" |", len(cols)-2))
				continue
			}
			res := c.Result
			t := spreadOf(res.Times)
			row := []string{k.String(), fmt.Sprintf("%d/%d", res.Reached(), c.Clients)}
			if f.afterConnected() {
				row = append(row, formatSpread(spreadOf(res.Detect)))
			}
			row = append(row, formatSpread(t), FormatDuration(t.P90), transports(res.Transports))
			if !f.afterConnected() {
				_, q, _ := meanUsage(res.Before)
				row = append(row, fmt.Sprintf("%.1f", q))
			}
			if f == Restart {
				row = append(row, FormatDuration(t.P99), fmt.Sprint(res.AcceptPeak))
			}
			s, q, kib := meanUsage(res.Usage)
			row = append(row, fmt.Sprintf("%.1f", s), fmt.Sprintf("%.1f", q), fmt.Sprintf("%.1f", kib))
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
}

// WriteEvents writes every cell's events, one per line: the fault, the
// kind, the time in seconds from the cell's start (or its fault), the
// client, the event, its transport and its detail.
func (r *Report) WriteEvents(w io.Writer) {
	for _, c := range r.Cells {
		t0 := c.Start
		if !c.FaultAt.IsZero() {
			t0 = c.FaultAt
		}
		for _, e := range c.Events {
			fmt.Fprintf(w, "%s\t%s\t%9.3f\t%d\t%s\t%s\t%s\n", c.Fault, c.Kind, e.At.Sub(t0).Seconds(), e.Client, e.What, e.Transport, e.Detail)
		}
	}
}

// formatFigure writes a model check's figure in its unit.
func formatFigure(v float64, unit string) string {
	switch {
	case v < 0:
		return "never"
	case unit == "ms":
		return FormatDuration(time.Duration(v * float64(time.Millisecond)))
	}
	return fmt.Sprintf("%.1f", v) // the figure's name says what is counted
}

// WriteModels writes the simulator's figures beside the real ones: one
// row per model, client and fault, with the ratio and whether the model's
// figure lies within the real figure's 95 % interval (for a fleet's
// figure: the real one within the model's 95 % of fleets).
func WriteModels(w io.Writer, checks []ModelCheck) {
	fmt.Fprintln(w, "| model (simulator) | real client | fault | figure | simulator | real [95 %] | real / sim | in the interval |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, m := range checks {
		real := formatFigure(m.Real, m.Unit)
		if m.RealLo != m.RealHi {
			real += fmt.Sprintf(" [%s, %s]", formatFigure(m.RealLo, m.Unit), formatFigure(m.RealHi, m.Unit))
		}
		simFig := formatFigure(m.Sim, m.Unit)
		if m.SimLo != m.SimHi {
			simFig += fmt.Sprintf(" [%s, %s]", formatFigure(m.SimLo, m.Unit), formatFigure(m.SimHi, m.Unit))
		}
		ratio := "–"
		if m.Sim > 0 && m.Real >= 0 {
			ratio = fmt.Sprintf("%.2f", m.Ratio())
		}
		in := "no"
		if m.Covered() {
			in = "yes"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", m.Model, m.Kind, m.Fault, m.Figure, simFig, real, ratio, in)
	}
}
