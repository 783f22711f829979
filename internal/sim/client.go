package sim

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Result is what happened to one simulated client from its connect request
// until it was CONNECTED or the horizon passed.
type Result struct {
	Connected     bool
	TimeToConnect time.Duration // the horizon when not connected
	// Outcome is the transport-fallback proposal's outcome (1–5) of a
	// websocket-first client, 0 for other policies or when not connected:
	// 1 websocket within the short circuit; 2 websocket after it, HTTP
	// started and discarded; 3 HTTP active first while the websocket is
	// still on its way (rule 3 will discard it, counted in Wasted); 4 the
	// websocket failed before the short circuit; 5 the websocket never
	// connected.
	Outcome            int
	Opened             int // transports opened (connection attempts)
	HTTPOpened         int
	Wasted             int // transports closed by the engine while they were still healthy
	HTTPWasted         int
	FallbackRequests   int // transports opened on a fallback host
	ConnectivityChecks int
	WebSocketChecks    int
	Steps              int // engine steps taken: the simulation's work
}

// fate is how a simulated transport attempt will end.
type fate uint8

const (
	fateConnect fate = iota
	fateReject
	fateBlackhole
)

type simTimer struct {
	id   engine.TimerID
	kind engine.TimerKind
}

type simTransport struct {
	id        engine.TransportID
	kind      reconnect.TransportKind
	fate      fate
	activated bool
	live      bool
}

// client is one simulated client: an engine, its event queue and the
// network it talks to.
type client struct {
	p      Profile
	policy engine.Policy
	e      *engine.Engine
	r      *rand.Rand // the engine's source
	// The network's draws, one stream per purpose (see the stream
	// constants); all of them r unless the client was made by
	// newPairedClient.
	streams [numStreams]*rand.Rand
	pcgs    []*rand.PCG // the reseedable sources of a paired client
	// dial draws when a websocket's TCP connection is up (the adaptive
	// short circuit's EventTransportDialed): its own stream, apart from the
	// others, so that runs with and without the report see the same
	// network; r unless the client was made by newPairedClient.
	dial    *rand.Rand
	dialPCG *rand.PCG
	// adaptive: the engine reads dial reports (websocket-first with
	// Config.Adaptive on), so the client makes them.
	adaptive bool
	q        eventQueue
	seq      uint64
	now      time.Duration
	primary  string
	ts       []simTransport
	timers   []simTimer    // live timers
	phase    time.Duration // flap phase
	acts     []engine.Action

	// For the outcome.
	scFired       bool
	wsFailedEarly bool
	firstWS       engine.TransportID
	firstWSFate   fate
	firstActive   reconnect.TransportKind
}

var simEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// The random streams of a client. A paired client draws each purpose from
// its own stream, so that two runs of the same client under different
// configurations (short-circuit timeouts, policies) see the same network:
// its k-th websocket attempt has the same fate and latency whatever the
// timeout, and its k-th HTTP attempt too (common random numbers).
const (
	streamEngine         = iota // the engine's jitter and host order
	streamWebSocket             // websocket attempts: fate and latency
	streamHTTP                  // HTTP attempts: fate and latency
	streamConnectivity          // connectivity checks
	streamWebSocketCheck        // websocket checks
	streamFlap                  // the flap phase
	numStreams
)

// Simulate runs one client with configuration cfg (its Source is replaced
// by r) on profile p from a connect request at time 0 until it is
// CONNECTED or horizon passes.
func Simulate(p Profile, cfg engine.Config, horizon time.Duration, r *rand.Rand) Result {
	return newClient(cfg, r).run(p, horizon)
}

// newClient makes a reusable simulated client whose engine draws from r.
func newClient(cfg engine.Config, r *rand.Rand) *client {
	cfg.Source = r
	e, err := engine.New(cfg)
	if err != nil {
		panic("sim: invalid engine configuration: " + err.Error()) // callers validate first
	}
	c := &client{e: e, r: r, primary: e.Hosts().Primary, policy: cfg.Policy, dial: r,
		adaptive: cfg.Policy == engine.PolicyWebSocketFirst && cfg.Adaptive.On(),
		acts:     make([]engine.Action, 0, 16), q: make(eventQueue, 0, 16)}
	for i := range c.streams {
		c.streams[i] = r
	}
	return c
}

// newPairedClient makes a reusable simulated client with one random
// stream per purpose; reseed it before each run.
func newPairedClient(cfg engine.Config) *client {
	pcgs := make([]*rand.PCG, numStreams)
	for i := range pcgs {
		pcgs[i] = rand.NewPCG(0, uint64(i))
	}
	c := newClient(cfg, rand.New(pcgs[streamEngine]))
	c.pcgs = pcgs
	for i := range c.streams {
		c.streams[i] = rand.New(pcgs[i])
	}
	c.dialPCG = rand.NewPCG(0, numStreams)
	c.dial = rand.New(c.dialPCG)
	return c
}

// reseed sets a paired client's streams to those of client number k of
// the stream family seed: the same (seed, k) gives the same draws.
func (c *client) reseed(seed, k uint64) {
	for i, p := range c.pcgs {
		p.Seed(mix64(seed), mix64(k*numStreams+uint64(i)+1))
	}
	c.dialPCG.Seed(mix64(seed^dialSalt), mix64(k+1))
}

// dialSalt sets the dial stream's family apart from the other streams'.
const dialSalt = 0xd1a1_5eed_0000_0001

// mix64 is SplitMix64's finalizer: it spreads nearby seeds apart.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// run simulates one connection on profile p, reusing the client's engine
// and buffers.
func (c *client) run(p Profile, horizon time.Duration) Result {
	return c.runFrom(p, horizon, false)
}

// SimulateDrop runs one client with configuration cfg (its Source replaced
// by r) that is CONNECTED until its transport drops at time 0 (a close
// with no failure), on profile p, until it is CONNECTED again or horizon
// passes: the time to reconnect after a drop.
func SimulateDrop(p Profile, cfg engine.Config, horizon time.Duration, r *rand.Rand) Result {
	return newClient(cfg, r).runFrom(p, horizon, true)
}

// runFrom simulates one connection on profile p from a connect request at
// 0, or, with drop, from a drop at 0 of a connection made a second earlier.
func (c *client) runFrom(p Profile, horizon time.Duration, drop bool) Result {
	c.e.Reset()
	*c = client{p: p, e: c.e, r: c.r, streams: c.streams, pcgs: c.pcgs, primary: c.primary, policy: c.policy,
		dial: c.dial, dialPCG: c.dialPCG, adaptive: c.adaptive,
		q: c.q[:0], ts: c.ts[:0], timers: c.timers[:0], acts: c.acts[:0]}
	var res Result
	if p.Flap != nil {
		period := time.Duration(p.Flap.PeriodMs * float64(time.Millisecond))
		c.phase = time.Duration(c.streams[streamFlap].Int64N(int64(period)))
		c.scheduleFlap()
	}
	if drop {
		c.connectBefore()
	} else {
		c.push(0, engine.Event{Kind: engine.EventConnect})
	}
	for len(c.q) > 0 {
		it := c.q.pop()
		if it.at > horizon {
			break
		}
		c.now = it.at
		if it.flap {
			c.scheduleFlap()
		}
		if !c.relevant(it.ev) {
			continue
		}
		c.acts = c.e.Step(simEpoch.Add(c.now), it.ev, c.acts[:0])
		res.Steps++
		if c.perform(&res, it.ev) {
			res.Connected, res.TimeToConnect = true, c.now
			res.Outcome = c.outcome(c.policy)
			if res.Outcome == 3 {
				// The late websocket is still on its way; rule 3 will
				// discard it when it becomes viable.
				res.Wasted++
			}
			return res
		}
	}
	res.TimeToConnect = horizon
	return res
}

// connectBefore makes the engine CONNECTED a second before 0 on its first
// transport and queues that transport's drop at 0.
func (c *client) connectBefore() {
	at := simEpoch.Add(-time.Second)
	c.acts = c.e.Step(at, engine.Event{Kind: engine.EventConnect}, c.acts[:0])
	var first simTransport
	for _, a := range c.acts {
		if a.Kind == engine.ActionOpenTransport && first.id == 0 {
			first = simTransport{id: a.Transport, kind: a.TransportKind, live: true, activated: true}
		}
	}
	c.acts = c.e.Step(at, engine.Event{Kind: engine.EventTransportConnected, Transport: first.id}, c.acts[:0])
	// Every other transport opened was disposed and every timer cancelled
	// on CONNECTED, but for the state-TTL timer, which is not tracked.
	c.ts = append(c.ts, first)
	c.push(0, engine.Event{Kind: engine.EventTransportClosed, Transport: first.id})
}

func (c *client) push(after time.Duration, ev engine.Event) {
	c.seq++
	c.q.push(simEvent{at: c.now + after, seq: c.seq, ev: ev})
}

// networkUp reports whether the flapping network is up at time t.
func (c *client) networkUp(t time.Duration) bool {
	if c.p.Flap == nil {
		return true
	}
	period := time.Duration(c.p.Flap.PeriodMs * float64(time.Millisecond))
	down := time.Duration(c.p.Flap.DownMs * float64(time.Millisecond))
	return (t+c.phase)%period >= down
}

// scheduleFlap queues the network's next transition after now.
func (c *client) scheduleFlap() {
	period := time.Duration(c.p.Flap.PeriodMs * float64(time.Millisecond))
	down := time.Duration(c.p.Flap.DownMs * float64(time.Millisecond))
	pos := (c.now + c.phase) % period
	var next time.Duration
	kind := engine.EventNetworkUp
	if pos < down {
		next = down - pos
	} else {
		next, kind = period-pos, engine.EventNetworkDown
	}
	if next <= 0 || down == 0 {
		return
	}
	c.seq++
	c.q.push(simEvent{at: c.now + next, seq: c.seq, ev: engine.Event{Kind: kind}, flap: true})
}

// relevant drops events the engine would ignore anyway, to keep the
// simulation lean: events of transports already disposed and timers
// already cancelled.
func (c *client) relevant(ev engine.Event) bool {
	switch ev.Kind {
	case engine.EventTransportViable, engine.EventTransportConnected, engine.EventTransportFailed, engine.EventTransportClosed,
		engine.EventTransportDialed:
		t := c.transport(ev.Transport)
		return t != nil && t.live
	case engine.EventTimerFired:
		for i, t := range c.timers {
			if t.id == ev.Timer {
				c.timers = append(c.timers[:i], c.timers[i+1:]...)
				if t.kind == engine.TimerShortCircuit {
					c.scFired = true
				}
				return true
			}
		}
		return false
	}
	return true
}

func (c *client) transport(id engine.TransportID) *simTransport {
	for i := range c.ts {
		if c.ts[i].id == id {
			return &c.ts[i]
		}
	}
	return nil
}

// perform carries out the engine's actions; it reports whether the client
// reached CONNECTED.
func (c *client) perform(res *Result, ev engine.Event) bool {
	if ev.Kind == engine.EventTransportFailed && ev.Transport == c.firstWS && !c.scFired {
		c.wsFailedEarly = true
	}
	connected := false
	for _, a := range c.acts {
		switch a.Kind {
		case engine.ActionOpenTransport:
			c.open(res, a)
		case engine.ActionDisposeTransport:
			if t := c.transport(a.Transport); t != nil && t.live {
				t.live = false
				if !t.activated && t.fate == fateConnect {
					res.Wasted++
					if t.kind == reconnect.HTTP {
						res.HTTPWasted++
					}
				}
			}
		case engine.ActionActivateTransport:
			if t := c.transport(a.Transport); t != nil {
				t.activated = true
				if c.firstActive == reconnect.NoTransport {
					c.firstActive = t.kind
				}
			}
		case engine.ActionStartTimer:
			c.timers = append(c.timers, simTimer{a.Timer, a.TimerKind})
			c.seq++
			c.q.push(simEvent{at: a.Due.Sub(simEpoch), seq: c.seq, ev: engine.Event{Kind: engine.EventTimerFired, Timer: a.Timer}})
		case engine.ActionCancelTimer:
			for i, t := range c.timers {
				if t.id == a.Timer {
					c.timers = append(c.timers[:i], c.timers[i+1:]...)
					break
				}
			}
		case engine.ActionCheckConnectivity:
			res.ConnectivityChecks++
			c.check(engine.EventConnectivity, a.Check, c.p.Connectivity, c.p.Connectivity.Up, c.streams[streamConnectivity])
		case engine.ActionCheckWebSocket:
			res.WebSocketChecks++
			c.check(engine.EventWebSocketCheck, a.Check, c.p.WebSocketCheck, c.p.WebSocketCheck.Pass, c.streams[streamWebSocketCheck])
		case engine.ActionStateChange:
			if a.To == engine.Connected {
				connected = true
			}
		}
	}
	return connected
}

// open starts a simulated transport and queues how it will end.
func (c *client) open(res *Result, a engine.Action) {
	res.Opened++
	class := c.p.Fallback
	if a.Host == c.primary {
		class = c.p.Primary
	} else {
		res.FallbackRequests++
	}
	path, r := class.WebSocket, c.streams[streamWebSocket]
	if a.TransportKind == reconnect.HTTP {
		path, r = class.HTTP, c.streams[streamHTTP]
		res.HTTPOpened++
	} else if c.firstWS == 0 && a.Mode != reconnect.ModeUpgrade {
		c.firstWS = a.Transport
	}
	t := simTransport{id: a.Transport, kind: a.TransportKind, live: true}
	defer func() {
		if a.Transport == c.firstWS {
			c.firstWSFate = t.fate
		}
	}()
	u := r.Float64()
	switch {
	case !c.networkUp(c.now):
		t.fate = fateReject
		c.push(5*time.Millisecond, engine.Event{Kind: engine.EventTransportFailed, Transport: a.Transport,
			Failure: reconnect.Failure{Kind: reconnect.FailureUnreachable}})
	case u < path.Reject:
		t.fate = fateReject
		c.push(path.RejectLatency.sample(r), engine.Event{Kind: engine.EventTransportFailed, Transport: a.Transport,
			Failure: reconnect.Failure{Kind: reconnect.FailureRefused}})
	case u < path.Reject+path.Blackhole:
		t.fate = fateBlackhole
		if c.adaptive && a.TransportKind == reconnect.WebSocket && path.Dial.MedianMs > 0 {
			d := path.Dial.sample(c.dial)
			c.push(d, engine.Event{Kind: engine.EventTransportDialed, Transport: a.Transport, RTT: d})
		}
	default:
		l := path.Connect.sample(r)
		var server time.Duration
		if path.Server.MedianMs > 0 {
			server = path.Server.sample(r)
		}
		if c.adaptive && a.TransportKind == reconnect.WebSocket {
			d := dialShare(c.dial, l)
			c.push(d, engine.Event{Kind: engine.EventTransportDialed, Transport: a.Transport, RTT: d})
		}
		c.push(l+server, engine.Event{Kind: engine.EventTransportViable, Transport: a.Transport})
		c.push(l+server+l/4, engine.Event{Kind: engine.EventTransportConnected, Transport: a.Transport})
	}
	// Keep the list short: drop transports that are gone.
	live := c.ts[:0]
	for _, x := range c.ts {
		if x.live {
			live = append(live, x)
		}
	}
	c.ts = append(live, t)
}

// dialShare is when the TCP (and TLS) connection of a websocket whose
// handshake completes after l is up: the dial is two round trips (TCP's,
// then TLS 1.3's) and the upgrade one more, each round trip log-normal
// with sigma dialSigma around the same median, so the dial takes
// (x1 + x2) / (x1 + x2 + x3) of l: two thirds on average, less when the
// upgrade's round trip is slow (which is when a multiple of the dial can
// fire before the handshake).
func dialShare(r *rand.Rand, l time.Duration) time.Duration {
	x1 := math.Exp(dialSigma * r.NormFloat64())
	x2 := math.Exp(dialSigma * r.NormFloat64())
	x3 := math.Exp(dialSigma * r.NormFloat64())
	return time.Duration(float64(l) * (x1 + x2) / (x1 + x2 + x3))
}

// dialSigma is the spread of one round trip in dialShare.
const dialSigma = 0.4

// check queues the answer of a connectivity or websocket check.
func (c *client) check(kind engine.EventKind, id engine.CheckID, ch Check, pUp float64, r *rand.Rand) {
	u := r.Float64()
	if u >= pUp && u < pUp+ch.Hang {
		return // no answer: the engine's timers decide
	}
	lat := ch.Latency.sample(r)
	up := u < pUp && c.networkUp(c.now+lat)
	c.push(lat, engine.Event{Kind: kind, Check: id, Up: up})
}

func (c *client) outcome(p engine.Policy) int {
	if p != engine.PolicyWebSocketFirst || c.firstWS == 0 {
		return 0
	}
	switch {
	case c.wsFailedEarly:
		return 4
	case c.firstActive == reconnect.WebSocket && c.scFired:
		return 2
	case c.firstActive == reconnect.WebSocket:
		return 1
	case c.firstWSFate == fateConnect && c.transport(c.firstWS) != nil && c.transport(c.firstWS).live:
		return 3
	default:
		return 5
	}
}
