package sim

import (
	"testing"
	"time"
)

// TestPeerDelay: the peers' schedules at their edges, and nothing for a
// strategy whose delays come from the engine's configuration.
func TestPeerDelay(t *testing.T) {
	for _, c := range []struct {
		s    Strategy
		a    int
		u    float64
		want time.Duration
	}{
		{StrategySocketIO, 0, 0, time.Second},                // 1 s·2⁰, no deviation
		{StrategySocketIO, 1, 0.15, 2150 * time.Millisecond}, // floor(1.5) odd: 2 s + 0.15 × 0.5 × 2 s
		{StrategySocketIO, 5, 0, 5 * time.Second},            // capped at 5 s
		{StrategyCentrifugeJS, 0, 0, 500 * time.Millisecond}, // 500 ms + U[0, 500 ms]
		{StrategyCentrifugeJS, 40, 0.999, 20 * time.Second},  // capped at 20 s
		{StrategyPhoenix, 2, 0.5, 100 * time.Millisecond},    // its table
		{StrategyRTB1, 1, 0.5, 0},                            // not a peer's
		{StrategyFirstRetry, 1, 0.5, 0},                      // not a peer's
	} {
		if got := c.s.PeerDelay(c.a, c.u); got != c.want {
			t.Errorf("%v.PeerDelay(%d, %g) = %v, want %v", c.s, c.a, c.u, got, c.want)
		}
	}
}
