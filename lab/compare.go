package lab

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

// Comparison is one profile's time to CONNECTED in the simulator and in
// the lab, for the same engine configuration and number of clients. A
// client that did not connect within the horizon counts as the horizon on
// both sides (the simulator's rule).
type Comparison struct {
	Profile           string
	Clients           int
	SimMean, SimP90   time.Duration
	LabMean, LabP90   time.Duration
	SimConn, LabConn  int // clients that connected
	LabWS, LabHTTP    int // lab clients first CONNECTED on each transport
	SimOutcomes       [5]float64
	Elapsed           time.Duration // the lab run's wall time
	ShortCircuit      time.Duration
	Horizon           time.Duration
	ConnectRequests   int // connect requests the lab server received
	FallbackRequests  int // of which on fallback hosts
	SimOpened         float64
	SimFallbackOpened float64
}

// CompareOptions says how Compare runs both sides.
type CompareOptions struct {
	Config  engine.Config // the engine configuration (websocket-first)
	Clients int
	Horizon time.Duration
	// Spread spreads the lab's connect requests (the simulator's clients
	// are independent anyway).
	Spread time.Duration
	Seed   uint64
}

// Compare runs p in the simulator and in the lab.
func Compare(ctx context.Context, p Profile, o CompareOptions) (Comparison, error) {
	pf, err := Faults(p)
	if err != nil {
		return Comparison{}, err
	}
	cfg := o.Config
	cfg.Policy = engine.PolicyWebSocketFirst
	c := Comparison{Profile: p.Name, Clients: o.Clients, ShortCircuit: cfg.ShortCircuit, Horizon: o.Horizon}
	cells, err := sim.Sweep(sim.SweepConfig{Profiles: []Profile{p}, Timeouts: []time.Duration{cfg.ShortCircuit},
		Policies: []engine.Policy{engine.PolicyWebSocketFirst}, Clients: o.Clients, Horizon: o.Horizon, Seed: o.Seed, Base: cfg})
	if err != nil {
		return c, err
	}
	cell := cells[0]
	c.SimMean, c.SimP90, c.SimConn, c.SimOutcomes = cell.Mean, cell.P90, cell.Connected, cell.Outcomes
	c.SimOpened, c.SimFallbackOpened = cell.Opened, cell.FallbackRequests

	var mu countingEvents
	s, err := NewServer(Options{Seed: o.Seed, OnEvent: mu.add})
	if err != nil {
		return c, err
	}
	defer s.Close()
	if err := pf.Apply(s); err != nil {
		return c, err
	}
	t0 := time.Now()
	f, err := StartFleet(ctx, s, FleetOptions{Clients: o.Clients, Config: cfg, Spread: o.Spread})
	if err != nil {
		return c, err
	}
	res := f.WaitConnected(o.Horizon)
	f.Stop()
	c.Elapsed = time.Since(t0)
	times := make([]time.Duration, len(res))
	var sum time.Duration
	for i, r := range res {
		times[i] = o.Horizon
		if r.Connected {
			times[i] = r.TimeToConnect
			c.LabConn++
			if r.Transport == reconnect.WebSocket {
				c.LabWS++
			} else {
				c.LabHTTP++
			}
		}
		sum += times[i]
	}
	slices.Sort(times)
	c.LabMean, c.LabP90 = sum/time.Duration(len(times)), Percentile(times, 0.9)
	c.ConnectRequests, c.FallbackRequests = mu.requests(s.Primary())
	return c, nil
}

// Ratio is lab / simulator, or 0 when the simulator's value is 0.
func Ratio(lab, sim time.Duration) float64 {
	if sim == 0 {
		return 0
	}
	return float64(lab) / float64(sim)
}

// Row renders c as a Markdown table row: profile, clients, mean (sim,
// lab, ratio), p90 (sim, lab, ratio), connected (sim, lab).
func (c Comparison) Row() string {
	return fmt.Sprintf("| %s | %d | %v | %v | %.2f | %v | %v | %.2f | %d / %d |", c.Profile, c.Clients,
		round(c.SimMean), round(c.LabMean), Ratio(c.LabMean, c.SimMean),
		round(c.SimP90), round(c.LabP90), Ratio(c.LabP90, c.SimP90), c.SimConn, c.LabConn)
}

// RowHeader is the header of Row's table.
const RowHeader = "| profile | clients | sim mean | lab mean | lab/sim | sim p90 | lab p90 | lab/sim | connected sim / lab |\n|---|---|---|---|---|---|---|---|---|"

// countingEvents counts the connect requests a server received, by host.
type countingEvents struct {
	mu     sync.Mutex
	byHost map[string]int
}

func (c *countingEvents) add(e ServerEvent) {
	if e.What != "request" {
		return
	}
	c.mu.Lock()
	if c.byHost == nil {
		c.byHost = map[string]int{}
	}
	c.byHost[e.Host]++
	c.mu.Unlock()
}

// requests returns all requests, and those on hosts other than primary.
func (c *countingEvents) requests(primary string) (total, fallback int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, n := range c.byHost {
		total += n
		if h != primary {
			fallback += n
		}
	}
	return total, fallback
}
