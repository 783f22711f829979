package sim

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

func TestBuiltinProfilesParseAndAreComplete(t *testing.T) {
	var names []string
	for _, p := range Builtin() {
		names = append(names, p.Name)
	}
	want := "healthy slow-mobile proxy-rejects-websocket proxy-blackholes-websocket primary-down offline flapping flapping-websocket"
	if strings.Join(names, " ") != want {
		t.Fatalf("profiles %v", names)
	}
}

// With zero latency and no failures every client connects by websocket at
// once.
func TestZeroLatencyConnectsByWebSocketAtZero(t *testing.T) {
	p := Profile{Name: "instant", Connectivity: Check{Up: 1}, WebSocketCheck: Check{Pass: 1}}
	r := rand.New(rand.NewPCG(1, 1))
	for range 100 {
		res := Simulate(p, engine.AblyConfig(), time.Minute, r)
		if !res.Connected || res.TimeToConnect != 0 || res.Outcome != 1 || res.Opened != 1 || res.HTTPOpened != 0 {
			t.Fatalf("%+v", res)
		}
	}
}

// With websockets blackholed, HTTP starts exactly one short-circuit
// timeout later than HTTP-first starts it.
func TestBlackholedWebSocketDelaysHTTPByExactlyTheShortCircuit(t *testing.T) {
	p := Profile{Name: "bh", Primary: HostClass{WebSocket: Path{Blackhole: 1}, HTTP: Path{Connect: Dist{MedianMs: 100}}},
		Connectivity: Check{Up: 1}}
	for _, sc := range []time.Duration{250 * time.Millisecond, 2 * time.Second, 7 * time.Second} {
		cfg := engine.AblyConfig()
		cfg.ShortCircuit = sc
		wsFirst := Simulate(p, cfg, time.Minute, rand.New(rand.NewPCG(2, 2)))
		cfg.Policy = engine.PolicyHTTPFirst
		httpFirst := Simulate(p, cfg, time.Minute, rand.New(rand.NewPCG(2, 2)))
		if d := wsFirst.TimeToConnect - httpFirst.TimeToConnect; d != sc || wsFirst.Outcome != 5 {
			t.Fatalf("short circuit %v: websocket-first %v, http-first %v (difference %v), outcome %d",
				sc, wsFirst.TimeToConnect, httpFirst.TimeToConnect, d, wsFirst.Outcome)
		}
	}
}

func TestSweepIsDeterministic(t *testing.T) {
	run := func() []Cell {
		cells, err := Sweep(SweepConfig{Profiles: Builtin()[:3], Timeouts: []time.Duration{time.Second, 2 * time.Second},
			Policies: []engine.Policy{engine.PolicyWebSocketFirst, engine.PolicyWebSocketCheck},
			Clients:  200, Horizon: time.Minute, Seed: 9, Base: engine.AblyConfig()})
		if err != nil {
			t.Fatal(err)
		}
		return cells
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("cell %d differs between runs:\n%+v\n%+v", i, a[i], b[i])
		}
	}
}

func TestOutcomeSharesAddUpAndProxiesGiveTheirOutcome(t *testing.T) {
	cells, err := Sweep(SweepConfig{Profiles: Builtin(), Timeouts: []time.Duration{2 * time.Second},
		Policies: []engine.Policy{engine.PolicyWebSocketFirst}, Clients: 300, Horizon: 5 * time.Minute, Seed: 3, Base: engine.AblyConfig()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		sum := 0.0
		for _, o := range c.Outcomes {
			sum += o
		}
		if want := float64(c.Connected) / float64(c.Clients); sum < want-1e-9 || sum > want+1e-9 {
			t.Errorf("%s: outcome shares add up to %v, connected share %v", c.Profile, sum, want)
		}
		switch c.Profile {
		case "proxy-rejects-websocket":
			if c.Outcomes[3] != 1 {
				t.Errorf("%s: outcomes %v, want all outcome 4", c.Profile, c.Outcomes)
			}
		case "proxy-blackholes-websocket":
			if c.Outcomes[4] != 1 || c.P50 < 2*time.Second {
				t.Errorf("%s: outcomes %v p50 %v, want all outcome 5 after 2 s", c.Profile, c.Outcomes, c.P50)
			}
		case "offline":
			if c.Connected != 0 || c.FallbackRequests != 0 {
				t.Errorf("offline: %d connected, %.2f fallback requests (must be none after a failed check)", c.Connected, c.FallbackRequests)
			}
		case "primary-down":
			if c.Connected != c.Clients || c.FallbackRequests < 1 {
				t.Errorf("primary-down: %+v", c)
			}
		}
	}
}

func TestParseProfilesRejectsBadInputWithTheField(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"profiles": []}`, "no profiles"},
		{`{"profiles": [{"name": ""}]}`, "no name"},
		{`{"profiles": [{"name": "a", "primary": {"http": {"reject": 1.5}}}]}`, "primary.http.reject"},
		{`{"profiles": [{"name": "a", "primary": {"webSocket": {"reject": 0.6, "blackhole": 0.6}}}]}`, "exceeds 1"},
		{`{"profiles": [{"name": "a", "fallback": {"http": {"connect": {"medianMs": -1}}}}]}`, "fallback.http.connect"},
		{`{"profiles": [{"name": "a", "flap": {"periodMs": 10, "downMs": 10}}]}`, "flap"},
		{`{"profiles": [{"name": "a"}, {"name": "a"}]}`, "twice"},
		{`{"profiles": [{"name": "a", "bogus": 1}]}`, "unknown field"},
		{`not json`, "profile file"},
		{`{"profiles": [{"name": "a"}]} {"profiles": []}`, "data after the top-level object"},
		{`{"profiles": [{"name": "a"}]} x`, "data after the top-level object"},
		{`{"profiles": [{"Name": "a"}]}`, `unknown key "Name" in profiles[0]`},
		{`{"profiles": [{"name": "a", "primary": {"WebSocket": {}}}]}`, `unknown key "WebSocket" in profiles[0].primary`},
		{`{"Profiles": [{"name": "a"}]}`, `unknown key "Profiles" in the top level`},
		{`{"profiles": [{"name": "a,b"}]}`, "want 1 to 64 of a-z, 0-9 and -"},
		{`{"profiles": [{"name": "Healthy"}]}`, "want 1 to 64 of a-z, 0-9 and -"},
		{"{\"profiles\": [\n  {\"name\": oops}]}", "line 2, column 12: invalid character 'o'"},
		{"{\"profiles\": [\n\n  {\"name\": \"a\", \"bogus\": 1}]}", `line 3, column 17: json: unknown field "bogus"`},
		{"{\"profiles\": [{\"name\": 7}]}", "line 1, column 25: json: cannot unmarshal number"},
	} {
		_, err := ParseProfiles([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.json, err, c.want)
		}
	}
}

// With no jitter every client retries at the same instant.
func TestStormWithoutJitterRetriesInLockstep(t *testing.T) {
	r, err := Storm(StormConfig{Clients: 1000, Strategy: StrategyNone, Timeouts: reconnect.DefaultTimeouts(),
		Downtime: 40 * time.Second, Horizon: 2 * time.Minute, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Attempts at 0, 15, 35 (refused) and 60 s (accepted): four buckets of
	// 1000 and nothing else.
	nonzero := map[int]int{}
	for k, a := range r.Attempts {
		if a != 0 {
			nonzero[k] = a
		}
	}
	want := map[int]int{0: 1000, 150: 1000, 350: 1000, 600: 1000}
	if len(nonzero) != len(want) {
		t.Fatalf("attempt buckets %v, want %v", nonzero, want)
	}
	for k, v := range want {
		if nonzero[k] != v {
			t.Fatalf("attempt buckets %v, want %v", nonzero, want)
		}
	}
	if r.Total != 4000 || r.Reconnected != 1000 || r.T99 != 60*time.Second {
		t.Fatalf("%+v", r)
	}
}

// The storm's attempt count equals what the retry schedules imply: each
// client's attempts follow its RTB1 schedule from its own draws.
func TestStormAttemptCountMatchesTheRetrySchedules(t *testing.T) {
	sc := StormConfig{Clients: 2000, Strategy: StrategyRTB1, Timeouts: reconnect.DefaultTimeouts(),
		Downtime: 50 * time.Second, Horizon: 5 * time.Minute, Seed: 77}
	r, err := Storm(sc)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for id := range uint32(sc.Clients) {
		at, n := time.Duration(0), 0
		for {
			want++
			if at >= sc.Downtime {
				break
			}
			n++
			d := reconnect.RetryDelay(sc.Timeouts.DisconnectedRetry, n, stormUniform(sc.Seed, id, n))
			at = (at/time.Millisecond + max(d/time.Millisecond, 1)) * time.Millisecond
		}
	}
	if r.Total != want || r.Reconnected != sc.Clients {
		t.Fatalf("storm counted %d attempts (%d reconnected), the schedules imply %d", r.Total, r.Reconnected, want)
	}
}

// The storm model and a real engine agree: a client replayed through an
// Engine with the same draws attempts at the same instants, through the
// immediate reconnect, RTB1 retries and SUSPENDED.
func TestStormMatchesTheEngineClientByClient(t *testing.T) {
	for _, sc := range []StormConfig{
		{Clients: 30, Strategy: StrategyRTB1, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 200 * time.Second, Horizon: 10 * time.Minute, Seed: 5, Bucket: time.Millisecond},
		{Clients: 30, Strategy: StrategyRTB1Safe, Safe: DefaultSafe, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 200 * time.Second, Horizon: 10 * time.Minute, Seed: 6, Bucket: time.Millisecond},
		{Clients: 60, Strategy: StrategyRTB1Safe, Safe: SafeOptions{Window: 3 * time.Second, ImmediateShare: 0.2, RetrySpread: 0.5}, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 20 * time.Second, Horizon: 10 * time.Minute, Seed: 8, Bucket: time.Millisecond},
		{Clients: 30, Strategy: StrategyRTB1Safe, Safe: SafeOptions{RetrySpread: 0.6, SuspendedSpread: 1}, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 250 * time.Second, Horizon: 10 * time.Minute, Seed: 7, Bucket: time.Millisecond},
		{Clients: 30, Strategy: StrategyRTB1NoImmediate, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 200 * time.Second, Horizon: 10 * time.Minute, Seed: 9, Bucket: time.Millisecond},
		{Clients: 30, Strategy: StrategyPolicyFullJitter, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 200 * time.Second, Horizon: 10 * time.Minute, Seed: 10, Bucket: time.Millisecond},
		{Clients: 30, Strategy: StrategyPolicyEqualJitter, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 60 * time.Second, Horizon: 10 * time.Minute, Seed: 11, Bucket: time.Millisecond},
		{Clients: 30, Strategy: StrategyPolicyGRPC, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 200 * time.Second, Horizon: 10 * time.Minute, Seed: 12, Bucket: time.Millisecond},
		{Clients: 30, Strategy: StrategyPolicyDecorrelated, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 90 * time.Second, Horizon: 10 * time.Minute, Seed: 13, Bucket: time.Millisecond},
	} {
		t.Run(sc.Strategy.String(), func(t *testing.T) { stormMatchesEngines(t, sc) })
	}
}

func stormMatchesEngines(t *testing.T, sc StormConfig) {
	r, err := Storm(sc)
	if err != nil {
		t.Fatal(err)
	}
	engineAttempts := map[int]int{} // millisecond → attempts
	for id := range uint32(sc.Clients) {
		for _, at := range engineAttemptTimes(t, sc, id) {
			engineAttempts[int(at/time.Millisecond)]++
		}
	}
	for k, a := range r.Attempts {
		if engineAttempts[k] != a {
			t.Fatalf("at %d ms the storm counts %d attempts, the engines %d", k, a, engineAttempts[k])
		}
		delete(engineAttempts, k)
	}
	if len(engineAttempts) != 0 {
		t.Fatalf("engine attempts the storm lacks: %v", engineAttempts)
	}
}

// engineAttemptTimes drives one websocket-only engine through the storm:
// connected before 0, dropped at 0, every attempt refused until the
// downtime ends. It returns the attempt times, rounded down to the storm's
// millisecond slots as the storm rounds them.
func engineAttemptTimes(t *testing.T, sc StormConfig, id uint32) []time.Duration {
	cfg := engine.AblyConfig()
	cfg.Transports = reconnect.Availability{WebSocket: true}
	cfg.Endpoint.Endpoint = "rt.example.com"
	cfg.Source = &StormSource{Seed: sc.Seed, ID: id}
	if sc.Strategy == StrategyRTB1Safe {
		cfg.ReconnectWindow, cfg.RetrySpread, cfg.SuspendedSpread = sc.Safe.Window, sc.Safe.RetrySpread, sc.Safe.SuspendedSpread
		cfg.ImmediateShare = sc.Safe.ImmediateShare
	}
	cfg.Retry = PolicyOf(sc.Strategy)
	if sc.Strategy == StrategyRTB1NoImmediate {
		cfg.ImmediateReconnect = engine.ImmediateOff
	}
	e, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t0 := simEpoch
	var out []engine.Action
	var q eventQueue
	var seq uint64
	push := func(at time.Duration, ev engine.Event) { seq++; q.push(simEvent{at: at, seq: seq, ev: ev}) }
	out = e.Step(t0.Add(-time.Second), engine.Event{Kind: engine.EventConnect}, out[:0])
	out = e.Step(t0.Add(-time.Second), engine.Event{Kind: engine.EventTransportConnected, Transport: 1}, out[:0])
	push(0, engine.Event{Kind: engine.EventTransportClosed, Transport: 1})
	var times []time.Duration
	slot := time.Duration(0) // the storm's slot clock: attempt times are whole milliseconds
	for len(q) > 0 {
		it := q.pop()
		out = e.Step(t0.Add(it.at), it.ev, out[:0])
		for _, a := range out {
			switch a.Kind {
			case engine.ActionOpenTransport:
				slot = it.at.Truncate(time.Millisecond)
				times = append(times, slot)
				if it.at < sc.Downtime {
					push(it.at, engine.Event{Kind: engine.EventTransportFailed, Transport: a.Transport,
						Failure: reconnect.Failure{Kind: reconnect.FailureRefused}})
				} else {
					push(it.at, engine.Event{Kind: engine.EventTransportConnected, Transport: a.Transport})
				}
			case engine.ActionStartTimer:
				if a.TimerKind == engine.TimerRetry || a.TimerKind == engine.TimerStateTTL {
					// The storm works in whole milliseconds: a retry is due
					// the whole number of milliseconds after its slot.
					due := a.Due.Sub(t0)
					if a.TimerKind == engine.TimerRetry && it.ev.Kind == engine.EventTransportFailed {
						due = slot + max((due-it.at)/time.Millisecond, 1)*time.Millisecond
					}
					push(due, engine.Event{Kind: engine.EventTimerFired, Timer: a.Timer})
				}
			}
		}
		if e.State() == engine.Connected || it.at > sc.Horizon {
			break
		}
	}
	return times
}

func TestMultiplesIsWellFormedSVGWithTitlesAndNotes(t *testing.T) {
	var b bytes.Buffer
	long := Series{Name: "long"}
	for i := range 5000 {
		long.X, long.Y = append(long.X, float64(i)), append(long.Y, float64(i%700))
	}
	ch := Multiples{Title: "t <&>", XLabel: "x (s)", YLabel: "y (s)", LogX: true, Panels: []Panel{
		{Title: "p1", Series: []Series{{Name: "a", X: []float64{0.25, 1, 10}, Y: []float64{1, 2, 3}}, {Name: "b", X: []float64{0.5}, Y: []float64{0}}}},
		{Title: "empty", Note: "nothing here"}, {Title: "p3", Series: []Series{long}}}}
	if err := ch.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if n := strings.Count(s, " "); n > 4000 {
		t.Errorf("the 5000-point series was not reduced to pixels: %d spaces", n)
	}
	for _, want := range []string{"<svg", "</svg>", "t &lt;&amp;&gt;", "x (s)", "y (s)", ">a</text>", ">b</text>", "<polyline", ">p1</text>", ">nothing here</text>"} {
		if !strings.Contains(s, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

func TestMergeReplacesABuiltinOnlyWhenAsked(t *testing.T) {
	extra := []Profile{{Name: "healthy", Description: "mine"}, {Name: "mine"}}
	if _, err := Merge(Builtin(), extra, false); err == nil || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("err = %v, want a refusal naming --replace", err)
	}
	all, err := Merge(Builtin(), extra, true)
	if err != nil || len(all) != len(Builtin())+1 || all[0].Description != "mine" {
		t.Fatalf("%v, %d profiles", err, len(all))
	}
}

// Recommend and BestByProfile agree with a direct scan: the best timeout
// is the one of least weighed cost.
func TestRecommendAndBestByProfileMatchADirectScan(t *testing.T) {
	cells, err := Sweep(SweepConfig{Profiles: Builtin()[:3], Timeouts: []time.Duration{250 * time.Millisecond, time.Second, 4 * time.Second},
		Policies: []engine.Policy{engine.PolicyWebSocketFirst, engine.PolicyHTTPFirst}, Clients: 60, Horizon: time.Minute, Seed: 3,
		Base: engine.AblyConfig()})
	if err != nil {
		t.Fatal(err)
	}
	cost := Cost{PerSecond: 1, PerWasted: 0.3}
	best := BestByProfile(cells, cost)
	for _, p := range Builtin()[:3] {
		var want time.Duration
		wantCost := math.Inf(1)
		for _, c := range cells {
			if c.Profile == p.Name && c.Policy == "websocket-first" && cost.Of(c) < wantCost {
				want, wantCost = c.ShortCircuit, cost.Of(c)
			}
		}
		rec, err := Recommend(cells, map[string]float64{p.Name: 2}, cost)
		if err != nil || rec.Best != want || best[p.Name] != want {
			t.Errorf("%s: Recommend %v (%v), BestByProfile %v, want %v", p.Name, rec.Best, err, best[p.Name], want)
		}
	}
	for _, mix := range []map[string]float64{{"healthy": math.Inf(1)}, {"healthy": math.NaN()}, {"healthy": 1e308, "slow-mobile": 1e308}, {"healthy": 0}} {
		if _, err := Recommend(cells, mix, cost); err == nil {
			t.Errorf("mix %v accepted", mix)
		}
	}
}

func FuzzParseProfiles(f *testing.F) {
	f.Add(builtinJSON)
	f.Add([]byte(`{"profiles": [{"name": "a", "flap": {"periodMs": 1, "downMs": 0}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := ParseProfiles(data)
		if err != nil {
			return
		}
		// A profile that parses must simulate without trouble.
		for _, p := range ps[:min(len(ps), 2)] {
			Simulate(p, engine.AblyConfig(), time.Minute, rand.New(rand.NewPCG(1, 1)))
		}
	})
}
