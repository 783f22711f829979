package sim

import (
	"math/rand/v2"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// The flapping study: long-lived clients on a profile whose websockets die
// Profile.WebSocketLifetime after they activate (HTTP stays up), to choose
// the engine's flapping guard (engine.FlapGuard) with data. Unlike
// Simulate, a client here does not stop at CONNECTED: it lives until the
// horizon, and every drop of its connection is counted. The profile's
// network flap is not modelled here.

// FlapStudyConfig is one flapping study: Clients clients with engine
// configuration Engine (its Source is replaced) on Profile for Horizon
// each, from a connect request at 0; Seed makes it reproducible.
type FlapStudyConfig struct {
	Profile Profile
	Engine  engine.Config
	Horizon time.Duration
	Clients int
	Seed    uint64
}

// FlapSummary is what the clients of a flapping study lived through, per
// client on average.
type FlapSummary struct {
	// DropsPerHour is how often the active transport died, per client-hour:
	// each drop is a disruption the application sees.
	DropsPerHour float64
	// Connected is the fraction of the time spent CONNECTED.
	Connected float64
	// OnWebSocket is the fraction of the time spent CONNECTED on a
	// websocket.
	OnWebSocket float64
}

// FlapStudy runs the study. It panics on an invalid engine configuration,
// like Simulate; callers validate first.
func FlapStudy(c FlapStudyConfig) FlapSummary {
	r := rand.New(rand.NewPCG(c.Seed, 0x666c6170))
	cfg := c.Engine
	cfg.Source = r
	e, err := engine.New(cfg)
	if err != nil {
		panic("sim: invalid engine configuration: " + err.Error())
	}
	var drops int
	var connected, onWS time.Duration
	l := &longClient{p: c.Profile, e: e, r: r, primary: e.Hosts().Primary}
	for range c.Clients {
		e.Reset()
		d, cn, ws := l.run(c.Horizon)
		drops, connected, onWS = drops+d, connected+cn, onWS+ws
	}
	total := float64(c.Horizon) * float64(c.Clients)
	if total == 0 {
		return FlapSummary{}
	}
	return FlapSummary{
		DropsPerHour: float64(drops) / (total / float64(time.Hour)),
		Connected:    float64(connected) / total,
		OnWebSocket:  float64(onWS) / total,
	}
}

// longTransport is one transport of a long-lived client.
type longTransport struct {
	kind   reconnect.TransportKind
	live   bool
	active bool
}

// longClient is one long-lived simulated client.
type longClient struct {
	p       Profile
	e       *engine.Engine
	r       *rand.Rand
	primary string
	q       eventQueue
	seq     uint64
	now     time.Duration
	ts      map[engine.TransportID]*longTransport
	timers  map[engine.TimerID]bool
	acts    []engine.Action
}

func (l *longClient) push(after time.Duration, ev engine.Event) {
	l.seq++
	l.q.push(simEvent{at: l.now + after, seq: l.seq, ev: ev})
}

// run lives one client until horizon and returns its drops, its time
// CONNECTED and its time CONNECTED on a websocket.
func (l *longClient) run(horizon time.Duration) (drops int, connected, onWS time.Duration) {
	l.q, l.seq, l.now = l.q[:0], 0, 0
	l.ts, l.timers = map[engine.TransportID]*longTransport{}, map[engine.TimerID]bool{}
	var activeKind reconnect.TransportKind
	isConnected := false
	l.push(0, engine.Event{Kind: engine.EventConnect})
	for len(l.q) > 0 {
		it := l.q.pop()
		at := min(it.at, horizon)
		if isConnected {
			connected += at - l.now
			if activeKind == reconnect.WebSocket {
				onWS += at - l.now
			}
		}
		if it.at > horizon {
			break
		}
		l.now = it.at
		ev := it.ev
		switch ev.Kind {
		case engine.EventTimerFired:
			if !l.timers[ev.Timer] {
				continue
			}
			delete(l.timers, ev.Timer)
		case engine.EventTransportViable, engine.EventTransportConnected, engine.EventTransportFailed, engine.EventTransportClosed:
			t := l.ts[ev.Transport]
			if t == nil || !t.live {
				continue
			}
			if ev.Kind == engine.EventTransportClosed && t.active {
				drops++
			}
		}
		l.acts = l.e.Step(simEpoch.Add(l.now), ev, l.acts[:0])
		for _, a := range l.acts {
			switch a.Kind {
			case engine.ActionOpenTransport:
				l.open(a)
			case engine.ActionDisposeTransport:
				if t := l.ts[a.Transport]; t != nil {
					if t.active {
						activeKind = reconnect.NoTransport
					}
					delete(l.ts, a.Transport)
				}
			case engine.ActionActivateTransport:
				if t := l.ts[a.Transport]; t != nil {
					t.active, activeKind = true, t.kind
					if t.kind == reconnect.WebSocket && l.p.WebSocketLifetime != nil {
						l.push(l.p.WebSocketLifetime.sample(l.r), engine.Event{Kind: engine.EventTransportClosed, Transport: a.Transport})
					}
				}
			case engine.ActionStartTimer:
				l.timers[a.Timer] = true
				l.seq++
				l.q.push(simEvent{at: a.Due.Sub(simEpoch), seq: l.seq, ev: engine.Event{Kind: engine.EventTimerFired, Timer: a.Timer}})
			case engine.ActionCancelTimer:
				delete(l.timers, a.Timer)
			case engine.ActionCheckConnectivity:
				l.check(engine.EventConnectivity, a.Check, l.p.Connectivity, l.p.Connectivity.Up)
			case engine.ActionCheckWebSocket:
				l.check(engine.EventWebSocketCheck, a.Check, l.p.WebSocketCheck, l.p.WebSocketCheck.Pass)
			case engine.ActionStateChange:
				isConnected = a.To == engine.Connected
			}
		}
	}
	return drops, connected, onWS
}

// open starts a transport and queues how its attempt ends, as Simulate
// does.
func (l *longClient) open(a engine.Action) {
	class := l.p.Fallback
	if a.Host == l.primary {
		class = l.p.Primary
	}
	path := class.WebSocket
	if a.TransportKind == reconnect.HTTP {
		path = class.HTTP
	}
	l.ts[a.Transport] = &longTransport{kind: a.TransportKind, live: true}
	u := l.r.Float64()
	switch {
	case u < path.Reject:
		l.push(path.RejectLatency.sample(l.r), engine.Event{Kind: engine.EventTransportFailed, Transport: a.Transport,
			Failure: reconnect.Failure{Kind: reconnect.FailureRefused}})
	case u < path.Reject+path.Blackhole:
	default:
		d := path.Connect.sample(l.r)
		l.push(d, engine.Event{Kind: engine.EventTransportViable, Transport: a.Transport})
		l.push(d+d/4, engine.Event{Kind: engine.EventTransportConnected, Transport: a.Transport})
	}
}

// check queues a check's answer, as Simulate does.
func (l *longClient) check(kind engine.EventKind, id engine.CheckID, ch Check, pUp float64) {
	u := l.r.Float64()
	if u >= pUp && u < pUp+ch.Hang {
		return
	}
	l.push(ch.Latency.sample(l.r), engine.Event{Kind: kind, Check: id, Up: u < pUp})
}
