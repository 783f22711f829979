package sim

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// The storm-safe option's aims, on a storm: peak attempts per second at
// least AimPeakRatio times lower than rtb1's; 99 % reconnected no later
// than AimT99Ratio times full jitter's time; and a healthy client's median
// time from a drop to CONNECTED at most half the reconnect window longer
// than today's.
const (
	AimPeakRatio = 5
	AimT99Ratio  = 1.1
)

// TradeoffRow is one setting of the storm-safe options and its figures.
type TradeoffRow struct {
	Safe          SafeOptions   `json:"safe"`
	PeakPerSecond float64       `json:"peakPerSecond"`
	PeakRatio     float64       `json:"peakRatio"` // rtb1's peak over this one's
	T99           time.Duration `json:"t99Ns"`
	T99Ratio      float64       `json:"t99Ratio"` // this T99 over full jitter's
	Total         int           `json:"totalAttempts"`
	// DropMedian is a healthy client's median time from a drop to
	// CONNECTED with this window; DropAdded the same minus today's.
	DropMedian time.Duration `json:"dropMedianNs"`
	DropAdded  time.Duration `json:"dropAddedNs"`
	// MeetsAims reports the three aims: peak, T99, drop.
	MeetsAims [3]bool `json:"meetsAims"`
}

// Tradeoff is the storm-safe option's trade-off on one storm.
type Tradeoff struct {
	RTB1 StormResult `json:"rtb1"`
	Full StormResult `json:"full"`
	// DropMedian is today's healthy median time from a drop to CONNECTED.
	DropMedian time.Duration `json:"dropMedianNs"`
	Rows       []TradeoffRow `json:"rows"`
}

// SafeTradeoff runs the storm base (its Strategy and Safe are ignored)
// under rtb1, full and rtb1-safe with every combination of windows,
// immediate shares, retry spreads and suspended spreads, and measures each window's cost to
// dropClients healthy clients' reconnect after a drop (real engines).
// progress, if set, is called after each storm.
func SafeTradeoff(base StormConfig, windows []time.Duration, shares, retry, suspended []float64, dropClients int, progress func(done, total int)) (Tradeoff, error) {
	total := 2 + len(windows)*len(shares)*len(retry)*len(suspended)
	done := 0
	run := func(s Strategy, o SafeOptions) (StormResult, error) {
		sc := base
		sc.Strategy, sc.Safe, sc.Progress = s, o, nil
		r, err := Storm(sc)
		r.Attempts = nil
		done++
		if progress != nil {
			progress(done, total)
		}
		return r, err
	}
	var t Tradeoff
	var err error
	if t.RTB1, err = run(StrategyRTB1, SafeOptions{}); err != nil {
		return t, err
	}
	if t.Full, err = run(StrategyFull, SafeOptions{}); err != nil {
		return t, err
	}
	t.DropMedian = dropMedian(SafeOptions{}, dropClients, base.Seed)
	for _, w := range windows {
		for _, share := range shares {
			dm := dropMedian(SafeOptions{Window: w, ImmediateShare: share}, dropClients, base.Seed)
			for _, rs := range retry {
				for _, ss := range suspended {
					o := SafeOptions{Window: w, ImmediateShare: share, RetrySpread: rs, SuspendedSpread: ss}
					r, err := run(StrategyRTB1Safe, o)
					if err != nil {
						return t, err
					}
					row := TradeoffRow{Safe: o, PeakPerSecond: r.PeakPerSecond, T99: r.T99, Total: r.Total,
						PeakRatio: t.RTB1.PeakPerSecond / r.PeakPerSecond, T99Ratio: r.T99.Seconds() / t.Full.T99.Seconds(),
						DropMedian: dm, DropAdded: dm - t.DropMedian}
					row.MeetsAims = [3]bool{row.PeakRatio >= AimPeakRatio, row.T99Ratio <= AimT99Ratio, row.DropAdded <= w/2}
					t.Rows = append(t.Rows, row)
				}
			}
		}
	}
	return t, nil
}

// dropMedian is the median time from a drop to CONNECTED of n healthy
// clients with the reconnect window of o (the same draws for every o).
func dropMedian(o SafeOptions, n int, seed uint64) time.Duration {
	if n <= 0 {
		return 0
	}
	cfg := engine.AblyConfig()
	cfg.ReconnectWindow, cfg.ImmediateShare = o.Window, o.ImmediateShare
	cl := newClient(cfg, rand.New(rand.NewPCG(seed, 99)))
	ts := make([]time.Duration, 0, n)
	healthy := Builtin()[0]
	for range n {
		ts = append(ts, cl.runFrom(healthy, time.Minute, true).TimeToConnect)
	}
	slices.Sort(ts)
	return quantile(ts, 0.5)
}
