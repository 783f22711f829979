package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// SweepConfig says what Sweep simulates: every profile under every policy,
// and websocket-first under every short-circuit timeout; Clients clients
// per cell, each from a connect request until CONNECTED or Horizon.
type SweepConfig struct {
	Profiles []Profile
	Timeouts []time.Duration
	Policies []engine.Policy
	Clients  int
	Horizon  time.Duration
	Seed     uint64
	// Base is the engine configuration the cells start from (its Policy,
	// ShortCircuit and Source are set per cell).
	Base engine.Config
	// MaxSteps, if positive, bounds the engine steps of the whole sweep.
	MaxSteps int64
	// Progress, if set, is called every few hundred clients with the
	// clients simulated so far and the total over all cells.
	Progress func(done, total int)
}

// Cell is one (profile, policy, short-circuit timeout) combination's
// results. Per-connection figures are means over the cell's clients.
type Cell struct {
	Profile      string        `json:"profile"`
	Policy       string        `json:"policy"`
	ShortCircuit time.Duration `json:"shortCircuitNs"` // 0 for policies without one
	Clients      int           `json:"clients"`
	Connected    int           `json:"connected"`
	// Time to CONNECTED; a client that never connected counts as the
	// horizon.
	Mean time.Duration `json:"meanNs"`
	P50  time.Duration `json:"p50Ns"`
	P90  time.Duration `json:"p90Ns"`
	P99  time.Duration `json:"p99Ns"`
	// Outcomes[k] is the share of clients with the proposal's outcome k+1
	// (websocket-first only).
	Outcomes           [5]float64 `json:"outcomes"`
	Opened             float64    `json:"openedPerConnection"`
	HTTPOpened         float64    `json:"httpOpenedPerConnection"`
	HTTPWasted         float64    `json:"httpWastedPerConnection"`
	Wasted             float64    `json:"wastedPerConnection"`
	FallbackRequests   float64    `json:"fallbackRequestsPerConnection"`
	ConnectivityChecks float64    `json:"connectivityChecksPerConnection"`
	WebSocketChecks    float64    `json:"webSocketChecksPerConnection"`
	// Steps is the number of engine steps the cell took: its work.
	Steps int64 `json:"engineSteps"`
	// Intervals are 95 % confidence intervals of the figures above.
	Intervals Intervals `json:"intervals95"`
}

// ErrSweepBudget is returned (wrapped) when a sweep takes more engine
// steps than SweepConfig.MaxSteps.
var ErrSweepBudget = errors.New("sweep: step budget exceeded")

// plan is one cell to simulate.
type plan struct {
	p      Profile
	policy engine.Policy
	sc     time.Duration
}

// plans lists the cells in Sweep's order: profiles, then policies, then
// timeouts.
func (sc SweepConfig) plans() []plan {
	var plans []plan
	for _, p := range sc.Profiles {
		for _, pol := range sc.Policies {
			if pol == engine.PolicyWebSocketFirst {
				for _, t := range sc.Timeouts {
					plans = append(plans, plan{p, pol, t})
				}
			} else {
				plans = append(plans, plan{p, pol, 0})
			}
		}
	}
	return plans
}

// config is the engine configuration of plan pl.
func (sc SweepConfig) config(pl plan) (engine.Config, error) {
	cfg := sc.Base
	cfg.Policy = pl.policy
	cfg.ShortCircuit = pl.sc
	if cfg.ShortCircuit == 0 {
		cfg.ShortCircuit = reconnect.DefaultShortCircuit
	}
	return cfg, cfg.Validate()
}

// Sample is one simulated client's figures in a cell.
type Sample struct {
	TimeToConnect time.Duration // the horizon when not connected
	Wasted        int32         // transports closed while still healthy
	Connected     bool
}

// Study is a sweep's cells with every client's figures: Samples[i] are
// Cells[i]'s clients in order, and client k of every cell of one profile
// saw the same network (common random numbers), so figures of two cells
// of a profile compare client by client.
type Study struct {
	Cells   []Cell
	Samples [][]Sample
}

// Sweep runs the cells and returns them without the clients' figures.
func Sweep(sc SweepConfig) ([]Cell, error) {
	st, err := Run(sc)
	return st.Cells, err
}

// Run runs the cells in a fixed order (profiles, then policies, then
// timeouts). Client k of a profile draws its network (every attempt's
// fate and latency, every check's answer, the flap phase) and its
// engine's jitter from streams seeded by (Seed, profile name, k), one
// stream per purpose, in every cell of that profile: the cells differ only
// by their configuration, and a profile's figures do not depend on which
// other profiles are simulated. The result depends on nothing but the
// configuration. With MaxSteps set it stops with ErrSweepBudget once the
// cells have taken more engine steps.
func Run(sc SweepConfig) (Study, error) {
	plans := sc.plans()
	st := Study{Cells: make([]Cell, 0, len(plans)), Samples: make([][]Sample, 0, len(plans))}
	var steps int64
	for i, pl := range plans {
		cfg, err := sc.config(pl)
		if err != nil {
			return Study{}, err
		}
		var progress func(int)
		if sc.Progress != nil {
			total := len(plans) * sc.Clients
			progress = func(done int) { sc.Progress(i*sc.Clients+done, total) }
		}
		cell, samples := runCell(pl.p, cfg, pl.sc, sc.Clients, sc.Horizon, family(sc.Seed, pl.p.Name), progress)
		if steps += cell.Steps; sc.MaxSteps > 0 && steps > sc.MaxSteps {
			return Study{}, fmt.Errorf("%w: more than %d engine steps after %d of %d cells", ErrSweepBudget, sc.MaxSteps, i+1, len(plans))
		}
		st.Cells = append(st.Cells, cell)
		st.Samples = append(st.Samples, samples)
	}
	return st, nil
}

// family is the stream family of a profile's clients under seed.
func family(seed uint64, profile string) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for _, b := range []byte(profile) {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return mix64(seed) ^ h
}

// pilotCells is how many cells EstimateSteps samples at most.
const pilotCells = 48

// EstimateSteps predicts the engine steps Sweep(sc) will take from a
// pilot: up to pilotCells cells spread evenly over the sweep, pilot clients
// each (fewer if sc.Clients is smaller), with the cells' own streams.
func EstimateSteps(sc SweepConfig, pilot int) (int64, error) {
	plans := sc.plans()
	if len(plans) == 0 || sc.Clients <= 0 {
		return 0, nil
	}
	pilot = max(1, min(pilot, sc.Clients))
	sampled := min(len(plans), pilotCells)
	var steps float64
	for k := range sampled {
		i := k * len(plans) / sampled
		cfg, err := sc.config(plans[i])
		if err != nil {
			return 0, err
		}
		cell, _ := runCell(plans[i].p, cfg, plans[i].sc, pilot, sc.Horizon, family(sc.Seed, plans[i].p.Name), nil)
		steps += float64(cell.Steps)
	}
	perClient := steps / float64(sampled*pilot)
	return int64(perClient * float64(len(plans)) * float64(sc.Clients)), nil
}

// runCell simulates clients clients of stream family fam on p.
func runCell(p Profile, cfg engine.Config, shortCircuit time.Duration, clients int, horizon time.Duration, fam uint64, progress func(done int)) (Cell, []Sample) {
	c := Cell{Profile: p.Name, Policy: cfg.Policy.String(), ShortCircuit: shortCircuit, Clients: clients}
	times := make([]time.Duration, 0, clients)
	samples := make([]Sample, 0, clients)
	var sum time.Duration
	var counts [6]running // opened, HTTP opened, HTTP wasted, fallback, connectivity checks, websocket checks
	cl := newPairedClient(cfg)
	for k := range clients {
		if progress != nil && k%256 == 0 {
			progress(k)
		}
		cl.reseed(fam, uint64(k))
		res := cl.run(p, horizon)
		samples = append(samples, Sample{TimeToConnect: res.TimeToConnect, Wasted: int32(min(res.Wasted, math.MaxInt32)), Connected: res.Connected})
		c.Steps += int64(res.Steps)
		times = append(times, res.TimeToConnect)
		sum += res.TimeToConnect
		if res.Connected {
			c.Connected++
		}
		if res.Outcome > 0 {
			c.Outcomes[res.Outcome-1]++
		}
		for i, v := range [...]int{res.Opened, res.HTTPOpened, res.HTTPWasted, res.FallbackRequests, res.ConnectivityChecks, res.WebSocketChecks} {
			counts[i].add(float64(v))
		}
		c.Opened += float64(res.Opened)
		c.HTTPOpened += float64(res.HTTPOpened)
		c.HTTPWasted += float64(res.HTTPWasted)
		c.Wasted += float64(res.Wasted)
		c.FallbackRequests += float64(res.FallbackRequests)
		c.ConnectivityChecks += float64(res.ConnectivityChecks)
		c.WebSocketChecks += float64(res.WebSocketChecks)
	}
	if progress != nil {
		progress(clients)
	}
	n := float64(max(clients, 1))
	for k := range c.Outcomes {
		c.Outcomes[k] /= n
	}
	for _, f := range []*float64{&c.Opened, &c.HTTPOpened, &c.HTTPWasted, &c.Wasted, &c.FallbackRequests, &c.ConnectivityChecks, &c.WebSocketChecks} {
		*f /= n
	}
	slices.Sort(times)
	if len(times) > 0 {
		c.Mean = sum / time.Duration(len(times))
		c.P50, c.P90, c.P99 = quantile(times, 0.50), quantile(times, 0.90), quantile(times, 0.99)
	}
	c.Intervals = intervals(samples, times)
	for k, o := range c.Outcomes {
		c.Intervals.Outcomes[k] = wilson(int(math.Round(o*n)), clients)
	}
	iv := &c.Intervals
	for i, f := range []*Interval{&iv.Opened, &iv.HTTPOpened, &iv.HTTPWasted, &iv.FallbackRequests, &iv.ConnectivityChecks, &iv.WebSocketChecks} {
		*f = counts[i].interval()
	}
	return c, samples
}

// quantile is the nearest-rank quantile of sorted values.
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// Cost prices a cell: PerSecond for each second of mean time to CONNECTED
// plus PerWasted for each transport the engine closed while it was still
// healthy (work the short circuit threw away), per connection.
type Cost struct {
	PerSecond float64
	PerWasted float64
}

// Of returns the cost of one cell.
func (c Cost) Of(cell Cell) float64 {
	return c.PerSecond*cell.Mean.Seconds() + c.PerWasted*cell.Wasted
}

// Recommendation is the best short-circuit timeout for a mix of profiles.
type Recommendation struct {
	Mix     map[string]float64
	Cost    Cost
	Best    time.Duration
	ByValue []TimeoutCost // every timeout tried, in order
}

// TimeoutCost is one timeout's cost under a mix.
type TimeoutCost struct {
	Timeout time.Duration
	Cost    float64
	Mean    time.Duration // the mix's mean time to CONNECTED
	Wasted  float64       // the mix's wasted transports per connection
}

// Recommend weighs the websocket-first cells of each timeout by mix (profile
// name → weight; weights are normalized and must be finite, non-negative
// and add up to a positive finite number) and returns the timeout of least
// cost. Profiles of the mix missing from cells are an error. It indexes the
// cells once: O(cells + timeouts × mix).
func Recommend(cells []Cell, mix map[string]float64, cost Cost) (Recommendation, error) {
	rec := Recommendation{Mix: mix, Cost: cost}
	total := 0.0
	for name, w := range mix {
		if !(w >= 0) || math.IsInf(w, 0) {
			return rec, fmt.Errorf("the weight of %q is %v; want a finite number ≥ 0", name, w)
		}
		total += w
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return rec, fmt.Errorf("the mix's weights add up to %v; want a positive finite sum", total)
	}
	type key struct {
		profile string
		timeout time.Duration
	}
	index := map[key]int{}
	var timeouts []time.Duration
	for i, c := range cells {
		if c.Policy != engine.PolicyWebSocketFirst.String() {
			continue
		}
		if _, ok := index[key{"", c.ShortCircuit}]; !ok {
			index[key{"", c.ShortCircuit}] = -1
			timeouts = append(timeouts, c.ShortCircuit)
		}
		index[key{c.Profile, c.ShortCircuit}] = i
	}
	if len(timeouts) == 0 {
		return rec, fmt.Errorf("no websocket-first cells to recommend from")
	}
	slices.Sort(timeouts)
	names := make([]string, 0, len(mix))
	for name := range mix {
		names = append(names, name)
	}
	slices.Sort(names) // a fixed order: the same sums on every run
	bestCost := math.Inf(1)
	for _, t := range timeouts {
		tc := TimeoutCost{Timeout: t}
		var meanSec float64
		for _, name := range names {
			w := mix[name]
			i, ok := index[key{name, t}]
			if !ok {
				return rec, fmt.Errorf("the mix names profile %q, which was not simulated", name)
			}
			tc.Cost += w / total * cost.Of(cells[i])
			meanSec += w / total * cells[i].Mean.Seconds()
			tc.Wasted += w / total * cells[i].Wasted
		}
		tc.Mean = time.Duration(meanSec * float64(time.Second))
		rec.ByValue = append(rec.ByValue, tc)
		if tc.Cost < bestCost || len(rec.ByValue) == 1 {
			rec.Best, bestCost = t, tc.Cost
		}
	}
	return rec, nil
}

// BestByProfile returns, for every profile with a websocket-first cell in
// which some client connected, the timeout of least cost for that profile
// alone, in one pass over the cells (ties go to the shorter timeout).
// It is a point estimate, which moves with the sample when timeouts are
// about as good: Bands says which timeouts are as good as the best.
func BestByProfile(cells []Cell, cost Cost) map[string]time.Duration {
	type best struct {
		timeout   time.Duration
		cost      float64
		connected bool
	}
	bests := map[string]best{}
	for _, c := range cells {
		if c.Policy != engine.PolicyWebSocketFirst.String() {
			continue
		}
		v := cost.Of(c)
		b, ok := bests[c.Profile]
		if !ok || v < b.cost || (v == b.cost && c.ShortCircuit < b.timeout) {
			b.timeout, b.cost = c.ShortCircuit, v
		}
		b.connected = b.connected || c.Connected > 0
		bests[c.Profile] = b
	}
	out := map[string]time.Duration{}
	for name, b := range bests {
		if b.connected {
			out[name] = b.timeout
		}
	}
	return out
}
