package lab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// A chaos soak: runner-driven clients against the lab server while every
// host switches among every fault the lab has, with quiet periods between
// the storms, and live invariants counted throughout. See RunSoak.

// SoakOptions configures RunSoak.
type SoakOptions struct {
	// Clients is how many runner-driven clients run (at least 1).
	Clients int
	// Duration is the soak's length (at least one fault phase and one
	// quiet period; see SoakQuiet).
	Duration time.Duration
	// Seed seeds the fault schedule and the server's draws.
	Seed uint64
	// Config is every client's engine configuration; one with zero
	// Timeouts means SoakConfig(). Its endpoint is set to the server's
	// hosts.
	Config engine.Config
	// Progress, if set, receives a line at each phase.
	Progress func(string)
}

// SoakConfig is the soak's engine configuration: the defaults with every
// timeout scaled down, so that a fault's effect plays out within seconds,
// and the flapping guard off: the soak's drop and kill-after faults would
// trip it, holding a growing share of the clients on HTTP alone for its
// 10-minute hold, so that the quiet periods' resource samples would no
// longer compare like with like (every client on one active websocket).
// The guard is tested in package engine and the simulator.
func SoakConfig() engine.Config {
	c := engine.AblyConfig()
	c.Flap.Drops = -1
	c.ShortCircuit = 150 * time.Millisecond
	c.Timeouts.DisconnectedRetry = time.Second
	c.Timeouts.SuspendedRetry = 1500 * time.Millisecond
	c.Timeouts.ConnectionStateTTL = 5 * time.Second
	c.Timeouts.RealtimeRequest = 1500 * time.Millisecond
	c.Timeouts.HTTPRequest = time.Second
	return c
}

// soakDrop is how long after CONNECTED the drop faults drop a connection.
const soakDrop = time.Second

// soakSlack covers the scheduling of many clients on a loaded machine
// (the race detector included) in SoakBound.
const soakSlack = 2 * time.Second

// SoakBound is the time within which every client must be CONNECTED once
// the faults clear, derived from cfg: a transport opened under a fault may
// hang until its realtimeRequestTimeout and a connectivity check until its
// httpRequestTimeout (or a connection made under a drop fault drops
// soakDrop after CONNECTED), the connection may then wait out the longest
// DISCONNECTED retry (RTB1: twice disconnectedRetryTimeout, or more with
// RetrySpread) and, should connectionStateTtl run out meanwhile, a SUSPENDED
// retry; then one healthy attempt, which takes a short circuit at most;
// plus soakSlack for scheduling.
func SoakBound(cfg engine.Config) time.Duration {
	t := cfg.Timeouts
	hung := max(t.RealtimeRequest+t.HTTPRequest, soakDrop)
	retry := time.Duration(float64(2*t.DisconnectedRetry) * (1 + max(cfg.RetrySpread, 0)))
	return hung + retry + t.SuspendedRetry + cfg.ShortCircuit + soakSlack
}

// soakWire bounds how long a transport the runner closed may take to end
// on the wire (the long-poll's abort request is bounded by a second).
const soakWire = 5 * time.Second

// soakSettle bounds how long the server's socket count may take to agree
// with the clients' once every client is CONNECTED.
const soakSettle = 3 * time.Second

// SoakQuiet is the length of a quiet period for cfg: the bound to
// CONNECTED, the settling of the sockets, and a second to sample.
func SoakQuiet(cfg engine.Config) time.Duration { return SoakBound(cfg) + soakSettle + time.Second }

// SoakResult is what a soak saw.
type SoakResult struct {
	Clients  int
	Duration time.Duration
	// Faults is how many faults the schedule applied (a host, the check,
	// the capacity or a client's network switching to a fault).
	Faults int
	// Changes is how many state changes the clients delivered.
	Changes int64
	// Bound is SoakBound of the configuration.
	Bound time.Duration
	// Starved is how long, summed over the quiet periods' waits for
	// CONNECTED, the process was starved of CPU (a 100 ms ticker late by
	// more than 50 ms); each wait's bound is Bound plus its starvation.
	Starved time.Duration
	// Violations counts each invariant's violations by name:
	// "not-connected" (a client not CONNECTED within Bound of a quiet
	// period's start), "two-active" (a transport still open while
	// another is active), "too-many-transports" (more than four live),
	// "not-closed-on-wire" (a transport closed by the runner whose sockets
	// and goroutines had not ended soakWire (5 s) later), "sockets-disagree" (the
	// server's socket count not equal to the transports the clients hold
	// within soakSettle of every client being CONNECTED), "goroutines-slope",
	// "heap-slope", "fds-slope" (a resource drifting beyond its tolerance
	// over the run), "end-sockets", "end-goroutines" (left after Close and
	// the stop), "missed-changes" (state changes dropped).
	Violations map[string]int
	// Details describes the first violations.
	Details []string
	// ToConnected are the times from a quiet period's start to CONNECTED
	// of the clients not CONNECTED at its start, over every quiet period;
	// LastToConnected the same for the last one.
	ToConnected, LastToConnected []time.Duration
	// Samples are the resources sampled at each quiet period, once every
	// client was CONNECTED, the sockets agreed, and every client was then
	// Closed (CLOSED, no transport, no socket).
	Samples []SoakSample
	// GoroutineSlope, HeapSlope and FDSlope are the least-squares slopes
	// of the samples, per minute; the tolerances are what the drift over
	// the run (slope × time between the first and last sample) may reach.
	GoroutineSlope, HeapSlope, FDSlope float64
	GoroutineTol, HeapTol, FDTol       float64
}

// SoakSample is one sample of the process's resources.
type SoakSample struct {
	At         time.Duration // since the start
	Goroutines int
	Heap       uint64 // bytes in use after a GC
	FDs        int    // open file descriptors (-1 where /proc/self/fd is missing)
}

// Violated is the total of every violation.
func (r SoakResult) Violated() int {
	n := 0
	for _, v := range r.Violations {
		n += v
	}
	return n
}

// String is the one-line summary.
func (r SoakResult) String() string {
	var names []string
	for k, v := range r.Violations {
		if v > 0 {
			names = append(names, fmt.Sprintf("%s=%d", k, v))
		}
	}
	sort.Strings(names)
	viol := fmt.Sprint(r.Violated())
	if len(names) > 0 {
		viol += " (" + strings.Join(names, " ") + ")"
	}
	return fmt.Sprintf("soak: %d clients, %v, %d faults applied, %d state changes, %s invariant violations; "+
		"to CONNECTED after the last fault p50 %v p99 %v (all quiet periods p50 %v p99 %v, n=%d; bound %v, starved %v); "+
		"slopes per minute: goroutines %+.1f (tolerance ±%.0f over the run), heap %+.0f KiB (±%.0f KiB), fds %+.1f (±%.0f)",
		r.Clients, r.Duration.Round(time.Second), r.Faults, r.Changes, viol,
		pct(r.LastToConnected, 50), pct(r.LastToConnected, 99), pct(r.ToConnected, 50), pct(r.ToConnected, 99), len(r.ToConnected), r.Bound, r.Starved.Round(time.Millisecond),
		r.GoroutineSlope, r.GoroutineTol, r.HeapSlope/1024, r.HeapTol/1024, r.FDSlope, r.FDTol)
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)].Round(time.Millisecond)
}

// soakFault is one fault a host can switch to.
type soakFault struct {
	name string
	f    HostFault
}

// soakHostFaults is every host fault of the lab: the host down, each
// path's rejection, blackhole, kill before and after CONNECTED, drops
// with and without a DISCONNECTED 503, slow paths, and a mixture.
var soakHostFaults = []soakFault{
	{"down", HostFault{Down: true, DownLatency: Dist{MedianMs: 20, Sigma: 0.5}}},
	{"ws-reject-403", HostFault{WebSocket: PathFault{Reject: 1, RejectStatus: 403}}},
	{"ws-reject-503", HostFault{WebSocket: PathFault{Reject: 1, RejectStatus: 503}}},
	{"ws-blackhole", HostFault{WebSocket: PathFault{Blackhole: 1}}},
	{"ws-kill-before", HostFault{WebSocket: PathFault{KillBeforeConnected: 1}}},
	{"ws-kill-after", HostFault{WebSocket: PathFault{KillAfterConnected: 1}}},
	{"http-reject-503", HostFault{HTTP: PathFault{Reject: 1}}},
	{"http-blackhole", HostFault{HTTP: PathFault{Blackhole: 1}}},
	{"http-kill-before", HostFault{HTTP: PathFault{KillBeforeConnected: 1}}},
	{"all-blackhole", HostFault{WebSocket: PathFault{Blackhole: 1}, HTTP: PathFault{Blackhole: 1}}},
	{"drop", HostFault{DropAfter: soakDrop}},
	{"drop-503", HostFault{DropAfter: soakDrop, DisconnectStatus: 503}},
	{"slow", HostFault{WebSocket: PathFault{Connect: Dist{MedianMs: 300, Sigma: 0.5}}, HTTP: PathFault{Connect: Dist{MedianMs: 200, Sigma: 0.5}}}},
	{"mixed", HostFault{WebSocket: PathFault{Reject: 0.2, Blackhole: 0.2, KillBeforeConnected: 0.1, KillAfterConnected: 0.1, Connect: Dist{MedianMs: 50, Sigma: 1}},
		HTTP: PathFault{Reject: 0.1, Blackhole: 0.1, KillBeforeConnected: 0.1, Connect: Dist{MedianMs: 50, Sigma: 1}}, DropAfter: 3 * soakDrop}},
}

// soakConn is a transport a soak client's runner opened.
type soakConn struct {
	Conn
	c        *soakClient
	req      runner.OpenRequest
	openedAt time.Time
	closed   atomic.Bool
	closedAt time.Time // set before closed
	starved0 int64     // the soak's starvation when it was closed
}

func (t *soakConn) Close() {
	t.closedAt, t.starved0 = time.Now(), t.c.s.starved.Load()
	t.closed.Store(true)
	t.c.mu.Lock()
	delete(t.c.held, t)
	t.c.mu.Unlock()
	t.c.s.closing(t)
	t.Conn.Close()
}

// soakClient is one client: its runner, the transports its runner holds,
// and its last state.
type soakClient struct {
	s           *soak
	r           *runner.Runner
	mu          sync.Mutex
	held        map[*soakConn]struct{}
	everActive  []*soakConn
	state       engine.State
	connectedAt time.Time // the last change to CONNECTED
	recent      [4]string // the last changes, for a violation's detail
	nrecent     int
}

// describe lists the transports c holds, for a violation's detail.
func (c *soakClient) describe() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parts []string
	for t := range c.held {
		parts = append(parts, fmt.Sprintf("T%d %v %s %v opened %v ago", t.req.ID, t.req.Kind, t.req.Host, t.req.Mode, time.Since(t.openedAt).Round(time.Millisecond)))
	}
	sort.Strings(parts)
	var recent []string
	for i := max(c.nrecent-len(c.recent), 0); i < c.nrecent; i++ {
		recent = append(recent, c.recent[i%len(c.recent)])
	}
	return "[" + strings.Join(parts, "; ") + "] after " + strings.Join(recent, ", ")
}

// Open implements runner.Dialer.
func (c *soakClient) Open(_ context.Context, req runner.OpenRequest, rep runner.Reporter) runner.Transport {
	t := &soakConn{c: c, req: req, openedAt: time.Now()}
	c.mu.Lock()
	c.held[t] = struct{}{}
	c.mu.Unlock()
	c.s.live.Add(1)
	t.Conn = c.s.client.Open(req.Kind, req.Host, req.Mode, rep)
	go func() {
		<-t.Conn.Done()
		c.s.live.Add(-1)
	}()
	return t
}

type soak struct {
	o        SoakOptions
	srv      *Server
	client   *Client
	clients  []*soakClient
	start    time.Time
	live     atomic.Int64 // lab transports whose goroutines have not ended
	changes  atomic.Int64
	missed   atomic.Int64
	mu       sync.Mutex
	res      *SoakResult
	quiets   int             // quiet periods run
	lastTTC  []time.Duration // the last quiet period's times to CONNECTED
	shutting []*soakConn     // closed by a runner, not yet seen ended
	starved  atomic.Int64    // ns the sampler's 100 ms ticks came late by more than 50 ms, summed
}

func (s *soak) violate(kind, format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.res.Violations[kind]++
	if len(s.res.Details) < 20 {
		s.res.Details = append(s.res.Details, fmt.Sprintf("%7.2fs %s: ", time.Since(s.start).Seconds(), kind)+fmt.Sprintf(format, args...))
	}
}

func (s *soak) closing(t *soakConn) {
	s.mu.Lock()
	s.shutting = append(s.shutting, t)
	s.mu.Unlock()
}

func (s *soak) progress(format string, args ...any) {
	if s.o.Progress != nil {
		s.o.Progress(fmt.Sprintf("%6.1fs ", time.Since(s.start).Seconds()) + fmt.Sprintf(format, args...))
	}
}

// RunSoak runs a chaos soak: o.Clients runner-driven clients connect to a
// fresh lab server; the run alternates fault phases and quiet periods
// (SoakQuiet long, the last phase always quiet). In a fault phase every
// realtime host switches every 2 to 4 s, each on its own random schedule,
// to one of the lab's host faults or to none, the connectivity check to
// down, hanging or up, the server's capacity to a limit or none, and a few
// clients' networks go down (NetworkDown) until the next switch. In a
// quiet period every fault is cleared.
//
// The invariants, each counted in SoakResult.Violations, are checked live:
// a sampler looks at every client every 100 ms (at most one active
// transport: when Active is B, every other transport ever active is
// closed; at most four held; every transport the runner closed has ended
// on the wire within 5 s), and each quiet period checks that every client
// is CONNECTED within SoakBound, that the server's socket count then
// equals the number of transports the clients hold, and samples
// goroutines, heap and file descriptors. At the end every client is
// Closed (CLOSED with 0 sockets on the server, 0 transports held) and its
// runner stopped; the goroutines must be back to their count before the
// clients started.
func RunSoak(ctx context.Context, o SoakOptions) (SoakResult, error) {
	if o.Clients < 1 {
		return SoakResult{}, errors.New("lab: a soak needs at least one client")
	}
	if o.Config.Timeouts == (reconnect.Timeouts{}) {
		o.Config = SoakConfig()
	}
	cfg := o.Config
	res := SoakResult{Clients: o.Clients, Bound: SoakBound(cfg), Violations: map[string]int{}}
	for _, k := range []string{"not-connected", "two-active", "too-many-transports", "not-closed-on-wire", "sockets-disagree",
		"goroutines-slope", "heap-slope", "fds-slope", "close-sockets", "end-sockets", "end-goroutines", "missed-changes", "lab-error"} {
		res.Violations[k] = 0
	}
	srv, err := NewServer(Options{Seed: o.Seed})
	if err != nil {
		return res, err
	}
	defer srv.Close()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: srv.Primary(), FallbackHosts: srv.Fallbacks()}
	s := &soak{o: o, srv: srv, client: &Client{Dial: srv.DialContext, PollTimeout: 5 * time.Second}, res: &res}
	if _, err := engine.New(cfg); err != nil {
		return res, err
	}
	g0 := runtime.NumGoroutine()
	s.start = time.Now()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	check := func(ctx context.Context) bool { return s.client.CheckConnectivity(ctx, srv.CheckURL()) }
	for range o.Clients {
		c := &soakClient{s: s, held: map[*soakConn]struct{}{}}
		r, err := runner.New(rctx, runner.Options{Config: cfg, Dialer: c, CheckConnectivity: check, CheckWebSocket: check,
			OnStateChange: func(ch runner.StateChange) {
				s.changes.Add(1)
				s.missed.Add(int64(ch.Missed))
				c.mu.Lock()
				c.state = ch.To
				c.recent[c.nrecent%len(c.recent)] = fmt.Sprintf("%.2fs %v→%v %v %v retry %v", ch.At.Sub(s.start).Seconds(), ch.From, ch.To, ch.Reason, ch.Failure, ch.RetryIn.Round(time.Millisecond))
				c.nrecent++
				if ch.To == engine.Connected && !ch.Update { // an UPDATE is no new connection
					c.connectedAt = ch.At
				}
				c.mu.Unlock()
			}})
		if err != nil {
			return res, err
		}
		c.r = r
		s.clients = append(s.clients, c)
	}
	for _, c := range s.clients {
		c.r.Connect()
	}
	s.progress("%d clients started", len(s.clients))
	stopSampler := make(chan struct{})
	samplerDone := make(chan struct{})
	go func() {
		defer close(samplerDone)
		s.sampler(stopSampler)
	}()

	rng := rand.New(rand.NewPCG(o.Seed, 0x50a4))
	quiet := SoakQuiet(cfg)
	end := s.start.Add(o.Duration)
	for ctx.Err() == nil {
		left := time.Until(end)
		if left <= quiet {
			break
		}
		phase := min(time.Duration(6+rng.IntN(5))*time.Second, left-quiet)
		if left-quiet-phase < quiet+6*time.Second {
			phase = left - quiet // the rest would not fit another cycle: one longer fault phase
		}
		s.faultPhase(ctx, rng, phase)
		s.quietPeriod(ctx, quiet)
	}
	if s.quiets == 0 && ctx.Err() == nil { // too short for a fault phase: a quiet period all the same
		s.quietPeriod(ctx, max(time.Until(end), quiet))
	}
	res.LastToConnected = s.lastTTC
	close(stopSampler)
	<-samplerDone
	res.Duration = time.Since(s.start)
	s.finish(cancel, g0)
	res.Changes = s.changes.Load()
	if m := s.missed.Load(); m > 0 {
		s.violate("missed-changes", "%d state changes dropped", m)
	}
	s.slopes()
	return res, ctx.Err()
}

// faultPhase switches faults for d.
func (s *soak) faultPhase(ctx context.Context, rng *rand.Rand, d time.Duration) {
	s.progress("fault phase for %v", d.Round(time.Millisecond))
	end := time.Now().Add(d)
	hosts := append([]string{s.srv.Primary()}, s.srv.Fallbacks()...)
	next := make([]time.Time, len(hosts)+2) // the hosts, the check and the capacity, the clients' networks
	var down []*soakClient
	for ctx.Err() == nil && time.Now().Before(end) {
		now := time.Now()
		for i := range next {
			if now.Before(next[i]) {
				continue
			}
			next[i] = now.Add(time.Duration(2000+rng.IntN(2000)) * time.Millisecond)
			switch {
			case i < len(hosts):
				f := HostFault{}
				name := "none"
				if rng.IntN(5) > 0 {
					sf := soakHostFaults[rng.IntN(len(soakHostFaults))]
					f, name = sf.f, sf.name
					s.res.Faults++
				}
				if err := s.srv.SetFault(hosts[i], f); err != nil {
					s.violate("lab-error", "%v", err)
				}
				s.progress("  %s: %s", hosts[i], name)
			case i == len(hosts):
				switch rng.IntN(4) {
				case 0:
					s.srv.SetCheck(CheckFault{Down: true})
					s.res.Faults++
				case 1:
					s.srv.SetCheck(CheckFault{Hang: true})
					s.res.Faults++
				default:
					s.srv.SetCheck(CheckFault{Latency: Dist{MedianMs: 20, Sigma: 0.5}})
				}
				if rng.IntN(4) == 0 {
					s.srv.SetCapacity(max(len(s.clients)/4, 5), time.Now())
					s.res.Faults++
				} else {
					s.srv.SetCapacity(0, time.Time{})
				}
			default:
				for _, c := range down {
					c.r.NetworkUp()
				}
				down = down[:0]
				for _, c := range s.clients {
					if rng.IntN(20) == 0 {
						c.r.NetworkDown()
						down = append(down, c)
						s.res.Faults++
					}
				}
			}
		}
		wait := time.Until(end)
		for _, n := range next {
			wait = min(wait, time.Until(n))
		}
		sleep(ctx, max(wait, 10*time.Millisecond))
	}
	for _, c := range down {
		c.r.NetworkUp()
	}
}

// clearFaults clears every fault.
func (s *soak) clearFaults() {
	for _, h := range append([]string{s.srv.Primary()}, s.srv.Fallbacks()...) {
		if err := s.srv.SetFault(h, HostFault{}); err != nil {
			s.violate("lab-error", "%v", err)
		}
	}
	s.srv.SetCheck(CheckFault{})
	s.srv.SetCapacity(0, time.Time{})
}

// quietPeriod clears every fault for d and checks the quiet invariants.
func (s *soak) quietPeriod(ctx context.Context, d time.Duration) {
	t0 := time.Now()
	s.quiets++
	s.clearFaults()
	s.progress("quiet for %v", d.Round(time.Millisecond))
	var late []*soakClient // not CONNECTED at the start
	for _, c := range s.clients {
		if c.r.State() != engine.Connected {
			late = append(late, c)
		}
	}
	// The bound, plus however long the process was starved meanwhile (a
	// loaded machine, the race detector): the bound is the engine's, not
	// the scheduler's.
	starved0 := s.starved.Load()
	for ctx.Err() == nil && !s.allConnected() &&
		time.Now().Before(t0.Add(s.res.Bound+time.Duration(s.starved.Load()-starved0))) {
		sleep(ctx, 50*time.Millisecond)
	}
	s.res.Starved += time.Duration(s.starved.Load() - starved0)
	var ttc []time.Duration
	for i, c := range s.clients {
		if st := c.r.State(); st != engine.Connected {
			s.violate("not-connected", "client %d %v %v after the faults cleared (starved %v); holds %s", i, st, s.res.Bound,
				time.Duration(s.starved.Load()-starved0).Round(time.Millisecond), c.describe())
		}
	}
	for _, c := range late {
		c.mu.Lock()
		at := c.connectedAt
		c.mu.Unlock()
		if at.After(t0) {
			ttc = append(ttc, at.Sub(t0))
		}
	}
	s.res.ToConnected = append(s.res.ToConnected, ttc...)
	s.lastTTC = ttc
	// The server's sockets agree with the transports the clients hold.
	var server, held int
	starved1 := s.starved.Load()
	for settle := time.Now().Add(soakSettle); ctx.Err() == nil; {
		server, held = s.srv.Sockets(), s.held()
		if server == held || time.Now().After(settle.Add(time.Duration(s.starved.Load()-starved1))) {
			break
		}
		sleep(ctx, 50*time.Millisecond)
	}
	if server != held {
		s.violate("sockets-disagree", "the server holds %d sockets, the clients %d transports", server, held)
	}
	// The resources are sampled in one state every quiet period: every
	// client Closed (CLOSED, no transport, no socket), so that the mix of
	// transports the faults left (an HTTP connection whose upgrade failed
	// stays on HTTP) does not move the figures. Then every client
	// connects again.
	s.closeAll("close-sockets")
	s.sample()
	sm := s.res.Samples[len(s.res.Samples)-1]
	s.progress("  connected: %d late clients, to CONNECTED p50 %v p99 %v; %d sockets, %d held; closed: %d goroutines, heap %d KiB, %d fds",
		len(late), pct(ttc, 50), pct(ttc, 99), server, held, sm.Goroutines, sm.Heap>>10, sm.FDs)
	for _, c := range s.clients {
		c.r.Connect()
	}
	sleep(ctx, time.Until(t0.Add(d)))
}

func (s *soak) allConnected() bool {
	for _, c := range s.clients {
		if c.r.State() != engine.Connected {
			return false
		}
	}
	return true
}

// held is how many transports the clients' runners hold.
func (s *soak) held() int {
	n := 0
	for _, c := range s.clients {
		c.mu.Lock()
		n += len(c.held)
		c.mu.Unlock()
	}
	return n
}

// sampler checks the live invariants every 100 ms until stop.
func (s *soak) sampler(stop chan struct{}) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if late := time.Since(last) - 150*time.Millisecond; late > 0 {
			s.starved.Add(int64(late))
		}
		last = time.Now()
		for i, c := range s.clients {
			cur, _ := c.r.Active().(*soakConn)
			c.mu.Lock()
			if cur != nil && !slices.Contains(c.everActive, cur) {
				c.everActive = append(c.everActive, cur)
			}
			open := 0
			c.everActive = slices.DeleteFunc(c.everActive, func(t *soakConn) bool {
				if t != cur && !t.closed.Load() {
					open++
				}
				return t != cur && t.closed.Load()
			})
			n := len(c.held)
			c.mu.Unlock()
			if cur != nil && open > 0 {
				s.violate("two-active", "client %d: %d transports that were active still open beside the active one", i, open)
			}
			if n > 4 {
				s.violate("too-many-transports", "client %d holds %d transports", i, n)
			}
		}
		s.mu.Lock()
		pending := s.shutting
		s.shutting = nil
		s.mu.Unlock()
		var keep []*soakConn
		for _, t := range pending {
			select {
			case <-t.Done():
				continue
			default:
			}
			if time.Since(t.closedAt) > soakWire+time.Duration(s.starved.Load()-t.starved0) {
				s.violate("not-closed-on-wire", "a transport closed %v ago has not ended", time.Since(t.closedAt).Round(time.Millisecond))
				continue
			}
			keep = append(keep, t)
		}
		s.mu.Lock()
		s.shutting = append(s.shutting, keep...)
		s.mu.Unlock()
	}
}

// sample records the resources in use.
func (s *soak) sample() {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fds := -1
	if es, err := os.ReadDir("/proc/self/fd"); err == nil {
		fds = len(es)
	}
	s.res.Samples = append(s.res.Samples, SoakSample{At: time.Since(s.start), Goroutines: runtime.NumGoroutine(), Heap: m.HeapAlloc, FDs: fds})
}

// closeAll closes every client and waits (up to the bound) until every
// client is CLOSED, holds no transport and the server no socket; a
// violation of kind otherwise.
func (s *soak) closeAll(kind string) {
	for _, c := range s.clients {
		c.r.Close()
	}
	deadline, starved0 := time.Now().Add(s.res.Bound), s.starved.Load()
	for time.Now().Before(deadline.Add(time.Duration(s.starved.Load() - starved0))) {
		closed := true
		for _, c := range s.clients {
			if c.r.State() != engine.Closed {
				closed = false
				break
			}
		}
		if closed && s.held() == 0 && s.srv.Sockets() == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i, c := range s.clients {
		if st := c.r.State(); st != engine.Closed {
			s.violate(kind, "client %d %v after Close", i, st)
		}
	}
	if n, h := s.srv.Sockets(), s.held(); n != 0 || h != 0 {
		s.violate(kind, "%d sockets on the server, %d transports held after Close", n, h)
	}
}

// finish closes every client, checks that the server then holds no
// socket, stops the runners and checks that no goroutine is left.
func (s *soak) finish(cancel context.CancelFunc, g0 int) {
	s.clearFaults()
	s.closeAll("end-sockets")
	cancel()
	for _, c := range s.clients {
		<-c.r.Done()
	}
	for deadline := time.Now().Add(10 * time.Second); s.live.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	// The clients' goroutines, and the server's for their connections,
	// end: back to the count before the clients started.
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > g0 && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	if n > g0 {
		s.violate("end-goroutines", "%d goroutines left (%d before the clients)", n-g0, g0)
	}
}

// slopes fits a line to each resource over the quiet samples and checks
// the drift over the run against its tolerance: goroutines 10 + 5% of
// their mean, heap 4 MiB + 25% of its mean, file descriptors 10 + 5% of
// their mean.
func (s *soak) slopes() {
	r := s.res
	if len(r.Samples) < 2 {
		return
	}
	xs := make([]float64, len(r.Samples))
	g, h, f := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	for i, sm := range r.Samples {
		xs[i] = sm.At.Minutes()
		g[i], h[i], f[i] = float64(sm.Goroutines), float64(sm.Heap), float64(sm.FDs)
	}
	span := xs[len(xs)-1] - xs[0]
	check := func(kind string, ys []float64, base, share float64) (slope, tol float64) {
		slope, mean := fit(xs, ys)
		tol = base + share*mean
		if drift := slope * span; math.Abs(drift) > tol {
			s.violate(kind, "drift %.0f over %.1f min (slope %.1f/min), tolerance %.0f", drift, span, slope, tol)
		}
		return slope, tol
	}
	r.GoroutineSlope, r.GoroutineTol = check("goroutines-slope", g, 10, 0.05)
	r.HeapSlope, r.HeapTol = check("heap-slope", h, 4<<20, 0.25)
	if r.Samples[0].FDs >= 0 {
		r.FDSlope, r.FDTol = check("fds-slope", f, 10, 0.05)
	}
}

// fit returns the least-squares slope of ys over xs, and the mean of ys.
func fit(xs, ys []float64) (slope, mean float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0, sy / n
	}
	return (n*sxy - sx*sy) / d, sy / n
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
