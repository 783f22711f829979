package sim

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// TestAdaptiveRuleAgainstTheFixedTimer: behind a blackholing proxy the rule
// starts HTTP at the websocket's open + clamp(3 × dial, 250 ms, ceiling),
// so each client connects exactly ceiling − that head start sooner than
// under the fixed timer (the same network, client by client), never later;
// a floor at the ceiling changes nothing; and on every other built-in
// profile the rule is never worse than the fixed timer by more than a
// millisecond a connection.
func TestAdaptiveRuleAgainstTheFixedTimer(t *testing.T) {
	ps, err := Select(Builtin(), []string{"proxy-blackholes-websocket", "healthy", "slow-mobile", "primary-down"})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := CompareAdaptive(AdaptiveConfig{
		Sweep: SweepConfig{Profiles: ps, Timeouts: []time.Duration{250 * time.Millisecond, 2 * time.Second},
			Clients: 300, Horizon: time.Minute, Seed: 3, Base: testBase()},
		Rules: []engine.AdaptiveShortCircuit{{Multiple: 3, Floor: 250 * time.Millisecond}, {Multiple: 3, Floor: 2 * time.Second}},
		Cost:  Cost{PerSecond: 1, PerWasted: 0.05},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		switch {
		case r.Rule.On() && r.Rule.Floor >= r.Ceiling && (r.VsFixed.Lo != 0 || r.VsFixed.Hi != 0):
			t.Errorf("%s %v %+v: a floor at the ceiling differs from the fixed timer by %+v ms", r.Profile, r.Ceiling, r.Rule, r.VsFixed)
		case r.Rule.On() && r.VsFixed.Value > 1:
			t.Errorf("%s %v %+v: %+v ms worse than the fixed timer", r.Profile, r.Ceiling, r.Rule, r.VsFixed)
		case r.Profile == "proxy-blackholes-websocket" && r.Rule.On() && r.Rule.Floor < r.Ceiling && r.Ceiling == 2*time.Second && !(r.VsFixed.Hi < -1400):
			// A dial of about 100 ms: HTTP at about 300 ms instead of 2 s.
			t.Errorf("blackholed websocket, 2 s ceiling: %+v ms, want about −1,700", r.VsFixed)
		}
	}
}

// testBase is a valid engine configuration for the studies.
func testBase() engine.Config { return engine.AblyConfig() }
