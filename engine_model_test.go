package reconnect

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// engineHarness plays the SDK around an Engine: it performs the actions
// (tracks live transports and timers), and checks after every step the
// invariants the engine promises.
type engineHarness struct {
	e   *Engine
	cfg Config
	now time.Time

	transports map[TransportID]*harnessTransport
	timers     map[TimerID]harnessTimer
	maxTport   TransportID
	maxTimer   TimerID
	// lateTimers is set when the driver may fire timers after they are
	// due (the fuzz target); the rapid test fires them exactly on time.
	lateTimers bool
	checking   bool
	wsChecking bool
	errs       errorModel
	// fired is the timer the drivers took from timers to fire next.
	firedID TimerID
	fired   harnessTimer

	// For the spacing properties.
	enteredAt     time.Time // when the current DISCONNECTED/SUSPENDED began
	enteredN      int       // the retry count it announced
	retryDue      time.Time
	lastReconnect time.Time
	hadReconnect  bool
}

type harnessTransport struct {
	kind   Transport
	host   string
	active bool
}

type harnessTimer struct {
	kind      TimerKind
	due       time.Time
	transport TransportID
}

func newEngineHarness(cfg Config) (*engineHarness, error) {
	e, err := NewEngine(cfg)
	if err != nil {
		return nil, err
	}
	return &engineHarness{e: e, cfg: cfg, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		transports: map[TransportID]*harnessTransport{}, timers: map[TimerID]harnessTimer{}}, nil
}

// step feeds ev at h.now and checks the result; it returns a description
// of the first broken promise.
func (h *engineHarness) step(ev Event) error {
	before := h.e.State()
	h.noteEvent(ev)
	out := h.e.Step(h.now, ev, nil)
	fallbackOpenedAfterDown := false
	for _, a := range out {
		switch a.Kind {
		case ActionOpenTransport:
			if a.Transport <= h.maxTport {
				return fmt.Errorf("transport ID %d reused or out of order", a.Transport)
			}
			h.maxTport = a.Transport
			h.transports[a.Transport] = &harnessTransport{kind: a.TransportKind, host: a.Host}
			if ev.Kind == EventConnectivity && !ev.Up {
				fallbackOpenedAfterDown = true
			}
		case ActionDisposeTransport:
			if h.transports[a.Transport] == nil {
				return fmt.Errorf("dispose of unknown transport T%d", a.Transport)
			}
			delete(h.transports, a.Transport)
		case ActionActivateTransport:
			tr := h.transports[a.Transport]
			if tr == nil {
				return fmt.Errorf("activate of unknown transport T%d", a.Transport)
			}
			tr.active = true
		case ActionStartTimer:
			if a.Timer <= h.maxTimer {
				return fmt.Errorf("timer ID %d reused or out of order", a.Timer)
			}
			if a.Due.Before(h.now) {
				return fmt.Errorf("timer %v due in the past", a.TimerKind)
			}
			h.maxTimer = a.Timer
			h.timers[a.Timer] = harnessTimer{kind: a.TimerKind, due: a.Due, transport: a.Transport}
		case ActionCancelTimer:
			if _, ok := h.timers[a.Timer]; !ok {
				return fmt.Errorf("cancel of unknown timer K%d", a.Timer)
			}
			delete(h.timers, a.Timer)
		case ActionCheckConnectivity:
			h.checking = true
		case ActionCheckWebSocket:
			h.wsChecking = true
		case ActionStateChange:
			if err := h.onStateChange(a); err != nil {
				return err
			}
			if err := h.checkStateFailure(a); err != nil {
				return err
			}
		}
	}
	if ev.Kind == EventConnectivity {
		h.checking = false
	}
	if ev.Kind == EventWebSocketCheck {
		h.wsChecking = false
	}
	if fallbackOpenedAfterDown {
		return fmt.Errorf("a transport was opened right after the connectivity check said down")
	}
	if err := h.checkLastError(); err != nil {
		return err
	}
	return h.checkInvariants(before, ev)
}

func (h *engineHarness) onStateChange(a Action) error {
	t := h.e.cfg.Timeouts
	switch a.To {
	case Connecting:
		switch a.Reason {
		case ReasonRetry:
			if a.From == Suspended && (h.now.Before(h.retryDue) || !h.lateTimers && !h.now.Equal(h.retryDue)) {
				return fmt.Errorf("SUSPENDED retry at %v, due at %v", h.now, h.retryDue)
			}
			if a.From == Disconnected {
				lo, _ := RetryBounds(t.DisconnectedRetry, h.enteredN)
				if a.From == Disconnected && h.now.Sub(h.enteredAt) < lo {
					return fmt.Errorf("retry after %v, below the RTB1 lower bound %v for n=%d", h.now.Sub(h.enteredAt), lo, h.enteredN)
				}
			}
		case ReasonReconnect:
			if h.hadReconnect && h.now.Sub(h.lastReconnect) < time.Second {
				return fmt.Errorf("two immediate reconnects %v apart", h.now.Sub(h.lastReconnect))
			}
			h.hadReconnect, h.lastReconnect = true, h.now
		}
	case Disconnected:
		if a.RetryIn > 0 || a.Reason != ReasonDropped {
			n := h.e.RetryCount()
			lo, hi := RetryBounds(t.DisconnectedRetry, n)
			if n < 1 || a.RetryIn < lo || a.RetryIn > hi {
				return fmt.Errorf("DISCONNECTED retryIn %v outside [%v, %v] for n=%d", a.RetryIn, lo, hi, n)
			}
			h.enteredAt, h.enteredN, h.retryDue = h.now, n, h.now.Add(a.RetryIn)
		}
	case Suspended:
		if a.RetryIn != t.SuspendedRetry || h.e.RetryCount() != 0 {
			return fmt.Errorf("SUSPENDED retryIn %v (want %v), retry count %d", a.RetryIn, t.SuspendedRetry, h.e.RetryCount())
		}
		h.enteredAt, h.retryDue = h.now, h.now.Add(a.RetryIn)
	case Connected:
		if h.e.RetryCount() != 0 {
			return fmt.Errorf("CONNECTED with retry count %d", h.e.RetryCount())
		}
	}
	return nil
}

func (h *engineHarness) checkInvariants(before State, ev Event) error {
	active := 0
	for id, tr := range h.transports {
		if tr.active {
			active++
			continue
		}
		// Every opened transport is eventually disposed or active: while
		// it is neither, its connect timeout is running (under
		// PolicyWebSocketCheck, or the attempt limit: a transport that
		// opened has no timeout of its own there).
		found := false
		for _, tm := range h.timers {
			if tm.kind == TimerConnect && tm.transport == id || tm.kind == TimerAttempt {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("transport T%d is neither active nor timed", id)
		}
	}
	if active > 1 {
		return fmt.Errorf("%d active transports", active)
	}
	st := h.e.State()
	switch st {
	case Connecting, Disconnected, Suspended:
		if len(h.timers) == 0 {
			return fmt.Errorf("stuck in %v: no timer", st)
		}
	case Closed, Failed:
		if len(h.transports) > 0 || len(h.timers) > 0 {
			return fmt.Errorf("%v with %d transports and %d timers live", st, len(h.transports), len(h.timers))
		}
		if before == st && ev.Kind != EventConnect && h.e.State() != st {
			return fmt.Errorf("left %v without a connect", st)
		}
	case Connected:
		if active != 1 {
			return fmt.Errorf("CONNECTED with %d active transports", active)
		}
	}
	if st != Connected && st != Closing && active > 0 {
		return fmt.Errorf("%v with an active transport", st)
	}
	return nil
}

// nextTimer returns the live timer due first (ties by ID).
func (h *engineHarness) nextTimer() (TimerID, harnessTimer, bool) {
	ids := make([]TimerID, 0, len(h.timers))
	for id := range h.timers {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return 0, harnessTimer{}, false
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := h.timers[ids[i]], h.timers[ids[j]]
		if !a.due.Equal(b.due) {
			return a.due.Before(b.due)
		}
		return ids[i] < ids[j]
	})
	return ids[0], h.timers[ids[0]], true
}

// take removes live timer id to fire it, remembering what it was.
func (h *engineHarness) take(id TimerID) {
	h.firedID, h.fired = id, h.timers[id]
	delete(h.timers, id)
}

// advance moves time forward by up to d, never past the next timer.
func (h *engineHarness) advance(d time.Duration) {
	if _, tm, ok := h.nextTimer(); ok && h.now.Add(d).After(tm.due) {
		d = tm.due.Sub(h.now)
	}
	h.now = h.now.Add(d)
}

func (h *engineHarness) liveIDs() []TransportID {
	ids := make([]TransportID, 0, len(h.transports))
	for id := range h.transports {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

var anyFailure = rapid.Custom(func(t *rapid.T) Failure {
	return Failure{
		Kind:   FailureKind(rapid.IntRange(0, int(numFailureKinds)).Draw(t, "kind")),
		Status: rapid.SampledFrom([]int{0, 400, 401, 403, 404, 500, 503, 504, 505}).Draw(t, "status"),
		Server: rapid.SampledFrom([]string{"", "CloudFront"}).Draw(t, "server"),
	}
})

func TestPropertyEngineKeepsItsPromisesUnderRandomEvents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := DefaultConfig()
		cfg.Transports = rapid.SampledFrom([]Availability{{WebSocket: true, HTTP: true}, {WebSocket: true}, {HTTP: true}}).Draw(t, "transports")
		cfg.Policy = rapid.SampledFrom([]Policy{PolicyWebSocketFirst, PolicyHTTPFirst, PolicyWebSocketCheck}).Draw(t, "policy")
		cfg.Endpoint.Endpoint = rapid.SampledFrom([]string{"", "rt.example.com"}).Draw(t, "endpoint")
		cfg.ShortCircuit = time.Duration(rapid.IntRange(0, 5000).Draw(t, "shortCircuitMs")) * time.Millisecond
		cfg.Timeouts.ConnectionStateTTL = time.Duration(rapid.SampledFrom([]int{5, 30, 120}).Draw(t, "ttlSeconds")) * time.Second
		cfg.Source = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		h, err := newEngineHarness(cfg)
		if err != nil {
			t.Fatal(err)
		}
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
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
				h.advance(time.Duration(rapid.IntRange(0, 3000).Draw(t, "delayMs")) * time.Millisecond)
				id := rapid.SampledFrom(ids).Draw(t, "transport")
				kind := rapid.SampledFrom([]EventKind{EventTransportViable, EventTransportConnected, EventTransportFailed, EventTransportClosed}).Draw(t, "event")
				must(h.step(Event{Kind: kind, Transport: id, Failure: anyFailure.Draw(t, "failure")}))
			},
			"the connectivity check answers": func(t *rapid.T) {
				if !h.checking {
					t.Skip("no check in flight")
				}
				h.advance(time.Duration(rapid.IntRange(0, 500).Draw(t, "delayMs")) * time.Millisecond)
				must(h.step(Event{Kind: EventConnectivity, Up: rapid.Bool().Draw(t, "up")}))
			},
			"the websocket check answers": func(t *rapid.T) {
				if !h.wsChecking {
					t.Skip("no websocket check in flight")
				}
				h.advance(time.Duration(rapid.IntRange(0, 5000).Draw(t, "delayMs")) * time.Millisecond)
				must(h.step(Event{Kind: EventWebSocketCheck, Up: rapid.Bool().Draw(t, "up")}))
			},
			"the user or the OS acts": func(t *rapid.T) {
				h.advance(time.Duration(rapid.IntRange(0, 20000).Draw(t, "delayMs")) * time.Millisecond)
				kind := rapid.SampledFrom([]EventKind{EventConnect, EventConnect, EventClose, EventNetworkUp, EventNetworkDown, EventFatal}).Draw(t, "event")
				must(h.step(Event{Kind: kind, Failure: Failure{Kind: FailureToken, Status: 401}}))
			},
			"a bad event arrives": func(t *rapid.T) {
				ev := Event{
					Kind:      EventKind(rapid.IntRange(0, int(numEventKinds)+2).Draw(t, "kind")),
					Transport: TransportID(rapid.Uint64Range(0, 1<<20).Draw(t, "transport") + uint64(h.maxTport) + 1),
					Timer:     TimerID(rapid.Uint64Range(0, 1<<20).Draw(t, "timer") + uint64(h.maxTimer) + 1),
				}
				if ev.Kind == EventConnect || ev.Kind == EventClose || ev.Kind == EventNetworkUp || ev.Kind == EventNetworkDown || ev.Kind == EventFatal || ev.Kind == EventConnectivity || ev.Kind == EventWebSocketCheck {
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
		cfg := DefaultConfig()
		if len(data) > 0 {
			cfg.Transports = []Availability{{WebSocket: true, HTTP: true}, {WebSocket: true}, {HTTP: true}}[int(data[0])%3]
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
				Failure: Failure{Kind: FailureKind(extra % 9), Status: 400 + int(extra)}}
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
	cfg := DefaultConfig()
	cfg.Source = constSource(0.5)
	e, _ := NewEngine(cfg)
	fresh, _ := NewEngine(cfg)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	events := []Event{{Kind: EventConnect}, {Kind: EventTransportFailed, Transport: 1, Failure: Failure{Kind: FailureRefused}},
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
		{func(c *Config) { c.Timeouts.HTTPOpen = 0 }, "Config.Timeouts.HTTPOpen"},
		{func(c *Config) { c.ShortCircuit = -1 }, "Config.ShortCircuit"},
		{func(c *Config) { c.Transports = Availability{} }, "Config.Transports"},
		{func(c *Config) { c.Policy = 9 }, "Config.Policy"},
		{func(c *Config) { c.SlowTimeout = -1 }, "Config.SlowTimeout"},
		{func(c *Config) { c.GiveUpTimeout = -1 }, "Config.GiveUpTimeout"},
		{func(c *Config) { c.Endpoint.Endpoint = "a b.c" }, "Config.Endpoint.Endpoint"},
		{func(c *Config) { c.Endpoint.FallbackHosts = []string{"x.y", "x.y"} }, "Config.Endpoint.FallbackHosts[1]"},
	} {
		cfg := DefaultConfig()
		c.mutate(&cfg)
		_, err := NewEngine(cfg)
		if fe, ok := err.(*FieldError); !ok || fe.Field != c.field {
			t.Errorf("NewEngine: %v, want a *FieldError naming %s", err, c.field)
		}
	}
}
