package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"pgregory.net/rapid"
)

// anyDetails are the connection details of a CONNECTED message: mostly
// none, sometimes a connectionStateTtl, a maxIdleInterval or both.
var anyDetails = rapid.Custom(func(t *rapid.T) Details {
	return Details{
		ConnectionStateTTL: time.Duration(rapid.SampledFrom([]int{0, 0, 0, 2000, 60000}).Draw(t, "ttlMs")) * time.Millisecond,
		MaxIdleInterval:    time.Duration(rapid.SampledFrom([]int{0, 0, 0, 1000, 15000}).Draw(t, "maxIdleMs")) * time.Millisecond,
	}
})

var anyFailure = rapid.Custom(func(t *rapid.T) reconnect.Failure {
	return reconnect.Failure{
		Kind:   reconnect.FailureKind(rapid.IntRange(0, int(numFailureKinds)).Draw(t, "kind")),
		Status: rapid.SampledFrom([]int{0, 400, 401, 403, 404, 500, 503, 504, 505}).Draw(t, "status"),
		Server: rapid.SampledFrom([]string{"", "CloudFront"}).Draw(t, "server"),
	}
})

func TestPropertyEngineKeepsItsPromisesUnderRandomEvents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := AblyConfig()
		// The default configuration (both transports, websocket first),
		// where every transport rule can be reached, is drawn most often.
		both := reconnect.Availability{WebSocket: true, HTTP: true}
		cfg.Transports = rapid.SampledFrom([]reconnect.Availability{both, both, both, {WebSocket: true}, {HTTP: true}}).Draw(t, "transports")
		cfg.Policy = rapid.SampledFrom([]Policy{PolicyWebSocketFirst, PolicyWebSocketFirst, PolicyWebSocketFirst, PolicyHTTPFirst, PolicyWebSocketCheck}).Draw(t, "policy")
		cfg.Endpoint.Endpoint = rapid.SampledFrom([]string{"", "rt.example.com"}).Draw(t, "endpoint")
		cfg.ShortCircuit = time.Duration(rapid.IntRange(0, 5000).Draw(t, "shortCircuitMs")) * time.Millisecond
		cfg.Timeouts.ConnectionStateTTL = time.Duration(rapid.SampledFrom([]int{5, 30, 120}).Draw(t, "ttlSeconds")) * time.Second
		cfg.Source = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		// The transport preference: used by the other policies too, and an
		// HTTP remembered before the first connect.
		cfg.RememberTransport = rapid.Bool().Draw(t, "rememberTransport")
		cfg.CanRenewToken = rapid.Bool().Draw(t, "canRenewToken")
		// The timeouts by job (0: realtimeRequestTimeout) and the
		// client-side idle limit (0: none).
		jobMs := func(name string) time.Duration {
			return time.Duration(rapid.SampledFrom([]int{0, 0, 1, 2500, 30000}).Draw(t, name)) * time.Millisecond
		}
		cfg.Timeouts.Connect, cfg.Timeouts.IdleSlack = jobMs("connectMs"), jobMs("idleSlackMs")
		cfg.Timeouts.Closing, cfg.Timeouts.Renewal = jobMs("closingMs"), jobMs("renewalMs")
		cfg.IdleLimit = jobMs("idleLimitMs")
		if rapid.Bool().Draw(t, "rememberedHTTP") {
			cfg.Preference = reconnect.Preference{Transport: reconnect.HTTP, At: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Reason: reconnect.PreferenceConnected}
		}
		h, err := newEngineHarness(cfg)
		if err != nil {
			t.Fatal(err)
		}
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		// answer is the action of a check of kind k in flight answering,
		// up to maxDelayMs after the last event.
		answer := func(k EventKind, maxDelayMs int, none string) func(*rapid.T) {
			return func(t *rapid.T) {
				ids := h.pendingChecks(k)
				if len(ids) == 0 {
					t.Skip(none)
				}
				h.advance(time.Duration(rapid.IntRange(0, maxDelayMs).Draw(t, "delayMs")) * time.Millisecond)
				must(h.step(Event{Kind: k, Check: rapid.SampledFrom(ids).Draw(t, "check"), Up: rapid.Bool().Draw(t, "up")}))
			}
		}
		must(h.step(Event{Kind: EventConnect}))
		t.Repeat(map[string]func(*rapid.T){
			"the next timer fires": func(t *rapid.T) {
				id, tm, ok := h.nextTimer()
				if !ok {
					t.Skip("no timer")
				}
				h.now = tm.due
				h.take(id)
				must(h.step(Event{Kind: EventTimerFired, Timer: id}))
			},
			"a transport reports": func(t *rapid.T) {
				ids := h.liveIDs()
				if len(ids) == 0 {
					t.Skip("no transport")
				}
				// Now and then the SDK stamps an event with a time earlier
				// than the last it fed (a clock that moved back): the
				// engine must treat it as that last time.
				var at time.Time
				if earlier := rapid.SampledFrom([]int{0, 0, 0, 30000}).Draw(t, "earlierMs"); earlier > 0 {
					h.now = h.lastFed
					at = h.now.Add(-time.Duration(earlier) * time.Millisecond)
				} else {
					h.advance(time.Duration(rapid.IntRange(0, 3000).Draw(t, "delayMs")) * time.Millisecond)
					at = h.now
				}
				id := rapid.SampledFrom(ids).Draw(t, "transport")
				kind := rapid.SampledFrom([]EventKind{EventTransportViable, EventTransportViable, EventTransportViable, EventTransportConnected, EventTransportFailed, EventTransportClosed,
					EventConnectionDetails, EventActivity}).Draw(t, "event")
				ev := Event{Kind: kind, Transport: id, Failure: anyFailure.Draw(t, "failure")}
				if kind == EventTransportConnected || kind == EventConnectionDetails {
					ev.Details = anyDetails.Draw(t, "details")
				}
				if kind == EventActivity && rapid.Bool().Draw(t, "lastActivityGiven") {
					ev.LastActivity = at.Add(-time.Duration(rapid.IntRange(0, 20000).Draw(t, "activityAgoMs")) * time.Millisecond)
				}
				must(h.stepAt(at, ev))
			},
			"the connectivity check answers": answer(EventConnectivity, 500, "no check in flight"),
			"the websocket check answers":    answer(EventWebSocketCheck, 5000, "no websocket check in flight"),
			"the token renewal answers": func(t *rapid.T) {
				ids := h.pendingChecks(EventTokenRenewal)
				if len(ids) == 0 {
					t.Skip("no renewal in flight")
				}
				h.advance(time.Duration(rapid.IntRange(0, 5000).Draw(t, "delayMs")) * time.Millisecond)
				f := rapid.SampledFrom([]reconnect.Failure{{Kind: reconnect.FailureOther}, {Kind: reconnect.FailureHTTPStatus, Status: 403}, {Kind: reconnect.FailureTimeout}}).Draw(t, "renewalFailure")
				must(h.step(Event{Kind: EventTokenRenewal, Check: rapid.SampledFrom(ids).Draw(t, "check"), Up: rapid.Bool().Draw(t, "renewed"), Failure: f}))
			},
			"a check no longer in flight answers late, or an unknown one": func(t *rapid.T) {
				ids := append([]CheckID{0, h.maxCheck + 1}, h.over...)
				kind := rapid.SampledFrom([]EventKind{EventConnectivity, EventWebSocketCheck, EventTokenRenewal}).Draw(t, "kind")
				h.advance(time.Duration(rapid.IntRange(0, 20000).Draw(t, "delayMs")) * time.Millisecond)
				must(h.step(Event{Kind: kind, Check: rapid.SampledFrom(ids).Draw(t, "check"), Up: rapid.Bool().Draw(t, "up")}))
			},
			"the user or the OS acts": func(t *rapid.T) {
				h.advance(time.Duration(rapid.IntRange(0, 20000).Draw(t, "delayMs")) * time.Millisecond)
				kind := rapid.SampledFrom([]EventKind{EventConnect, EventConnect, EventClose, EventNetworkUp, EventNetworkDown, EventFatal, EventAuthorize}).Draw(t, "event")
				must(h.step(Event{Kind: kind, Failure: reconnect.Failure{Kind: reconnect.FailureToken, Status: 401}}))
			},
			"a bad event arrives": func(t *rapid.T) {
				ev := Event{
					Kind:      EventKind(rapid.IntRange(0, int(numEventKinds)+2).Draw(t, "kind")),
					Transport: TransportID(rapid.Uint64Range(0, 1<<20).Draw(t, "transport") + uint64(h.maxTport) + 1),
					Timer:     TimerID(rapid.Uint64Range(0, 1<<20).Draw(t, "timer") + uint64(h.maxTimer) + 1),
				}
				if ev.Kind == EventConnect || ev.Kind == EventClose || ev.Kind == EventNetworkUp || ev.Kind == EventNetworkDown || ev.Kind == EventFatal || ev.Kind == EventAuthorize || ev.Kind == EventConnectivity || ev.Kind == EventWebSocketCheck {
					ev.Kind = EventNone
				}
				saved := h.now
				h.now = h.now.Add(-time.Duration(rapid.IntRange(0, 60000).Draw(t, "earlierMs")) * time.Millisecond)
				st := h.e.State()
				out := h.e.Step(h.now, ev, nil)
				h.now = saved
				if len(out) != 0 || h.e.State() != st {
					t.Fatalf("bad event %+v produced %v", ev, out)
				}
			},
		})
	})
}

// FuzzEngine decodes arbitrary bytes into an event sequence and drives the
// engine with it, checking the same promises as the property test.
func FuzzEngine(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 3, 1, 10, 0, 4, 1, 10, 0})
	f.Add([]byte{1, 0, 0, 0, 5, 1, 1, 2, 5, 2, 5, 3, 8, 1, 0, 0, 7, 0, 200, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := AblyConfig()
		if len(data) > 0 {
			cfg.Transports = []reconnect.Availability{{WebSocket: true, HTTP: true}, {WebSocket: true}, {HTTP: true}}[int(data[0])%3]
			cfg.Policy = Policy(data[0] / 3 % 3)
		}
		cfg.Source = rand.New(rand.NewPCG(uint64(len(data)), 7))
		h, err := newEngineHarness(cfg)
		if err != nil {
			t.Fatal(err)
		}
		h.lateTimers = true
		for i := 0; i+4 <= len(data); i += 4 {
			kind, arg, dt, extra := data[i], data[i+1], data[i+2], data[i+3]
			h.now = h.now.Add(time.Duration(dt) * 100 * time.Millisecond)
			ev := Event{Kind: EventKind(kind % (uint8(numEventKinds) + 1)), Up: extra&1 == 1,
				Failure: reconnect.Failure{Kind: reconnect.FailureKind(extra % 9), Status: 400 + int(extra)}}
			switch ev.Kind {
			case EventTimerFired:
				// Fire the earliest timer at its due time, or a bogus one.
				if id, tm, ok := h.nextTimer(); ok && arg%2 == 0 {
					if tm.due.After(h.now) {
						h.now = tm.due
					}
					ev.Timer = id
					h.take(id)
				} else {
					ev.Timer = TimerID(arg) + h.maxTimer + 1
				}
			case EventConnectivity, EventWebSocketCheck, EventTokenRenewal:
				// A check asked for (in flight or over), 0, or one never asked.
				ev.Check = CheckID(arg) % (h.maxCheck + 2)
			default:
				ev.Transport = TransportID(arg % 8)
			}
			if err := h.step(ev); err != nil {
				t.Fatalf("event %d (%v): %v", i/4, ev.Kind, err)
			}
		}
	})
}

func TestEngineResetBehavesLikeANewEngine(t *testing.T) {
	cfg := AblyConfig()
	cfg.Source = constSource(0.5)
	e, _ := New(cfg)
	fresh, _ := New(cfg)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	events := []Event{{Kind: EventConnect}, {Kind: EventTransportFailed, Transport: 1, Failure: reconnect.Failure{Kind: reconnect.FailureRefused}},
		{Kind: EventTransportConnected, Transport: 2}, {Kind: EventTransportClosed, Transport: 2}}
	for _, ev := range events {
		e.Step(now, ev, nil)
	}
	e.Reset()
	for i, ev := range events {
		a, b := e.Step(now, ev, nil), fresh.Step(now, ev, nil)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("event %d: after Reset %v, new engine %v", i, a, b)
		}
	}
}

func TestConfigValidateNamesTheField(t *testing.T) {
	for _, c := range []struct {
		mutate func(*Config)
		field  string
	}{
		{func(c *Config) { c.Timeouts.HTTPRequest = 0 }, "Config.Timeouts.HTTPRequest"},
		{func(c *Config) { c.Timeouts.DisconnectedRetry = -1 }, "Config.Timeouts.DisconnectedRetry"},
		{func(c *Config) { c.ShortCircuit = -1 }, "Config.ShortCircuit"},
		{func(c *Config) { c.Transports = reconnect.Availability{} }, "Config.Transports"},
		{func(c *Config) { c.Policy = 9 }, "Config.Policy"},
		{func(c *Config) { c.Policy = numPolicies }, "Config.Policy"}, // the first value past the last
		{func(c *Config) { c.SlowTimeout = -1 }, "Config.SlowTimeout"},
		{func(c *Config) { c.GiveUpTimeout = -1 }, "Config.GiveUpTimeout"},
		{func(c *Config) { c.Endpoint.Endpoint = "a b.c" }, "Config.Endpoint.Endpoint"},
		{func(c *Config) { c.Endpoint.FallbackHosts = []string{"x.y", "x.y"} }, "Config.Endpoint.FallbackHosts[1]"},
	} {
		cfg := AblyConfig()
		c.mutate(&cfg)
		_, err := New(cfg)
		if fe, ok := err.(*reconnect.FieldError); !ok || fe.Field != c.field {
			t.Errorf("New: %v, want a *FieldError naming %s", err, c.field)
		}
	}
}
