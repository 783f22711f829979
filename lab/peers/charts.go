package peers

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/internal/sim"
)

// minX is the first-message chart's left end: 10 ms (a time below it is
// drawn there).
const minX = 0.01

// WriteFirstMessageSVG draws, one panel per fault, the share of each
// kind's clients that have their first application message by each time
// (from their start, or from the fault), on a log time axis: the further
// left and the higher, the better; a line that stays below 100 % is
// clients that never got there.
func (r *Report) WriteFirstMessageSVG(w io.Writer) error {
	m := sim.Multiples{
		Title:  fmt.Sprintf("Clients with their first application message (%d per kind; after the fault for drop, stall and restart)", r.Options.Clients),
		XLabel: "time from the client's start, or from the fault (s, log scale)", YLabel: "share of clients (%)",
		LogX: true, Columns: 4, YRef: 100,
	}
	xmax := 0.0
	for _, f := range r.Options.Faults {
		p := sim.Panel{Title: f.String()}
		var never []string
		for _, k := range r.Options.Kinds {
			c, _ := r.Cell(f, k)
			s := sim.Series{Name: k.String()}
			ts := slices.Clone(c.Result.Times)
			slices.Sort(ts)
			n := float64(len(ts))
			reached := 0
			for i, t := range ts {
				if t == Never {
					break
				}
				x := max(t.Seconds(), minX)
				s.X = append(s.X, x, x)
				s.Y = append(s.Y, 100*float64(i)/n, 100*float64(i+1)/n)
				reached++
				xmax = max(xmax, x)
			}
			if len(ts) > 0 && reached < len(ts) {
				// Flat to the window's end: the rest never got there.
				end := c.Window.Seconds()
				s.X = append(s.X, end)
				s.Y = append(s.Y, 100*float64(reached)/n)
				xmax = max(xmax, end)
				never = append(never, k.String())
			}
			if len(s.X) > 0 && s.X[0] > minX {
				s.X = append([]float64{minX}, s.X...)
				s.Y = append([]float64{0}, s.Y...)
			}
			p.Series = append(p.Series, s)
		}
		switch {
		case len(never) > len(r.Options.Kinds)/2:
			var rest []string
			for _, k := range r.Options.Kinds {
				if !slices.Contains(never, k.String()) {
					rest = append(rest, k.String())
				}
			}
			p.Corner = "all but " + strings.Join(rest, ", ") + " short of 100 %"
		case len(never) > 0:
			p.Corner = strings.Join(never, ", ") + " short of 100 %"
		}
		m.Panels = append(m.Panels, p)
	}
	m.XMax = math.Pow(10, math.Ceil(math.Log10(max(xmax, 0.01))))
	return m.WriteSVG(w)
}

// WriteRestartSVG draws, one panel per kind, the connections the proxy
// accepted per second over time after the restart (100 ms intervals),
// with the hosts' return and the time 99 % of the clients were back
// marked.
func (r *Report) WriteRestartSVG(w io.Writer) error {
	m := sim.Multiples{
		Title: fmt.Sprintf("Connections accepted per second after a restart (%d clients per kind, the hosts down %v)",
			r.Options.ClientsUnder(Restart), r.Options.Downtime),
		XLabel: "time since the restart (s)", YLabel: "connections accepted per second, over 100 ms", Columns: 3,
	}
	const bucket = 100 * time.Millisecond
	xmax := 0.0
	for _, k := range r.Options.Kinds {
		c, ok := r.Cell(Restart, k)
		if !ok {
			continue
		}
		var counts []float64
		for _, at := range c.Result.Accepts {
			b := int(at / bucket)
			for len(counts) <= b {
				counts = append(counts, 0)
			}
			counts[b] += float64(time.Second / bucket)
		}
		s := sim.Series{Name: "accepted"}
		for b, v := range counts {
			s.X = append(s.X, (time.Duration(b) * bucket).Seconds())
			s.Y = append(s.Y, v)
		}
		t := spreadOf(c.Result.Times)
		back := "never"
		if t.N > 0 && t.P99 != Never {
			back = fmt.Sprintf("%.1f s", t.P99.Seconds())
		}
		title := fmt.Sprintf("%s · peak %d/s · 99 %% %s", k, c.Result.AcceptPeak, back)
		p := sim.Panel{Title: title, Series: []sim.Series{s}}
		if !c.BackAt.IsZero() {
			p.Marks = append(p.Marks, sim.Mark{X: c.BackAt.Sub(c.FaultAt).Seconds(), Label: "hosts back"})
		}
		if t.P99 != Never && t.N > 0 {
			p.Marks = append(p.Marks, sim.Mark{X: t.P99.Seconds(), Label: "99 %"})
			xmax = max(xmax, t.P99.Seconds())
		}
		if len(s.X) > 0 {
			xmax = max(xmax, s.X[len(s.X)-1])
		}
		m.Panels = append(m.Panels, p)
	}
	m.XMax = math.Ceil(xmax + 1)
	return m.WriteSVG(w)
}
