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

// TestServerTimeMeetsTheFloor: a path's Server time delays the answer but
// not the dial, so under the adaptive rule a server that answers a
// near client more slowly than the floor races HTTP beside a healthy
// websocket, and a floor above its answer does not. A fixed 60 ms server
// time on a network of 6 ms round trips: every client's dial is up in a
// few ms, so the head start is the floor; at 25 ms nearly every client
// throws a transport away, at 100 ms none does. With the same server time
// and no rule, the mean time to CONNECTED is 60 ms later, within a
// millisecond (Server draws nothing at sigma 0: the same network
// otherwise).
func TestServerTimeMeetsTheFloor(t *testing.T) {
	near := func(name string, server float64) Profile {
		p := Profile{Name: name}
		for _, h := range []*HostClass{&p.Primary, &p.Fallback} {
			h.WebSocket.Connect = Dist{MedianMs: 6, Sigma: 0.4}
			h.HTTP.Connect = Dist{MedianMs: 8, Sigma: 0.4}
			h.WebSocket.Server = Dist{MedianMs: server}
			h.HTTP.Server = Dist{MedianMs: server}
		}
		p.Connectivity = Check{Up: 1, Latency: Dist{MedianMs: 5}}
		p.WebSocketCheck = Check{Pass: 1, Latency: Dist{MedianMs: 6}}
		return p
	}
	rows, err := CompareAdaptive(AdaptiveConfig{
		Sweep: SweepConfig{Profiles: []Profile{near("near", 0), near("near-server-60ms", 60)}, Timeouts: []time.Duration{500 * time.Millisecond},
			Clients: 300, Horizon: time.Minute, Seed: 1, Base: testBase()},
		Rules: []engine.AdaptiveShortCircuit{{Multiple: 3, Floor: 25 * time.Millisecond}, {Multiple: 3, Floor: 100 * time.Millisecond}},
		Cost:  Cost{PerSecond: 1, PerWasted: 0.05},
	})
	if err != nil {
		t.Fatal(err)
	}
	mean := map[string]float64{}
	for _, r := range rows {
		if !r.Rule.On() {
			mean[r.Profile] = r.Mean.Value
			continue
		}
		switch {
		case r.Profile == "near" && r.Wasted.Value != 0:
			t.Errorf("near, floor %v: %.2f transports thrown away a connection, want none", r.Rule.Floor, r.Wasted.Value)
		case r.Profile == "near-server-60ms" && r.Rule.Floor == 25*time.Millisecond && r.Wasted.Value < 0.9:
			t.Errorf("near server answering in 60 ms, floor 25 ms: %.2f thrown away a connection, want nearly 1", r.Wasted.Value)
		case r.Profile == "near-server-60ms" && r.Rule.Floor == 100*time.Millisecond && r.Wasted.Value != 0:
			t.Errorf("near server answering in 60 ms, floor 100 ms: %.2f thrown away a connection, want none", r.Wasted.Value)
		}
	}
	if d := mean["near-server-60ms"] - mean["near"]; d < 59 || d > 61 {
		t.Errorf("the fixed timer: a 60 ms server time adds %.2f ms to the mean time to CONNECTED, want 60", d)
	}
}
