package engine

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"pgregory.net/rapid"
)

func TestConfigValidateRejectsBadRetryFields(t *testing.T) {
	for _, c := range []struct {
		field string
		set   func(*Config)
	}{
		{"Config.Retry.Base", func(c *Config) { c.Retry.Base = time.Second }},
		{"Config.Retry.Cap", func(c *Config) {
			c.Retry = reconnect.RetryPolicy{Family: reconnect.FamilyFullJitter, Base: time.Second}
		}},
		{"Config.Retry.Multiplier", func(c *Config) {
			c.Retry = reconnect.GRPCBackoff{Base: time.Second, Multiplier: 0.5, Max: time.Minute}.Policy()
		}},
		{"Config.Retry.Family", func(c *Config) { c.Retry.Family = 9 }},
		{"Config.RetrySpread", func(c *Config) {
			c.Retry = reconnect.FullJitter{Base: time.Second, Cap: time.Minute}.Policy()
			c.RetrySpread = 1
		}},
		{"Config.ImmediateReconnect", func(c *Config) { c.ImmediateReconnect = 7 }},
		{"Config.ImmediateReconnectInterval", func(c *Config) { c.ImmediateReconnectInterval = time.Minute }},
		{"Config.ImmediateReconnectInterval", func(c *Config) { c.ImmediateReconnect = ImmediateLimited }},
		{"Config.ImmediateReconnectInterval", func(c *Config) {
			c.ImmediateReconnect, c.ImmediateReconnectInterval = ImmediateLimited, 2*time.Hour
		}},
		{"Config.ReconnectWindow", func(c *Config) { c.ImmediateReconnect, c.ReconnectWindow = ImmediateOff, time.Second }},
	} {
		cfg := AblyConfig()
		c.set(&cfg)
		wantFieldError(t, cfg, c.field, cfg)
	}
	for _, set := range []func(*Config){
		func(c *Config) { c.Retry = reconnect.DefaultGRPCBackoff().Policy() },
		func(c *Config) {
			c.Retry = reconnect.DecorrelatedJitter{Base: time.Second, Cap: 30 * time.Second}.Policy()
		},
		func(c *Config) { c.ImmediateReconnect = ImmediateOff },
		func(c *Config) { c.ImmediateReconnect, c.ImmediateReconnectInterval = ImmediateLimited, time.Second },
	} {
		cfg := AblyConfig()
		set(&cfg)
		if err := cfg.Validate(); err != nil {
			t.Error(err)
		}
	}
	if s := ImmediateLimited.String(); s != "limited" {
		t.Error(s)
	}
}

// Under random events a retry family keeps its bounds and the immediate
// reconnect keeps its limit: every DISCONNECTED delay that takes a retry
// number n lies in Retry.Bounds(n, the previous such delay); a drop
// reconnects in the same step only under ImmediateOn or ImmediateLimited,
// at least the limit after the previous immediate reconnect.
func TestPropertyRetryPoliciesKeepTheirBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := Defaults()
		cfg.Endpoint.Endpoint = "rt.example.com"
		cfg.Timeouts.ConnectionStateTTL = time.Duration(rapid.SampledFrom([]int{30, 120, 600}).Draw(t, "ttlSeconds")) * time.Second
		cfg.Retry = rapid.SampledFrom([]reconnect.RetryPolicy{
			{},
			reconnect.FullJitter{Base: time.Second, Cap: 30 * time.Second}.Policy(),
			reconnect.EqualJitter{Base: 200 * time.Millisecond, Cap: 20 * time.Second}.Policy(),
			reconnect.DefaultGRPCBackoff().Policy(),
			reconnect.DecorrelatedJitter{Base: time.Second, Cap: 30 * time.Second}.Policy(),
		}).Draw(t, "retry")
		cfg.ImmediateReconnect = ImmediateReconnect(rapid.IntRange(0, 2).Draw(t, "immediate"))
		gap := time.Second
		switch cfg.ImmediateReconnect {
		case ImmediateLimited:
			gap = time.Duration(rapid.IntRange(1, 60).Draw(t, "intervalSeconds")) * time.Second
			cfg.ImmediateReconnectInterval = gap
		}
		cfg.Source = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 5))
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		w := newWalk()
		var prev time.Duration
		var lastImmediate time.Time
		step := func(ev Event) {
			before := e.RetryCount()
			out := e.Step(w.now, ev, nil)
			for i, a := range out {
				w.track(a)
				switch a.Kind {
				case ActionStateChange:
					if a.To != Disconnected {
						continue
					}
					if n := e.RetryCount(); n != before {
						if cfg.Retry.Family == reconnect.FamilyRTB1 {
							lo, hi := reconnect.RetryBounds(cfg.Timeouts.DisconnectedRetry, n)
							if a.RetryIn < lo || a.RetryIn > hi {
								t.Fatalf("RTB1 retry %d waits %v outside [%v, %v]", n, a.RetryIn, lo, hi)
							}
							continue
						}
						lo, hi := cfg.Retry.Bounds(n, prev)
						if a.RetryIn < lo || a.RetryIn > hi {
							t.Fatalf("%v retry %d (previous %v) waits %v outside [%v, %v]", cfg.Retry.Family, n, prev, a.RetryIn, lo, hi)
						}
						prev = a.RetryIn
						continue
					}
					if i+1 < len(out) && out[i+1].Kind == ActionStateChange && out[i+1].Reason == ReasonReconnect {
						if cfg.ImmediateReconnect == ImmediateOff {
							t.Fatalf("an immediate reconnect under ImmediateOff")
						}
						if !lastImmediate.IsZero() && w.now.Sub(lastImmediate) < gap {
							t.Fatalf("immediate reconnects %v apart, limit %v", w.now.Sub(lastImmediate), gap)
						}
						lastImmediate = w.now
					}
				}
			}
		}
		w.run(t, step, []EventKind{EventConnect, EventNetworkUp, EventNetworkDown})
	})
}
