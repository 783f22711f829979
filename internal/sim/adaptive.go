package sim

// The adaptive short circuit's study: the websocket-first cells under
// each adaptive rule, paired client by client with the fixed timer.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// AdaptiveConfig says what CompareAdaptive simulates: every profile of
// Sweep under websocket-first, with the fixed short circuit at each of
// Sweep.Timeouts (the ceilings) and with each rule of Rules under each
// ceiling. Sweep.Policies and Sweep.Base.Adaptive are ignored. Mix weighs
// the profiles (normalized over those simulated; empty: no mix rows).
type AdaptiveConfig struct {
	Sweep SweepConfig
	Rules []engine.AdaptiveShortCircuit
	Cost  Cost
	Mix   map[string]float64
}

// AdaptiveRow is one configuration on one profile (or "mix"): the fixed
// timer (Rule off) or a rule, under Ceiling. Costs are in milliseconds per
// connection (Cost's price of a second is 1000 ms), with 95 % intervals;
// VsFixed is the paired difference of the cost from the fixed timer at the
// same ceiling, VsBest from the best fixed timer of the profile (the one
// of least mean cost, BestFixed); negative is better.
type AdaptiveRow struct {
	Profile   string                      `json:"profile"`
	Rule      engine.AdaptiveShortCircuit `json:"rule"`
	Ceiling   time.Duration               `json:"ceilingNs"`
	Cost      Interval                    `json:"costMs"`
	Mean      Interval                    `json:"meanMs"`
	Wasted    Interval                    `json:"wastedPerConnection"`
	VsFixed   Interval                    `json:"vsFixedMs"`
	VsBest    Interval                    `json:"vsBestFixedMs"`
	BestFixed time.Duration               `json:"bestFixedNs"`
}

// CompareAdaptive runs the study. Client k of a profile meets the same
// network under every configuration (common random numbers, Run); the
// dial reports come from a stream of their own, so the fixed timer's
// clients are those of the timeout study.
func CompareAdaptive(ac AdaptiveConfig) ([]AdaptiveRow, error) {
	if len(ac.Sweep.Timeouts) == 0 || len(ac.Sweep.Profiles) == 0 {
		return nil, errors.New("adaptive: want at least one profile and one ceiling")
	}
	sc := ac.Sweep
	sc.Policies = []engine.Policy{engine.PolicyWebSocketFirst}
	sc.Base.Adaptive = engine.AdaptiveShortCircuit{}
	fixed, err := Run(sc)
	if err != nil {
		return nil, err
	}
	studies := []Study{fixed}
	rules := append([]engine.AdaptiveShortCircuit{{}}, ac.Rules...)
	for _, r := range ac.Rules {
		if !r.On() {
			return nil, fmt.Errorf("adaptive: rule %+v is off", r)
		}
		sc.Base.Adaptive = r
		st, err := Run(sc)
		if err != nil {
			return nil, err
		}
		studies = append(studies, st)
	}
	costOf := func(s Sample) float64 {
		return 1000 * (ac.Cost.PerSecond*s.TimeToConnect.Seconds() + ac.Cost.PerWasted*float64(s.Wasted))
	}
	type key struct{ rule, ceil int }
	type stats struct{ cost, mean, wasted, vsFixed, vsBest moments }
	names := profileOrder(fixed)
	per := map[string]map[key]stats{}
	bestOf := map[string]int{}
	var ceilings []time.Duration
	for _, name := range names {
		ts, idx := wsFirstCells(fixed, name)
		ceilings = ts
		best := 0
		for j := range idx {
			if meanOf(fixed.Samples[idx[j]], costOf) < meanOf(fixed.Samples[idx[best]], costOf) {
				best = j
			}
		}
		bestOf[name] = best
		per[name] = map[key]stats{}
		for ri, st := range studies {
			_, ridx := wsFirstCells(st, name)
			for j := range ridx {
				per[name][key{ri, j}] = pairStats(st.Samples[ridx[j]], fixed.Samples[idx[j]], fixed.Samples[idx[best]], costOf)
			}
		}
	}
	var rows []AdaptiveRow
	for _, name := range names {
		for ri, r := range rules {
			for j, c := range ceilings {
				s := per[name][key{ri, j}]
				rows = append(rows, AdaptiveRow{Profile: name, Rule: r, Ceiling: c, Cost: s.cost.interval(), Mean: s.mean.interval(),
					Wasted: s.wasted.interval(), VsFixed: s.vsFixed.interval(), VsBest: s.vsBest.interval(), BestFixed: ceilings[bestOf[name]]})
			}
		}
	}
	w, total := map[string]float64{}, 0.0
	for _, name := range names {
		if x := ac.Mix[name]; x > 0 && !math.IsInf(x, 0) {
			w[name], total = x, total+x
		}
	}
	if total == 0 {
		return rows, nil
	}
	// The mix's best fixed timer, then every configuration's paired
	// difference from it, profile by profile.
	bestMix, bestCost := 0, math.Inf(1)
	for j := range ceilings {
		c := 0.0
		for name, x := range w {
			c += x / total * per[name][key{0, j}].cost.mean
		}
		if c < bestCost {
			bestMix, bestCost = j, c
		}
	}
	for ri, r := range rules {
		for j, c := range ceilings {
			var m stats
			for _, name := range names {
				x := w[name] / total
				if x == 0 {
					continue
				}
				s := per[name][key{ri, j}]
				m.cost.add(x, s.cost)
				m.mean.add(x, s.mean)
				m.wasted.add(x, s.wasted)
				m.vsFixed.add(x, s.vsFixed)
				_, ridx := wsFirstCells(studies[ri], name)
				_, idx := wsFirstCells(fixed, name)
				m.vsBest.add(x, pairStats(studies[ri].Samples[ridx[j]], fixed.Samples[idx[j]], fixed.Samples[idx[bestMix]], costOf).vsBest)
			}
			rows = append(rows, AdaptiveRow{Profile: "mix", Rule: r, Ceiling: c, Cost: m.cost.interval(), Mean: m.mean.interval(),
				Wasted: m.wasted.interval(), VsFixed: m.vsFixed.interval(), VsBest: m.vsBest.interval(), BestFixed: ceilings[bestMix]})
		}
	}
	return rows, nil
}

func meanOf(xs []Sample, f func(Sample) float64) float64 {
	sum := 0.0
	for _, s := range xs {
		sum += f(s)
	}
	return sum / float64(max(len(xs), 1))
}

// pairStats are the moments of a's cost, time and waste, and of its cost
// minus fixed's and minus best's, client by client.
func pairStats(a, fixed, best []Sample, costOf func(Sample) float64) (s struct{ cost, mean, wasted, vsFixed, vsBest moments }) {
	n := len(a)
	cost, mean, wasted, df, db := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for k := range a {
		cost[k] = costOf(a[k])
		mean[k] = float64(a[k].TimeToConnect) / float64(time.Millisecond)
		wasted[k] = float64(a[k].Wasted)
		df[k] = cost[k] - costOf(fixed[k])
		db[k] = cost[k] - costOf(best[k])
	}
	s.cost, s.mean, s.wasted, s.vsFixed, s.vsBest = momentsOf(cost), momentsOf(mean), momentsOf(wasted), momentsOf(df), momentsOf(db)
	return s
}

// AdaptiveRules is every rule of multiples × floors, in that order.
func AdaptiveRules(multiples []float64, floors []time.Duration) []engine.AdaptiveShortCircuit {
	var out []engine.AdaptiveShortCircuit
	for _, k := range multiples {
		for _, f := range floors {
			out = append(out, engine.AdaptiveShortCircuit{Multiple: k, Floor: f})
		}
	}
	return slices.Clip(out)
}
