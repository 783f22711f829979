package lab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
	"github.com/reconnect-go/reconnect/runner"
)

// StormOptions is a server restart under load, with the parameters of the
// simulator's storm (sim.StormConfig).
type StormOptions struct {
	Clients int
	// Config is the clients' engine configuration; RunStorm makes it
	// websocket-only on the primary host with no fallback host, so that
	// one attempt is one connect request, as in the simulator's storm.
	Config engine.Config
	// Downtime is how long every host refuses connections after the
	// restart; Capacity how many connect requests a second it then
	// accepts (the rest are answered 503).
	Downtime time.Duration
	Capacity int
	// Horizon is how long to watch after the restart; Bucket the
	// histogram's interval.
	Horizon, Bucket time.Duration
	Seed            uint64
	// Progress, if set, is told what the storm is doing.
	Progress func(string)
}

// StormRun counts the attempts of a real storm, as sim.StormResult does.
type StormRun struct {
	// Attempts[k] is the connection attempts (entries to CONNECTING) in
	// [k·Bucket, (k+1)·Bucket) after the restart.
	Attempts                          []int
	Total, Reconnected                int
	PeakPerSecond, RetryPeakPerSecond float64
	// MedianDisconnected and T99: when half, and 99%, of the clients had
	// reconnected (the horizon if they never did).
	MedianDisconnected, T99 time.Duration
	// DropSpread is how long after the restart the last client noticed
	// the drop (its immediate reconnect, within the downtime): a real
	// restart reaches its clients over a while, the simulator's at once.
	DropSpread time.Duration
}

// RunStorm connects o.Clients runner clients to a fresh lab server,
// restarts the server, and counts their attempts until all have
// reconnected or the horizon has passed.
func RunStorm(ctx context.Context, o StormOptions) (StormRun, error) {
	if o.Clients < 1 || o.Horizon <= 0 || o.Bucket <= 0 || o.Downtime < 0 || o.Capacity < 0 {
		return StormRun{}, errors.New("lab: storm needs clients, a horizon and a bucket, and no negative downtime or capacity")
	}
	progress := func(s string) {
		if o.Progress != nil {
			o.Progress(s)
		}
	}
	s, err := NewServer(Options{Seed: o.Seed})
	if err != nil {
		return StormRun{}, err
	}
	defer s.Close()
	cfg := o.Config
	cfg.Transports = reconnect.Availability{WebSocket: true}
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: s.Primary(), FallbackHosts: []string{}}

	var mu sync.Mutex
	var restart time.Time
	attempts := make([]int, int(o.Horizon/o.Bucket)+1)
	back := make([]time.Duration, 0, o.Clients)
	reconnected := make([]bool, o.Clients)
	allBack := make(chan struct{})
	onChange := func(i int, c runner.StateChange) {
		mu.Lock()
		defer mu.Unlock()
		if restart.IsZero() || c.At.Before(restart) {
			return
		}
		at := c.At.Sub(restart)
		switch {
		case c.To == engine.Connecting && at <= o.Horizon:
			attempts[at/o.Bucket]++
		case c.To == engine.Connected && !reconnected[i]:
			reconnected[i] = true
			back = append(back, at)
			if len(back) == o.Clients {
				close(allBack)
			}
		}
	}
	progress("connecting the clients")
	f, err := StartFleet(ctx, s, FleetOptions{Clients: o.Clients, Config: cfg, Spread: time.Duration(o.Clients) * time.Millisecond, OnChange: onChange})
	if err != nil {
		return StormRun{}, err
	}
	defer f.Stop()
	res := f.WaitConnected(time.Minute)
	if n := Summarize(res, 0).Connected; n < o.Clients {
		return StormRun{}, errors.New("lab: not every client connected before the storm")
	}
	progress("restarting the server")
	mu.Lock()
	restart = time.Now()
	mu.Unlock()
	// The capacity's one-second windows count from the restart, as in
	// the simulator.
	s.SetCapacity(o.Capacity, restart)
	if err := s.Restart(o.Downtime); err != nil {
		return StormRun{}, err
	}
	progress(fmt.Sprintf("the server is back %v after the restart; waiting for the clients", time.Since(restart).Round(time.Millisecond)))
	select {
	case <-allBack:
	case <-time.After(time.Until(restart.Add(o.Horizon))):
	case <-ctx.Done():
	}
	mu.Lock()
	defer mu.Unlock()
	run := StormRun{Reconnected: len(back), MedianDisconnected: o.Horizon, T99: o.Horizon}
	last := 0
	for k, a := range attempts {
		run.Total += a
		if a > 0 {
			last = k
		}
	}
	run.Attempts = slices.Clone(attempts[:last+1])
	for k := 0; k < len(run.Attempts) && time.Duration(k)*o.Bucket < o.Downtime; k++ {
		if run.Attempts[k] > 0 {
			run.DropSpread = time.Duration(k+1) * o.Bucket
		}
	}
	slices.Sort(back)
	if n := (o.Clients + 1) / 2; len(back) >= n {
		run.MedianDisconnected = back[n-1]
	}
	if n := (o.Clients*99 + 99) / 100; len(back) >= n {
		run.T99 = back[n-1]
	}
	// The retry peak leaves out the immediate reconnects, however long
	// the drop took to reach every client.
	run.PeakPerSecond, _ = peaks(run.Attempts, o.Bucket)
	if skip := int(run.DropSpread / o.Bucket); skip < len(run.Attempts) {
		_, run.RetryPeakPerSecond = peaks(run.Attempts[max(skip-1, 0):], o.Bucket)
	}
	return run, nil
}

// peaks is the largest bucket scaled to a second, and the same without
// the first bucket.
func peaks(attempts []int, bucket time.Duration) (float64, float64) {
	peak, retry := 0, 0
	for k, a := range attempts {
		peak = max(peak, a)
		if k > 0 {
			retry = max(retry, a)
		}
	}
	perSecond := float64(time.Second) / float64(bucket)
	return float64(peak) * perSecond, float64(retry) * perSecond
}

// SimulateStorm runs the simulator's storm with the same parameters:
// strategy rtb1, or rtb1-safe with the engine's storm-safe fields of
// o.Config when any is set.
func SimulateStorm(o StormOptions) (sim.StormResult, error) {
	sc := sim.StormConfig{Clients: o.Clients, Strategy: sim.StrategyRTB1, Timeouts: o.Config.Timeouts,
		Downtime: o.Downtime, Capacity: o.Capacity, Horizon: o.Horizon, Bucket: o.Bucket, Seed: o.Seed}
	if c := o.Config; c.ReconnectWindow > 0 || c.RetrySpread > 0 || c.SuspendedSpread > 0 {
		sc.Strategy = sim.StrategyRTB1Safe
		sc.Safe = sim.SafeOptions{Window: c.ReconnectWindow, RetrySpread: c.RetrySpread, SuspendedSpread: c.SuspendedSpread}
	}
	return sim.Storm(sc)
}
