package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect"
)

// SweepConfig says what Sweep simulates: every profile under every policy,
// and websocket-first under every short-circuit timeout; Clients clients
// per cell, each from a connect request until CONNECTED or Horizon.
type SweepConfig struct {
	Profiles []Profile
	Timeouts []time.Duration
	Policies []reconnect.Policy
	Clients  int
	Horizon  time.Duration
	Seed     uint64
	// Base is the engine configuration the cells start from (its Policy,
	// ShortCircuit and Source are set per cell).
	Base reconnect.Config
	// Progress, if set, is called after each cell.
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
}

// Sweep runs the cells in a fixed order (profiles, then policies, then
// timeouts) with a random stream per cell derived from Seed, so the result
// depends on nothing but its configuration.
func Sweep(sc SweepConfig) ([]Cell, error) {
	type plan struct {
		p      Profile
		policy reconnect.Policy
		sc     time.Duration
	}
	var plans []plan
	for _, p := range sc.Profiles {
		for _, pol := range sc.Policies {
			if pol == reconnect.PolicyWebSocketFirst {
				for _, t := range sc.Timeouts {
					plans = append(plans, plan{p, pol, t})
				}
			} else {
				plans = append(plans, plan{p, pol, 0})
			}
		}
	}
	cells := make([]Cell, 0, len(plans))
	for i, pl := range plans {
		cfg := sc.Base
		cfg.Policy = pl.policy
		cfg.ShortCircuit = pl.sc
		if cfg.ShortCircuit == 0 {
			cfg.ShortCircuit = reconnect.DefaultShortCircuit
		}
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		r := rand.New(rand.NewPCG(sc.Seed, uint64(i)+1))
		cells = append(cells, runCell(pl.p, cfg, pl.sc, sc.Clients, sc.Horizon, r))
		if sc.Progress != nil {
			sc.Progress(i+1, len(plans))
		}
	}
	return cells, nil
}

func runCell(p Profile, cfg reconnect.Config, shortCircuit time.Duration, clients int, horizon time.Duration, r *rand.Rand) Cell {
	c := Cell{Profile: p.Name, Policy: cfg.Policy.String(), ShortCircuit: shortCircuit, Clients: clients}
	times := make([]time.Duration, 0, clients)
	var sum time.Duration
	cl := newClient(cfg, r)
	for range clients {
		res := cl.run(p, horizon)
		times = append(times, res.TimeToConnect)
		sum += res.TimeToConnect
		if res.Connected {
			c.Connected++
		}
		if res.Outcome > 0 {
			c.Outcomes[res.Outcome-1]++
		}
		c.Opened += float64(res.Opened)
		c.HTTPOpened += float64(res.HTTPOpened)
		c.HTTPWasted += float64(res.HTTPWasted)
		c.Wasted += float64(res.Wasted)
		c.FallbackRequests += float64(res.FallbackRequests)
		c.ConnectivityChecks += float64(res.ConnectivityChecks)
		c.WebSocketChecks += float64(res.WebSocketChecks)
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
	return c
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
// name → weight; weights are normalized) and returns the timeout of least
// cost. Profiles of the mix missing from cells are an error.
func Recommend(cells []Cell, mix map[string]float64, cost Cost) (Recommendation, error) {
	rec := Recommendation{Mix: mix, Cost: cost}
	total := 0.0
	for _, w := range mix {
		total += w
	}
	if !(total > 0) {
		return rec, fmt.Errorf("the mix has no positive weight")
	}
	var timeouts []time.Duration
	for _, c := range cells {
		if c.Policy == reconnect.PolicyWebSocketFirst.String() && !slices.Contains(timeouts, c.ShortCircuit) {
			timeouts = append(timeouts, c.ShortCircuit)
		}
	}
	slices.Sort(timeouts)
	for _, t := range timeouts {
		tc := TimeoutCost{Timeout: t}
		var meanSec float64
		for name, w := range mix {
			i := slices.IndexFunc(cells, func(c Cell) bool {
				return c.Profile == name && c.ShortCircuit == t && c.Policy == reconnect.PolicyWebSocketFirst.String()
			})
			if i < 0 {
				return rec, fmt.Errorf("the mix names profile %q, which was not simulated", name)
			}
			tc.Cost += w / total * cost.Of(cells[i])
			meanSec += w / total * cells[i].Mean.Seconds()
			tc.Wasted += w / total * cells[i].Wasted
		}
		tc.Mean = time.Duration(meanSec * float64(time.Second))
		rec.ByValue = append(rec.ByValue, tc)
		if len(rec.ByValue) == 1 || tc.Cost < rec.ByValue[slices.IndexFunc(rec.ByValue, func(x TimeoutCost) bool { return x.Timeout == rec.Best })].Cost {
			rec.Best = t
		}
	}
	if len(timeouts) == 0 {
		return rec, fmt.Errorf("no websocket-first cells to recommend from")
	}
	return rec, nil
}
