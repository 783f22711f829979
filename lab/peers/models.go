package peers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
	"github.com/reconnect-go/reconnect/lab"
)

// modelClients is how many clients the simulator runs for a model's
// figure: enough that its own sampling error is far below the real
// sample's.
const modelClients = 20000

// ModelCheck is one figure of the simulator's model of a client beside
// the same figure of the real client, on the same fault.
type ModelCheck struct {
	// Model names the simulator's model (a storm strategy, or an engine
	// policy), Kind the real client, Fault the fault.
	Model  string
	Kind   Kind
	Fault  Fault
	Figure string // what is compared, e.g. "median time back"
	// Sim is the model's figure; Real the real clients' with its 95 %
	// interval [RealLo, RealHi]. For a figure of the whole fleet (the
	// last of its clients back) the interval is the model's instead:
	// [SimLo, SimHi] holds 95 % of the simulated fleets of the same size.
	Sim, Real, RealLo, RealHi float64
	SimLo, SimHi              float64
	// Unit is "ms" or "attempts".
	Unit string
}

// Ratio is Real / Sim (0 when Sim is 0).
func (m ModelCheck) Ratio() float64 {
	if m.Sim == 0 {
		return 0
	}
	return m.Real / m.Sim
}

// Covered reports whether the model's figure lies within the real
// figure's interval, or, for a fleet's figure, the real one within the
// model's.
func (m ModelCheck) Covered() bool {
	if m.SimLo != m.SimHi {
		return m.Real >= m.SimLo && m.Real <= m.SimHi
	}
	return m.Sim >= m.RealLo && m.Sim <= m.RealHi
}

// ModelChecks returns, for every cell the simulator models, the model's
// figure beside the real one: socket.io's and centrifuge-js's backoff
// (sim.StrategySocketIO, sim.StrategyCentrifugeJS) on a drop, a restart
// and a primary host that is down; HTTP first then upgrade
// (engine.PolicyHTTPFirst) beside socket.io polling-first on the faults
// before connected; and the engine's own websocket-first model beside
// ours on the lab's protocol, as the reference (see engineCheck; not
// OursCentrifuge, whose protocol adds a round trip the model leaves out).
func (r *Report) ModelChecks() ([]ModelCheck, error) {
	o := r.Options
	var out []ModelCheck
	for _, c := range r.Cells {
		if c.Err != nil || len(c.Result.Times) == 0 {
			continue
		}
		var st sim.Strategy
		switch c.Kind {
		case SocketIOPolling, SocketIOWebSocket:
			st = sim.StrategySocketIO
		case Centrifuge:
			st = sim.StrategyCentrifugeJS
		}
		switch {
		case c.Kind.node() && (c.Fault == Drop || c.Fault == Restart):
			down := time.Duration(0)
			if c.Fault == Restart {
				down = c.BackAt.Sub(c.FaultAt)
			}
			res, err := storm(st, down, c.Window, o.Seed)
			if err != nil {
				return nil, err
			}
			real := spreadOf(c.Result.Times)
			out = append(out, ModelCheck{Model: st.String() + " backoff", Kind: c.Kind, Fault: c.Fault, Figure: "median time back",
				Sim: ms(res.MedianDisconnected), Real: ms(real.Median), RealLo: ms(real.Lo), RealHi: ms(real.Hi), Unit: "ms"})
			if c.Fault == Restart {
				mean, lo, hi, err := lastBack(st, down, c.Window, c.Clients, o.Seed)
				if err != nil {
					return nil, err
				}
				out = append(out, ModelCheck{Model: st.String() + " backoff", Kind: c.Kind, Fault: c.Fault,
					Figure: fmt.Sprintf("99 %% back (the last of %d)", c.Clients),
					Sim:    mean, SimLo: lo, SimHi: hi, Real: ms(real.P99), RealLo: ms(real.P99), RealHi: ms(real.P99), Unit: "ms"})
			}
		case c.Kind.node() && c.Fault == PrimaryDown:
			// Every attempt is refused for the whole window: the model's
			// attempts after the first failure follow the same schedule
			// as after a drop, plus the first attempt at 0 (and
			// centrifuge-js's first round over its two transports, made
			// without a delay).
			res, err := storm(st, c.Window+time.Hour, c.Window, o.Seed)
			if err != nil {
				return nil, err
			}
			first := 1.0
			if c.Kind == Centrifuge {
				first = 2
			}
			mean, lo, hi := meanInterval(errorsPerClient(c))
			out = append(out, ModelCheck{Model: st.String() + " backoff", Kind: c.Kind, Fault: c.Fault,
				Figure: fmt.Sprintf("attempts in %v", c.Window), Sim: first + float64(res.Total)/modelClients,
				Real: mean, RealLo: lo, RealHi: hi, Unit: "attempts"})
		case c.Kind == SocketIOPolling && !c.Fault.afterConnected() && c.Fault != PrimaryDown:
			out = append(out, engineCheck(o, c, "HTTP first, then upgrade", engine.PolicyHTTPFirst, 0)...)
		case (c.Kind == Ours || c.Kind == OursShort) && !c.Fault.afterConnected():
			sc := 2 * time.Second
			if c.Kind == OursShort {
				sc = o.ShortCircuit
			}
			out = append(out, engineCheck(o, c, fmt.Sprintf("websocket first, %v", sc), engine.PolicyWebSocketFirst, sc)...)
		}
	}
	return out, nil
}

// storm runs the simulator's storm of a peer's strategy: modelClients
// clients dropped at 0, every attempt refused until down.
func storm(st sim.Strategy, down, horizon time.Duration, seed uint64) (sim.StormResult, error) {
	return sim.Storm(sim.StormConfig{Clients: modelClients, Strategy: st, Timeouts: engine.AblyConfig().Timeouts,
		Downtime: down, Horizon: horizon, Seed: seed})
}

// modelFleets is how many simulated fleets of a cell's size give a
// fleet figure's distribution.
const modelFleets = 400

// lastBack simulates modelFleets fleets of n clients and returns the mean
// time their 99 % were back (for n < 100, their last client) with the
// range of the middle 95 % of the fleets, in milliseconds.
func lastBack(st sim.Strategy, down, horizon time.Duration, n int, seed uint64) (mean, lo, hi float64, err error) {
	ts := make([]float64, modelFleets)
	for i := range ts {
		res, err := sim.Storm(sim.StormConfig{Clients: n, Strategy: st, Timeouts: engine.AblyConfig().Timeouts,
			Downtime: down, Horizon: horizon, Seed: seed*7919 + uint64(i)})
		if err != nil {
			return 0, 0, 0, err
		}
		ts[i] = ms(res.T99)
		mean += ts[i]
	}
	slices.Sort(ts)
	return mean / modelFleets, ts[modelFleets*25/1000], ts[modelFleets*975/1000-1], nil
}

// engineCheck simulates modelClients engines with the policy and short
// circuit on the profile the cell's fault is, and compares their median
// time to CONNECTED with the real median time to the first message
// (unless the model's is below a millisecond: no latency, and the model
// has no processing time), and the connections each opened (in the model
// the transports opened until CONNECTED, the upgrade's included, and the
// checks; in reality the connections the proxy accepted until Settle
// after the first message: a connection the kernel refused never reaches
// it).
func engineCheck(o Options, c Cell, model string, p engine.Policy, shortCircuit time.Duration) []ModelCheck {
	prof := faultProfile(o, c.Fault)
	cfg := engine.AblyConfig()
	cfg.Policy, cfg.ShortCircuit = p, shortCircuit
	cfg.Endpoint.Endpoint, cfg.Endpoint.FallbackHosts = "main.realtime.test", []string{"a.fallback.test", "b.fallback.test", "c.fallback.test"}
	ts := make([]time.Duration, modelClients)
	opened := 0
	for i := range ts {
		r := sim.Simulate(prof, cfg, c.Window, rand.New(rand.NewPCG(o.Seed, uint64(i))))
		ts[i] = r.TimeToConnect
		if !r.Connected {
			ts[i] = Never
		}
		opened += r.Opened + r.ConnectivityChecks + r.WebSocketChecks
	}
	slices.Sort(ts)
	var out []ModelCheck
	if real := spreadOf(c.Result.Times); ts[len(ts)/2] >= time.Millisecond {
		out = append(out, ModelCheck{Model: model, Kind: c.Kind, Fault: c.Fault, Figure: "median to the first message",
			Sim: ms(ts[len(ts)/2]), Real: ms(real.Median), RealLo: ms(real.Lo), RealHi: ms(real.Hi), Unit: "ms"})
	}
	sockets := make([]float64, len(c.Result.Usage))
	for i, u := range c.Result.Usage {
		sockets[i] = float64(u.Sockets)
	}
	mean, lo, hi := meanInterval(sockets)
	return append(out, ModelCheck{Model: model, Kind: c.Kind, Fault: c.Fault, Figure: "connections opened",
		Sim: float64(opened) / modelClients, Real: mean, RealLo: lo, RealHi: hi, Unit: "connections"})
}

// faultProfile is the simulator's profile of a fault as the proxy makes
// it: no latency but the slow fault's, refusals at once, the primary down
// at once, the connectivity check answering up at once. The proxy's
// latency L is a whole round trip, in which the lab's server answers the
// upgrade (or the connect request) and sends CONNECTED together; the
// simulator's connect latency C makes a transport viable after C and
// CONNECTED after 1.25 C (as the lab's own server faults do). The same
// network in the simulator's terms is therefore C = 0.8 L: the slow
// fault's medians times 0.8.
func faultProfile(o Options, f Fault) sim.Profile {
	p := sim.Profile{Name: f.String(), Connectivity: sim.Check{Up: 1}, WebSocketCheck: sim.Check{Pass: 1}}
	switch f {
	case WebSocketRefused:
		p.Primary.WebSocket.Reject, p.Fallback.WebSocket.Reject = 1, 1
		p.WebSocketCheck.Pass = 0
	case WebSocketBlackholed:
		p.Primary.WebSocket.Blackhole, p.Fallback.WebSocket.Blackhole = 1, 1
		p.WebSocketCheck = sim.Check{Hang: 1}
	case Slow:
		scaled := func(d lab.Dist) sim.Dist { return sim.Dist{MedianMs: 0.8 * d.MedianMs, Sigma: d.Sigma} }
		p.Primary.WebSocket.Connect, p.Primary.HTTP.Connect = scaled(o.SlowWebSocket), scaled(o.SlowHTTP)
		p.Fallback = p.Primary
	case PrimaryDown:
		p.Primary.WebSocket.Reject, p.Primary.HTTP.Reject = 1, 1
	}
	return p
}

// errorsPerClient counts each client's failed attempts in the window
// (its library's error reports).
func errorsPerClient(c Cell) []float64 {
	out := make([]float64, c.Clients)
	for _, e := range c.Events {
		if e.What == EventError && e.Client >= 0 && e.Client < c.Clients && e.At.Sub(c.Start) <= c.Window {
			out[e.Client]++
		}
	}
	return out
}

// meanInterval is the mean of xs with a normal-approximation 95 %
// interval.
func meanInterval(xs []float64) (mean, lo, hi float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, mean, mean
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := 1.96 * math.Sqrt(ss/(n-1)/n)
	return mean, mean - half, mean + half
}

func ms(d time.Duration) float64 {
	if d == Never {
		return -1
	}
	return float64(d) / float64(time.Millisecond)
}
