package engine

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"pgregory.net/rapid"
)

func TestConfigValidateRejectsBadStormSafeFields(t *testing.T) {
	for _, c := range []struct {
		field string
		set   func(*Config)
	}{
		{"Config.ReconnectWindow", func(c *Config) { c.ReconnectWindow = -time.Millisecond }},
		{"Config.ReconnectWindow", func(c *Config) { c.ReconnectWindow = 2 * time.Minute }},
		{"Config.ReconnectWindow", func(c *Config) { c.Timeouts.ConnectionStateTTL = 5 * time.Second; c.ReconnectWindow = 5 * time.Second }},
		{"Config.RetrySpread", func(c *Config) { c.RetrySpread = math.NaN() }},
		{"Config.RetrySpread", func(c *Config) { c.RetrySpread = 1.5 }},
		{"Config.SuspendedSpread", func(c *Config) { c.SuspendedSpread = -0.1 }},
		{"Config.ImmediateShare", func(c *Config) { c.ImmediateShare = 1 }},
		{"Config.ImmediateShare", func(c *Config) { c.ImmediateShare = math.NaN() }},
		{"Config.SuspendedSpread", func(c *Config) { c.SuspendedSpread = math.Inf(1) }},
	} {
		cfg := AblyConfig()
		c.set(&cfg)
		wantFieldError(t, cfg, c.field, cfg)
	}
	cfg := AblyConfig()
	cfg.ReconnectWindow, cfg.RetrySpread, cfg.SuspendedSpread = time.Minute, 1, 1
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Under random events the storm-safe options keep their promises: a drop
// waits at most the window (0 only for a reconnect in the same step, with
// no retry number taken); a DISCONNECTED retry waits within
// [(1 − RetrySpread) × upper(n), upper(n)]; a SUSPENDED retry within
// [(1 − SuspendedSpread) × 30 s, 30 s]; the window's reconnect has reason
// reconnect and leaves the retry count alone.
func TestPropertyStormSafeOptionsKeepTheirBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := AblyConfig()
		cfg.Endpoint.Endpoint = rapid.SampledFrom([]string{"", "rt.example.com"}).Draw(t, "endpoint")
		cfg.Timeouts.ConnectionStateTTL = time.Duration(rapid.SampledFrom([]int{5, 30, 120}).Draw(t, "ttlSeconds")) * time.Second
		cfg.ReconnectWindow = time.Duration(rapid.IntRange(0, 4000).Draw(t, "windowMs")) * time.Millisecond
		cfg.ImmediateShare = rapid.SampledFrom([]float64{0, 0.05, 0.5}).Draw(t, "share")
		cfg.RetrySpread = rapid.SampledFrom([]float64{0, 0.2, 0.5, 1}).Draw(t, "retrySpread")
		cfg.SuspendedSpread = rapid.SampledFrom([]float64{0, 0.5, 1}).Draw(t, "suspendedSpread")
		cfg.Source = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		spread := cfg.RetrySpread
		if spread == 0 {
			spread = 0.2
		}
		w := newWalk()
		retryTimer := TimerID(0)
		windowed := false
		step := func(ev Event) {
			before := e.RetryCount()
			out := e.Step(w.now, ev, nil)
			for i, a := range out {
				w.track(a)
				switch a.Kind {
				case ActionStartTimer:
					if a.TimerKind == TimerRetry {
						retryTimer = a.Timer
					}
				case ActionStateChange:
					switch {
					case a.To == Disconnected && (a.Reason == ReasonDropped || a.Reason == ReasonNetworkDown) && (a.From == Connected || a.From == Connecting) && e.RetryCount() == before:
						// A drop or network-down (RTN20a) that reconnects, at once or in the window.
						if a.RetryIn > cfg.ReconnectWindow || a.RetryIn < 0 {
							t.Fatalf("drop waits %v, window %v", a.RetryIn, cfg.ReconnectWindow)
						}
						immediate := i+1 < len(out) && out[i+1].Kind == ActionStateChange && out[i+1].Reason == ReasonReconnect
						if (a.RetryIn == 0) != immediate {
							t.Fatalf("drop waits %v, reconnect in the same step: %v", a.RetryIn, immediate)
						}
						windowed = !immediate
					case a.To == Disconnected && a.Reason != ReasonDropped && a.Reason != ReasonNetworkDown || a.To == Disconnected && e.RetryCount() != before:
						upper := reconnect.RetryDelay(cfg.Timeouts.DisconnectedRetry, e.RetryCount(), 0)
						if lo := time.Duration(float64(upper)*(1-spread)) - 1; a.RetryIn > upper || a.RetryIn < lo {
							t.Fatalf("retry %d waits %v, outside [%v, %v]", e.RetryCount(), a.RetryIn, lo, upper)
						}
					case a.To == Suspended:
						s := cfg.Timeouts.SuspendedRetry
						if lo := time.Duration(float64(s)*(1-cfg.SuspendedSpread)) - 1; a.RetryIn > s || a.RetryIn < lo {
							t.Fatalf("SUSPENDED waits %v, outside [%v, %v]", a.RetryIn, lo, s)
						}
						// SUSPENDED replaces the window's retry timer: a
						// network-down while connecting can be windowed
						// with connectionStateTtl already running.
						windowed = false
					case a.To == Connecting && windowed && ev.Kind == EventTimerFired && ev.Timer == retryTimer:
						if a.Reason != ReasonReconnect || e.RetryCount() != before {
							t.Fatalf("the window's reconnect: reason %v, retry count %d → %d", a.Reason, before, e.RetryCount())
						}
						windowed = false
					case a.To == Connecting || a.To == Connected || a.To == Closed:
						windowed = false
					}
				}
			}
		}
		w.run(t, step, []EventKind{EventConnect, EventClose, EventNetworkUp, EventNetworkDown})
	})
}
