package runner

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// benchDialer's transports hand their Reporter to the benchmark.
type benchDialer struct{ opened chan Reporter }

// Open hands the benchmark the websocket's Reporter only: on a machine so
// loaded that the short circuit (2 s) passes before the benchmark reports
// CONNECTED, the engine also opens HTTP, whose Reporter would otherwise
// wait in the channel and be taken, stale, for the next cycle's websocket.
func (d benchDialer) Open(_ context.Context, req OpenRequest, report Reporter) Transport {
	if req.Kind == reconnect.WebSocket {
		d.opened <- report
	}
	return noTransport{}
}

// The cycle both benchmarks run, three events: the network goes down
// (CONNECTED → DISCONNECTED, a retry timer starts, the transport is
// closed), comes back (CONNECTING, a websocket opens with its connect,
// short-circuit and state-ttl timers) and the websocket connects
// (CONNECTED, four timers cancelled). cycleConfig has no immediate
// reconnect after NetworkDown: with it, the engine reconnects at once at
// most once a second (RTN20a, then RTN15a's limit), so a cycle that came
// more than a second after the last such reconnect opened a websocket
// that NetworkUp then abandoned for another (RTN20c), two Opens where the
// benchmark waits for one, and took the wrong Reporter about once in a
// hundred runs (the benchmark waited for ever). Every cycle is now the
// same, and the same as at v0.1.0, whose NetworkDown did not reconnect.
func cycleConfig() engine.Config {
	cfg := engine.AblyConfig()
	cfg.ImmediateReconnect = engine.ImmediateOff
	return cfg
}

// BenchmarkBareStep is the cycle on a bare Engine, with the time read from
// the clock as a loop would: the floor the runner adds to.
func BenchmarkBareStep(b *testing.B) {
	b.ReportAllocs()
	e, _ := engine.New(cycleConfig())
	out := make([]engine.Action, 0, 32)
	out = e.Step(time.Now(), engine.Event{Kind: engine.EventConnect}, out[:0])
	id := openedID(out)
	out = e.Step(time.Now(), engine.Event{Kind: engine.EventTransportConnected, Transport: id}, out[:0])
	b.ResetTimer()
	for range b.N {
		out = e.Step(time.Now(), engine.Event{Kind: engine.EventNetworkDown}, out[:0])
		out = e.Step(time.Now(), engine.Event{Kind: engine.EventNetworkUp}, out[:0])
		id = openedID(out)
		out = e.Step(time.Now(), engine.Event{Kind: engine.EventTransportConnected, Transport: id}, out[:0])
		if e.State() != engine.Connected {
			b.Fatal(e.State())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(3*b.N), "ns/event")
}

// BenchmarkReporterActivity is what a transport's reading goroutine pays
// per received message to keep the idle timer (RTN23a) informed:
// Reporter.Activity on the active transport of a connected Runner whose
// CONNECTED message set a maxIdleInterval. It allocates nothing, reads no
// clock and never runs the engine: it raises the transport's flag, and
// with the flag raised (every call but the first after each of the
// runner's samples, one per sampling period) it is one atomic load.
func BenchmarkReporterActivity(b *testing.B) {
	b.ReportAllocs()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := benchDialer{opened: make(chan Reporter, 1)}
	r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck})
	if err != nil {
		b.Fatal(err)
	}
	r.Connect()
	rp := <-d.opened
	rp.ConnectedWith(engine.Details{MaxIdleInterval: time.Hour}, reconnect.Failure{})
	for r.State() != engine.Connected { // Open's goroutine passes the report on once Open has returned
		runtime.Gosched()
	}
	b.ResetTimer()
	for range b.N {
		rp.Activity()
	}
	b.StopTimer()
	if s := r.State(); s != engine.Connected {
		b.Fatal(s)
	}
}

func openedID(out []engine.Action) engine.TransportID {
	for _, a := range out {
		if a.Kind == engine.ActionOpenTransport {
			return a.Transport
		}
	}
	return 0
}

// BenchmarkRunnerEvent is the same cycle through a Runner, as an SDK
// drives it: NetworkDown and NetworkUp called from the benchmark's
// goroutine, the websocket's Connected reported from that goroutine too
// once Open has handed it the Reporter (as a transport's reading goroutine
// would), real timers started and stopped, the transports closed, and
// every state change delivered to an OnStateChange callback; the benchmark
// waits for CONNECTED at the end of each cycle.
func BenchmarkRunnerEvent(b *testing.B) {
	d := benchDialer{opened: make(chan Reporter, 1)}
	benchRunnerCycle(b, d, func() { (<-d.opened).Connected() })
}

// BenchmarkRunnerEventInline is the cycle of BenchmarkRunnerEvent with
// Options.Inline, where the SDK's code runs on the goroutine that brought
// the event: Open is called, and CONNECTED delivered, within the
// benchmark's calls, unless the shared timer's goroutine happens to be
// running the engine at that moment (it fires once for a timer already
// cancelled, see rearm), in which case the benchmark waits for it.
func BenchmarkRunnerEventInline(b *testing.B) {
	b.ReportAllocs()
	d := &syncDialer{}
	var connected atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	r, err := New(ctx, Options{Config: cycleConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck, Inline: true, OnStateChange: func(c StateChange) {
		if c.To == engine.Connected {
			connected.Store(true)
		}
	}})
	if err != nil {
		b.Fatal(err)
	}
	cycle := func(n int64) {
		for d.opened.Load() < n {
			runtime.Gosched()
		}
		d.reporter().Connected()
		for !connected.Load() {
			runtime.Gosched()
		}
		connected.Store(false)
	}
	r.Connect()
	cycle(1)
	b.ResetTimer()
	for i := range b.N {
		r.NetworkDown()
		r.NetworkUp()
		cycle(int64(i) + 2)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(3*b.N), "ns/event")
	cancel()
	<-r.Done()
}

// syncDialer keeps the Reporters of the transports it opened, the last
// two in turn: the benchmark reads the one Open wrote once opened says so.
type syncDialer struct {
	reports [2]Reporter
	opened  atomic.Int64
}

func (d *syncDialer) Open(_ context.Context, _ OpenRequest, report Reporter) Transport {
	n := d.opened.Load()
	d.reports[n%2] = report
	d.opened.Store(n + 1)
	return noTransport{}
}

func (d *syncDialer) reporter() Reporter { return d.reports[(d.opened.Load()-1)%2] }

// BenchmarkRunnerEventConnectInOpen is the cycle with a transport that
// connects within Open: its report is held until Open returns and then
// runs the engine on Open's goroutine, a new goroutine whose stack grows
// to hold the engine's.
func BenchmarkRunnerEventConnectInOpen(b *testing.B) {
	benchRunnerCycle(b, instantDialer{})
}

// instantDialer's transports connect within Open.
type instantDialer struct{}

func (instantDialer) Open(_ context.Context, _ OpenRequest, report Reporter) Transport {
	report.Connected()
	return noTransport{}
}

func benchRunnerCycle(b *testing.B, d Dialer, afterOpen ...func()) {
	benchRunnerCycleWith(b, d, false, afterOpen...)
}

func benchRunnerCycleWith(b *testing.B, d Dialer, inline bool, afterOpen ...func()) {
	b.ReportAllocs()
	connected := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	r, err := New(ctx, Options{Config: cycleConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck, Inline: inline, OnStateChange: func(c StateChange) {
		if c.To == engine.Connected {
			connected <- struct{}{}
		}
	}})
	if err != nil {
		b.Fatal(err)
	}
	r.Connect()
	for _, f := range afterOpen {
		f()
	}
	<-connected
	b.ResetTimer()
	for range b.N {
		r.NetworkDown()
		r.NetworkUp()
		for _, f := range afterOpen {
			f()
		}
		<-connected
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(3*b.N), "ns/event")
	cancel()
	<-r.Done()
}

// BenchmarkIdleConnections holds 100,000 connected runners (in-memory
// transports, so the figures are the runner's and the engine's alone) and
// reports the goroutines and heap bytes each adds. Run it once:
//
//	go test -run '^$' -bench IdleConnections -benchtime 1x ./runner
func BenchmarkIdleConnections(b *testing.B) {
	b.ReportAllocs()
	const n = 100_000
	for range b.N {
		ctx, cancel := context.WithCancel(context.Background())
		d := benchDialer{opened: make(chan Reporter, n)}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		g0 := runtime.NumGoroutine()
		rs := make([]*Runner, n)
		for i := range rs {
			r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck, OnStateChange: func(StateChange) {}})
			if err != nil {
				b.Fatal(err)
			}
			r.Connect()
			(<-d.opened).Connected()
			rs[i] = r
		}
		for _, r := range rs {
			for r.State() != engine.Connected {
				runtime.Gosched()
			}
		}
		waitIdle(rs)
		runtime.GC()
		runtime.ReadMemStats(&after)
		g1 := runtime.NumGoroutine()
		b.ReportMetric(float64(g1-g0)/n, "goroutines/conn")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/conn")
		runtime.KeepAlive(rs)
		cancel()
		for _, r := range rs {
			<-r.Done()
		}
	}
}

// waitIdle waits until no runner has a loop or delivery goroutine running.
func waitIdle(rs []*Runner) {
	for _, r := range rs {
		for {
			r.mu.Lock()
			busy := r.sh.running || r.sh.busy || r.sh.changes.busy || r.sh.workers > 0
			r.mu.Unlock()
			if !busy {
				break
			}
			runtime.Gosched()
		}
	}
}

// BenchmarkHandoffFloor is the cycle's goroutine hand-offs alone, without
// the engine or the runner: the three goroutines a cycle of
// BenchmarkRunnerEvent starts (the effects of the drop, Open, the effects
// of CONNECTED) and the two waits of the benchmark (for the Reporter, for
// CONNECTED). BenchmarkRunnerEvent minus BenchmarkBareStep minus this is
// the runner's own bookkeeping.
func BenchmarkHandoffFloor(b *testing.B) {
	b.ReportAllocs()
	var f struct {
		opened, connected chan struct{}
		effects, open     func()
		connectedFn       func()
	}
	f.opened, f.connected = make(chan struct{}, 1), make(chan struct{}, 1)
	f.effects = func() {}
	f.open = func() { f.opened <- struct{}{} }
	f.connectedFn = func() { f.connected <- struct{}{} }
	for range b.N {
		go f.effects()
		go f.open()
		<-f.opened
		go f.connectedFn()
		<-f.connected
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(3*b.N), "ns/event")
}
