package peers

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/internal/sim"
)

// The restart row's verdict is a comparison of medians of random
// schedules. These are the schedules as the lab measured them
// (docs/peers.md: the simulator's models, checked against the real
// clients), from the moment the hosts go down until each client's first
// attempt at or after the downtime; a refused attempt takes 2 ms.

// restartBack returns when a client is back: its first attempt at first,
// then after each refused one delay(a), a = 0, 1, …
func restartBack(first time.Duration, delay func(a int) time.Duration, down, connect time.Duration) time.Duration {
	t := first
	for a := 0; t < down; a++ {
		t += 2*time.Millisecond + delay(a)
	}
	return t + connect
}

// peerDelay draws the waits of one client of a peer's schedule, the
// simulator's model (socket.io-client: 1 s·2ⁿ ± 50 %, at most 5 s;
// centrifuge-js: min(20 s, 500 ms + U[0, min(20 s, 500 ms·2ⁿ)])).
func peerDelay(st sim.Strategy) func(*rand.Rand) func(int) time.Duration {
	return func(r *rand.Rand) func(int) time.Duration {
		return func(a int) time.Duration { return st.PeerDelay(a, r.Float64()) }
	}
}

// Ours at defaults: the immediate reconnect at the drop is refused, then
// U[0, 3.5 s) and every 3.5 s after it (Config.FirstRetry).
func oursDelay(r *rand.Rand) func(int) time.Duration {
	return func(a int) time.Duration {
		if a == 0 {
			return time.Duration(r.Float64() * float64(3500*time.Millisecond))
		}
		return 3500 * time.Millisecond
	}
}

// behindShare returns the share of runs of n clients per kind in which
// ours' median is over Allowed(the best of the three peers' medians).
func behindShare(n, runs int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, 38))
	const down = 5 * time.Second
	med := func(xs []time.Duration) time.Duration { return spreadOf(xs).Median }
	peers := []struct {
		delay           func(*rand.Rand) func(int) time.Duration
		detect, connect time.Duration
	}{
		{peerDelay(sim.StrategySocketIO), 15 * time.Millisecond, 40 * time.Millisecond}, // socket.io polling first: four requests
		{peerDelay(sim.StrategySocketIO), 18 * time.Millisecond, 10 * time.Millisecond}, // socket.io websocket first
		{peerDelay(sim.StrategyCentrifugeJS), 10 * time.Millisecond, 10 * time.Millisecond},
	}
	behind := 0
	xs := make([]time.Duration, n)
	for range runs {
		best := Never
		for _, p := range peers {
			for i := range xs {
				d := p.delay(r)
				xs[i] = restartBack(p.detect+d(0), func(a int) time.Duration { return d(a + 1) }, down, p.connect)
			}
			best = min(best, med(xs))
		}
		for i := range xs {
			d := oursDelay(r)
			xs[i] = restartBack(2*time.Millisecond, d, down, 3*time.Millisecond)
		}
		if med(xs) > Allowed(best) {
			behind++
		}
	}
	return float64(behind) / float64(runs)
}

// TestShortRestartClientsLeaveLittleToSampling: with 3 clients a kind the
// restart row is behind in a large share of runs though no schedule is
// ahead of ours; with ShortRestartClients it is behind in under 1.5 %.
func TestShortRestartClientsLeaveLittleToSampling(t *testing.T) {
	if testing.Short() {
		t.Skip("a Monte Carlo of 1,500 runs")
	}
	p3, pn := behindShare(3, 1500, 1), behindShare(ShortRestartClients, 1500, 1)
	t.Logf("ours behind: %.1f %% of runs of 3 clients, %.1f %% of %d", 100*p3, 100*pn, ShortRestartClients)
	if p := p3; p < 0.3 {
		t.Errorf("3 clients: ours behind in %.1f %% of runs; the model should show the sampling (about 40 %%)", 100*p)
	}
	if p := pn; p > 0.015 {
		t.Errorf("%d clients: ours behind in %.1f %% of runs; want under 1.5 %%", ShortRestartClients, 100*p)
	}
}
