package engine

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"pgregory.net/rapid"
)

// The liveness property: if HTTP works on some host an attempt tries, the
// client reaches CONNECTED within one attempt whatever the websocket does.
// A small world plays the network around the engine: HTTP connects on one
// host and fails with a qualifying failure on the others, the connectivity
// check says up, and every websocket (the first one of an attempt and the
// upgrade ones) behaves as an adversary drawn by rapid.

// wsBehaviour is what one websocket does once opened.
type wsBehaviour uint8

const (
	wsRefused         wsBehaviour = iota // fails at once
	wsBlackholed                         // never answers
	wsViableKilled                       // viable, then closed before CONNECTED
	wsConnectedKilled                    // viable, CONNECTED, then closed
	wsViableStuck                        // viable, never CONNECTED
	wsHealthy                            // viable, CONNECTED, stays
	numWSBehaviours
)

var wsBehaviourNames = [numWSBehaviours]string{"refused", "blackholed", "viable-killed", "connected-killed", "viable-stuck", "healthy"}

func (b wsBehaviour) String() string { return wsBehaviourNames[b] }

// worldEvent is an event due at a time; seq orders ties.
type worldEvent struct {
	at  time.Time
	seq int
	ev  Event
}

type worldQueue []worldEvent

func (q worldQueue) Len() int { return len(q) }
func (q worldQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q worldQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *worldQueue) Push(x any)   { *q = append(*q, x.(worldEvent)) }
func (q *worldQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// world drives one engine through an adversarial network.
type world struct {
	t        *rapid.T
	e        *Engine
	now      time.Time
	q        worldQueue
	seq      int
	httpHost string // the one host where HTTP works
	ws       func() wsBehaviour
	lat      func(string) time.Duration
	timers   map[TimerID]TimerKind // live timers
	out      []Action
	onChange func(a Action) // each state change, as it happens
	onOpen   func(a Action) // each transport opened, if set
	onWSDrop func()         // an active websocket dropped, if set
	kinds    map[TransportID]reconnect.TransportKind
	active   TransportID
}

func (w *world) at(d time.Duration, ev Event) {
	w.seq++
	heap.Push(&w.q, worldEvent{at: w.now.Add(d), seq: w.seq, ev: ev})
}

// open plays the network's part for a transport the engine opened.
func (w *world) open(a Action) {
	id := a.Transport
	tr := func(k EventKind, f reconnect.Failure) Event { return Event{Kind: k, Transport: id, Failure: f} }
	if a.TransportKind == reconnect.HTTP {
		if a.Host == w.httpHost {
			d := w.lat("httpViableMs")
			w.at(d, tr(EventTransportViable, reconnect.Failure{}))
			w.at(d+w.lat("httpConnectedMs"), tr(EventTransportConnected, reconnect.Failure{}))
			return
		}
		f := []reconnect.Failure{{Kind: reconnect.FailureDNS}, {Kind: reconnect.FailureRefused}, {Kind: reconnect.FailureHTTPStatus, Status: 503}, {}}[rapid.IntRange(0, 3).Draw(w.t, "httpFailure")]
		if f.Kind != reconnect.FailureNone {
			w.at(w.lat("httpFailMs"), tr(EventTransportFailed, f))
		} // else blackholed: the connect timeout decides
		return
	}
	b := w.ws()
	d1 := w.lat("wsViableMs")
	d2 := d1 + w.lat("wsNextMs")
	switch b {
	case wsRefused:
		w.at(d1, tr(EventTransportFailed, reconnect.Failure{Kind: reconnect.FailureRefused}))
	case wsViableKilled:
		w.at(d1, tr(EventTransportViable, reconnect.Failure{}))
		w.at(d2, tr(EventTransportClosed, reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503}))
	case wsConnectedKilled:
		w.at(d1, tr(EventTransportViable, reconnect.Failure{}))
		w.at(d2, tr(EventTransportConnected, reconnect.Failure{}))
		w.at(d2+w.lat("wsLifeMs"), tr(EventTransportClosed, reconnect.Failure{}))
	case wsViableStuck:
		w.at(d1, tr(EventTransportViable, reconnect.Failure{}))
	case wsHealthy:
		w.at(d1, tr(EventTransportViable, reconnect.Failure{}))
		w.at(d2, tr(EventTransportConnected, reconnect.Failure{}))
	}
}

// step feeds ev and plays the actions.
func (w *world) step(ev Event) {
	if (ev.Kind == EventTransportClosed || ev.Kind == EventTransportFailed) && ev.Transport == w.active &&
		w.kinds[w.active] == reconnect.WebSocket && w.e.State() == Connected && w.onWSDrop != nil {
		w.onWSDrop()
	}
	w.out = w.e.Step(w.now, ev, w.out[:0])
	for _, a := range w.out {
		switch a.Kind {
		case ActionOpenTransport:
			w.kinds[a.Transport] = a.TransportKind
			if w.onOpen != nil {
				w.onOpen(a)
			}
			w.open(a)
		case ActionActivateTransport:
			w.active = a.Transport
		case ActionDisposeTransport:
			if a.Transport == w.active {
				w.active = 0
			}
			delete(w.kinds, a.Transport)
		case ActionStartTimer:
			w.timers[a.Timer] = a.TimerKind
			w.seq++
			heap.Push(&w.q, worldEvent{at: a.Due, seq: w.seq, ev: Event{Kind: EventTimerFired, Timer: a.Timer}})
		case ActionCancelTimer:
			delete(w.timers, a.Timer)
		case ActionCheckConnectivity:
			w.at(w.lat("checkMs"), Event{Kind: EventConnectivity, Check: a.Check, Up: true})
		case ActionStateChange:
			w.onChange(a)
		}
	}
}

// run plays events until horizon.
func (w *world) run(horizon time.Time) {
	w.step(Event{Kind: EventConnect})
	for w.q.Len() > 0 {
		it := heap.Pop(&w.q).(worldEvent)
		if it.at.After(horizon) {
			return
		}
		if _, live := w.timers[it.ev.Timer]; it.ev.Kind == EventTimerFired && !live {
			continue // cancelled: a real SDK's timer would not fire
		}
		delete(w.timers, it.ev.Timer)
		w.now = it.at
		w.step(it.ev)
	}
}

// livenessConfig draws a configuration whose every host is tried in one
// attempt: the primary and at most httpMaxRetryCount explicit fallbacks.
func livenessConfig(t *rapid.T) (Config, []string) {
	cfg := AblyConfig()
	cfg.Policy = rapid.SampledFrom([]Policy{PolicyWebSocketFirst, PolicyHTTPFirst}).Draw(t, "policy")
	cfg.ShortCircuit = time.Duration(rapid.IntRange(0, 5000).Draw(t, "shortCircuitMs")) * time.Millisecond
	nfb := rapid.IntRange(0, cfg.Timeouts.HTTPMaxRetryCount).Draw(t, "fallbacks")
	cfg.Endpoint.FallbackHosts = []string{}
	for i := range nfb {
		cfg.Endpoint.FallbackHosts = append(cfg.Endpoint.FallbackHosts, fmt.Sprintf("fb%d.example.com", i))
	}
	cfg.Source = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	return cfg, append([]string{cfg.Endpoint.Endpoint}, cfg.Endpoint.FallbackHosts...)
}

func TestPropertyLivenessHTTPWorksSoEveryAttemptConnects(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg, _ := livenessConfig(t)
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		hosts := append([]string{e.Hosts().Primary}, e.Hosts().Fallbacks...)
		fixed := rapid.Bool().Draw(t, "sameBehaviourEveryTime")
		first := wsBehaviour(rapid.IntRange(0, int(numWSBehaviours)-1).Draw(t, "websocket"))
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		w := &world{t: t, e: e, now: start, timers: map[TimerID]TimerKind{}, kinds: map[TransportID]reconnect.TransportKind{},
			httpHost: rapid.SampledFrom(hosts).Draw(t, "httpHost"),
			ws: func() wsBehaviour {
				if fixed {
					return first
				}
				return wsBehaviour(rapid.IntRange(0, int(numWSBehaviours)-1).Draw(t, "websocket"))
			},
			lat: func(label string) time.Duration {
				hi := 12000 // the websocket may take longer than any timeout
				if label == "httpViableMs" || label == "httpConnectedMs" || label == "checkMs" {
					hi = 4000 // working HTTP connects within realtimeRequestTimeout
				}
				return time.Duration(rapid.IntRange(1, hi).Draw(t, label)) * time.Millisecond
			},
		}
		var attemptFrom time.Time
		connects := 0
		w.onChange = func(a Action) {
			switch {
			case a.To == Connecting:
				attemptFrom = w.now
			case a.From == Connecting && a.To != Connected:
				t.Fatalf("at %v an attempt ended %v (%v, %v) although HTTP works on %s", w.now.Sub(start), a.To, a.Reason, a.Failure, w.httpHost)
			case a.To == Connected:
				connects++
				// The slowest attempt: the short circuit or a stuck
				// websocket's connect timeout, then each host's connect
				// timeout and connectivity check, then HTTP's latency.
				if limit := 10*time.Second + time.Duration(len(hosts))*20*time.Second + 24*time.Second; w.now.Sub(attemptFrom) > limit {
					t.Fatalf("an attempt took %v (limit %v)", w.now.Sub(attemptFrom), limit)
				}
			}
		}
		w.run(start.Add(10 * time.Minute))
		if connects == 0 {
			t.Fatalf("never CONNECTED in 10 minutes; state %v", e.State())
		}
		if e.State() == Connecting && w.now.Sub(attemptFrom) > 2*time.Minute {
			t.Fatalf("stuck CONNECTING since %v", attemptFrom.Sub(start))
		}
	})
}

// The flapping guard as a property: websockets that connect and die after
// a while, HTTP that works. The test keeps its own account of websocket
// drops and of when HTTP must be preferred (FlapGuard's doc), and checks
// that the engine opens a websocket exactly when it may: no websocket at
// all while HTTP is preferred, and otherwise the policy's websocket (the
// first transport of a websocket-first attempt, the upgrade after HTTP
// activates).
func TestPropertyFlappingWebSocketGivesWayToHTTPForTheHold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg, _ := livenessConfig(t)
		cfg.Flap = FlapGuard{
			Drops:  rapid.IntRange(1, 6).Draw(t, "drops"),
			Window: time.Duration(rapid.IntRange(10, 600).Draw(t, "windowS")) * time.Second,
			Hold:   time.Duration(rapid.IntRange(1, 20).Draw(t, "holdMin")) * time.Minute,
		}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		hosts := append([]string{e.Hosts().Primary}, e.Hosts().Fallbacks...)
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		lifeMax := rapid.IntRange(1, 120).Draw(t, "lifeMaxS")
		w := &world{t: t, e: e, now: start, timers: map[TimerID]TimerKind{}, kinds: map[TransportID]reconnect.TransportKind{},
			httpHost: rapid.SampledFrom(hosts).Draw(t, "httpHost"),
			ws:       func() wsBehaviour { return wsConnectedKilled },
			lat: func(label string) time.Duration {
				switch label {
				case "wsLifeMs":
					return time.Duration(rapid.IntRange(1, lifeMax*1000).Draw(t, label)) * time.Millisecond
				case "wsViableMs", "wsNextMs":
					return time.Duration(rapid.IntRange(1, 3000).Draw(t, label)) * time.Millisecond
				}
				return time.Duration(rapid.IntRange(1, 4000).Draw(t, label)) * time.Millisecond
			},
		}
		var drops []time.Time
		var holdUntil time.Time
		w.onWSDrop = func() {
			drops = append(drops, w.now)
			if k := cfg.Flap.Drops; len(drops) >= k && w.now.Sub(drops[len(drops)-k]) <= cfg.Flap.Window {
				holdUntil, drops = w.now.Add(cfg.Flap.Hold), nil
			}
		}
		holding := func() bool { return w.now.Before(holdUntil) }
		wsOpened := false
		w.onOpen = func(a Action) {
			if a.TransportKind == reconnect.WebSocket {
				wsOpened = true
				if holding() {
					t.Fatalf("at %v a websocket opened while HTTP is preferred until %v", w.now.Sub(start), holdUntil.Sub(start))
				}
			}
		}
		w.onChange = func(a Action) {
			if a.From == Connecting && a.To != Connected {
				t.Fatalf("at %v an attempt ended %v although HTTP works", w.now.Sub(start), a.To)
			}
		}
		// Step by step, check that each attempt start and each HTTP
		// activation opened a websocket exactly when it may.
		inner := w.onChange
		w.onChange = func(a Action) {
			inner(a)
			if a.To == Connecting {
				wsOpened = false
			}
		}
		w.step(Event{Kind: EventConnect})
		for w.q.Len() > 0 {
			it := heap.Pop(&w.q).(worldEvent)
			if it.at.After(start.Add(2 * time.Hour)) {
				break
			}
			if _, live := w.timers[it.ev.Timer]; it.ev.Kind == EventTimerFired && !live {
				continue
			}
			firedKind := w.timers[it.ev.Timer]
			delete(w.timers, it.ev.Timer)
			w.now = it.at
			wsOpened = false
			before := e.State()
			wsLive := false
			for _, k := range w.kinds {
				wsLive = wsLive || k == reconnect.WebSocket
			}
			holdOverOnHTTP := it.ev.Kind == EventTimerFired && firedKind == TimerFlapHold && before == Connected && w.kinds[w.active] == reconnect.HTTP && !wsLive
			w.step(it.ev)
			startedAttempt := false
			activatedHTTP := false
			for _, a := range w.out {
				startedAttempt = startedAttempt || a.Kind == ActionStateChange && a.To == Connecting
				activatedHTTP = activatedHTTP || a.Kind == ActionActivateTransport && w.kinds[a.Transport] == reconnect.HTTP
			}
			switch {
			case startedAttempt && cfg.Policy == PolicyWebSocketFirst && wsOpened == holding():
				t.Fatalf("at %v an attempt started with a websocket %v while HTTP preferred %v", w.now.Sub(start), wsOpened, holding())
			case activatedHTTP && before == Connecting && wsOpened == holding():
				t.Fatalf("at %v HTTP activated; upgrade websocket %v while HTTP preferred %v", w.now.Sub(start), wsOpened, holding())
			case holdOverOnHTTP && !wsOpened:
				t.Fatalf("at %v the hold ended on an HTTP connection and no upgrade websocket opened", w.now.Sub(start))
			}
		}
	})
}
