package lab

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

// TimeoutPoint is one short-circuit timeout's mean time to CONNECTED on
// one profile, in the simulator and in the lab, each with its 95 %
// interval, and its difference from the first timeout's: client by client
// in the simulator (its clients see the same network under every
// timeout), between two independent samples in the lab (its clients
// cannot).
type TimeoutPoint struct {
	ShortCircuit time.Duration
	SimMean      sim.Interval // seconds
	SimDiff      sim.Interval // seconds, paired
	LabMean      sim.Interval // seconds
	LabDiff      sim.Interval // seconds, unpaired
	SimConn      int
	LabConn      int
}

// TimeoutConfirmation is a profile's TimeoutPoints, with the clients of
// each side.
type TimeoutConfirmation struct {
	Profile    string
	SimClients int
	LabClients int
	Points     []TimeoutPoint
}

// TimeoutConfirmOptions says how ConfirmTimeouts runs both sides.
type TimeoutConfirmOptions struct {
	Timeouts   []time.Duration // the first is the reference of the differences
	SimClients int
	LabClients int
	Horizon    time.Duration // a client not connected by then counts as the horizon
	Spread     time.Duration // spreads the lab's connect requests
	Seed       uint64
	// Rounds splits each timeout's lab clients into this many runs,
	// taken round-robin over the timeouts (each round in a rotated
	// order), so that the load of a shared machine drifting during the
	// runs falls on every timeout alike; 0 means 1. A warm-up run of a few
	// clients, not counted, comes first.
	Rounds int
}

// ConfirmTimeouts runs profile p, websocket-first with the default
// configuration, at every timeout of o in the simulator and in the lab (a
// fresh server per timeout), one timeout after the other.
func ConfirmTimeouts(ctx context.Context, p Profile, o TimeoutConfirmOptions) (TimeoutConfirmation, error) {
	tc := TimeoutConfirmation{Profile: p.Name, SimClients: o.SimClients, LabClients: o.LabClients}
	if len(o.Timeouts) == 0 || o.SimClients < 2 || o.LabClients < 2 || o.Horizon <= 0 {
		return tc, fmt.Errorf("confirm timeouts: want timeouts, at least 2 clients a side and a positive horizon")
	}
	pf, err := Faults(p)
	if err != nil {
		return tc, err
	}
	st, err := sim.Run(sim.SweepConfig{Profiles: []Profile{p}, Timeouts: o.Timeouts, Policies: []engine.Policy{engine.PolicyWebSocketFirst},
		Clients: o.SimClients, Horizon: o.Horizon, Seed: o.Seed, Base: engine.AblyConfig()})
	if err != nil {
		return tc, err
	}
	secs := func(ss []sim.Sample) []float64 {
		out := make([]float64, len(ss))
		for i, s := range ss {
			out[i] = s.TimeToConnect.Seconds()
		}
		return out
	}
	ref := secs(st.Samples[0])
	lab, conn, err := labRounds(ctx, pf, o)
	if err != nil {
		return tc, err
	}
	for i, t := range o.Timeouts {
		pt := TimeoutPoint{ShortCircuit: t, SimConn: st.Cells[i].Connected}
		simSecs := secs(st.Samples[i])
		pt.SimMean = meanCI(simSecs)
		d := make([]float64, len(simSecs))
		for k := range d {
			d[k] = simSecs[k] - ref[k]
		}
		pt.SimDiff = meanCI(d)
		pt.LabConn, pt.LabMean = conn[i], meanCI(lab[i])
		pt.LabDiff = diffCI(lab[i], lab[0])
		tc.Points = append(tc.Points, pt)
	}
	return tc, nil
}

// labRounds runs the lab clients of every timeout in rounds and returns,
// per timeout, each client's time to CONNECTED in seconds and how many
// connected.
func labRounds(ctx context.Context, pf ProfileFaults, o TimeoutConfirmOptions) ([][]float64, []int, error) {
	rounds := min(max(o.Rounds, 1), o.LabClients)
	n := len(o.Timeouts)
	if _, _, err := labTimes(ctx, pf, o.Timeouts[0], min(5, o.LabClients), o); err != nil { // warm-up
		return nil, nil, err
	}
	times, conn := make([][]float64, n), make([]int, n)
	for r := range rounds {
		clients := o.LabClients/rounds + btoi(r < o.LabClients%rounds)
		for j := range n {
			i := (j + r) % n
			ts, c, err := labTimes(ctx, pf, o.Timeouts[i], clients, o)
			if err != nil {
				return nil, nil, err
			}
			times[i], conn[i] = append(times[i], ts...), conn[i]+c
		}
	}
	return times, conn, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// labTimes runs clients lab clients at short circuit t on a fresh server
// and returns each one's time to CONNECTED in seconds (the horizon if
// none) and how many connected.
func labTimes(ctx context.Context, pf ProfileFaults, t time.Duration, clients int, o TimeoutConfirmOptions) ([]float64, int, error) {
	s, err := NewServer(Options{Seed: o.Seed})
	if err != nil {
		return nil, 0, err
	}
	defer s.Close()
	if err := pf.Apply(s); err != nil {
		return nil, 0, err
	}
	cfg := engine.AblyConfig()
	cfg.ShortCircuit = t
	f, err := StartFleet(ctx, s, FleetOptions{Clients: clients, Config: cfg, Spread: o.Spread})
	if err != nil {
		return nil, 0, err
	}
	res := f.WaitConnected(o.Horizon)
	f.Stop()
	out := make([]float64, len(res))
	conn := 0
	for i, r := range res {
		out[i] = o.Horizon.Seconds()
		if r.Connected {
			out[i], conn = r.TimeToConnect.Seconds(), conn+1
		}
	}
	return out, conn, nil
}

// meanCI is the mean with its normal 95 % interval.
func meanCI(xs []float64) sim.Interval {
	m, se := meanSE(xs)
	return sim.Interval{Value: m, Lo: m - 1.96*se, Hi: m + 1.96*se}
}

// diffCI is mean(a) − mean(b) with the normal 95 % interval of two
// independent samples (Welch's standard error).
func diffCI(a, b []float64) sim.Interval {
	ma, sa := meanSE(a)
	mb, sb := meanSE(b)
	se := math.Sqrt(sa*sa + sb*sb)
	return sim.Interval{Value: ma - mb, Lo: ma - mb - 1.96*se, Hi: ma - mb + 1.96*se}
}

func meanSE(xs []float64) (mean, se float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

// Verdict compares a difference from the reference timeout with a
// threshold (seconds): "same" when its interval lies within ±threshold,
// "slower" or "faster" when it lies beyond, "no difference found" when
// it is wider than the threshold but holds 0, "unclear" otherwise.
func Verdict(d sim.Interval, threshold float64) string {
	switch {
	case d.Lo >= -threshold && d.Hi <= threshold:
		return "same"
	case d.Lo > threshold:
		return "slower"
	case d.Hi < -threshold:
		return "faster"
	case d.Lo <= 0 && d.Hi >= 0:
		return "no difference found"
	}
	return "unclear"
}

// Markdown renders confirmations as one table: per profile and timeout,
// both sides' mean and difference from the first timeout, with intervals
// and verdicts against threshold (seconds).
func Markdown(cs []TimeoutConfirmation, threshold float64) string {
	var b strings.Builder
	ms := func(v float64) string { return fmt.Sprintf("%.0f", 1000*v) }
	iv := func(i sim.Interval) string { return fmt.Sprintf("%s [%s, %s]", ms(i.Value), ms(i.Lo), ms(i.Hi)) }
	b.WriteString("| profile | short circuit | sim mean ms | sim vs first ms (paired) | sim | lab mean ms | lab vs first ms (unpaired) | lab | connected sim / lab |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range cs {
		for i, p := range c.Points {
			sv, lv := Verdict(p.SimDiff, threshold), Verdict(p.LabDiff, threshold)
			if i == 0 {
				sv, lv = "reference", "reference"
			}
			fmt.Fprintf(&b, "| %s | %v | %s | %s | %s | %s | %s | %s | %d/%d / %d/%d |\n", c.Profile, p.ShortCircuit, iv(p.SimMean), iv(p.SimDiff), sv,
				iv(p.LabMean), iv(p.LabDiff), lv, p.SimConn, c.SimClients, p.LabConn, c.LabClients)
		}
	}
	return b.String()
}
