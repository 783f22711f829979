package lab

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// The runner under hostile dialers, transports and callers, on real
// loopback sockets: each test wraps the lab's Dialer and breaks one rule.

// hostile is a runner.Dialer around the lab's: before is called before
// each Open (it may panic or block), wrap may replace the Reporter the
// lab transport gets, and every Transport handed to the runner is
// recorded with the context Open had.
type hostile struct {
	inner  *Dialer
	before func(req runner.OpenRequest)
	wrap   func(req runner.OpenRequest, rep Reporter) Reporter

	mu     sync.Mutex
	opened []*hostileConn
}

type hostileConn struct {
	Conn
	req       runner.OpenRequest
	ctx       context.Context
	closed    atomic.Bool
	mu        sync.Mutex
	ctxAtStop error // ctx.Err() when Close was called
}

func (c *hostileConn) Close() {
	c.mu.Lock()
	c.ctxAtStop = c.ctx.Err()
	c.mu.Unlock()
	c.closed.Store(true)
	c.Conn.Close()
}

func (c *hostileConn) stopErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ctxAtStop
}

func (d *hostile) Open(ctx context.Context, req runner.OpenRequest, rep runner.Reporter) runner.Transport {
	if d.before != nil {
		d.before(req)
	}
	var lrep Reporter = rep
	if d.wrap != nil {
		lrep = d.wrap(req, rep)
	}
	c := &hostileConn{Conn: d.inner.open(req, lrep), req: req, ctx: ctx}
	d.mu.Lock()
	d.opened = append(d.opened, c)
	d.mu.Unlock()
	return c
}

func (d *hostile) conns() []*hostileConn {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]*hostileConn(nil), d.opened...)
}

// chaosRunner is one runner on a lab server through a hostile dialer.
type chaosRunner struct {
	t       *testing.T
	s       *Server
	d       *hostile
	r       *runner.Runner
	cancel  context.CancelFunc
	changes chan runner.StateChange
	panics  chan *runner.PanicError
}

func newChaosRunner(t *testing.T, cfg engine.Config, d *hostile, faults func(*Server)) *chaosRunner {
	t.Helper()
	s, client := newServer(t, Options{})
	if faults != nil {
		faults(s)
	}
	d.inner = NewDialer(client)
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: s.Primary(), FallbackHosts: s.Fallbacks()}
	ctx, cancel := context.WithCancel(context.Background())
	c := &chaosRunner{t: t, s: s, d: d, cancel: cancel, changes: make(chan runner.StateChange, 256),
		panics: make(chan *runner.PanicError, 16)}
	check := func(ctx context.Context) bool { return client.CheckConnectivity(ctx, s.CheckURL()) }
	r, err := runner.New(ctx, runner.Options{Config: cfg, Dialer: d, CheckConnectivity: check, CheckWebSocket: check,
		OnStateChange: func(ch runner.StateChange) { c.changes <- ch },
		OnPanic:       func(p *runner.PanicError) { c.panics <- p }})
	if err != nil {
		t.Fatal(err)
	}
	c.r = r
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.Done():
		case <-time.After(5 * time.Second):
			t.Error("Done not closed within 5 s of the cancel")
		}
		wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer wcancel()
		_ = d.inner.Wait(wctx)
	})
	return c
}

// until returns the first change to state to, failing after within.
func (c *chaosRunner) until(to engine.State, within time.Duration) runner.StateChange {
	c.t.Helper()
	deadline := time.After(within)
	for {
		select {
		case ch := <-c.changes:
			if ch.To == to {
				return ch
			}
		case <-deadline:
			c.t.Fatalf("no change to %v within %v (state %v)", to, within, c.r.State())
			return runner.StateChange{}
		}
	}
}

// Fatal after Failed on the same reporter counts for nothing: the
// Reporter's doc says nothing counts after Failed or Closed.
func TestChaosFatalAfterFailedIsIgnored(t *testing.T) {
	d := &hostile{wrap: func(req runner.OpenRequest, rep Reporter) Reporter {
		return &fatalAfterEnd{Reporter: rep}
	}}
	c := newChaosRunner(t, scaled(), d, func(s *Server) {
		h := HostFault{WebSocket: PathFault{Reject: 1, RejectStatus: 403}}
		_ = s.SetFault(s.Primary(), h)
	})
	c.r.Connect()
	got := c.until(engine.Connected, 5*time.Second)
	if got.TransportKind != reconnect.HTTP {
		t.Fatalf("CONNECTED by %v, want HTTP after the rejected websocket", got.TransportKind)
	}
	// The rejected websocket's Fatal came after its Failed; the upgrade
	// websocket (rejected too) does the same while HTTP is active.
	time.Sleep(300 * time.Millisecond)
	if s := c.r.State(); s != engine.Connected {
		t.Fatalf("state %v, want CONNECTED: a Fatal after Failed must count for nothing", s)
	}
}

// fatalAfterEnd reports Fatal right after every Failed or Closed.
type fatalAfterEnd struct{ Reporter }

func (f *fatalAfterEnd) Failed(x reconnect.Failure) {
	f.Reporter.Failed(x)
	f.Reporter.Fatal(reconnect.Failure{Kind: reconnect.FailureToken, Status: 401})
}

func (f *fatalAfterEnd) Closed(x reconnect.Failure) {
	f.Reporter.Closed(x)
	f.Reporter.Fatal(reconnect.Failure{Kind: reconnect.FailureToken, Status: 401})
}

// A panic in Dialer.Open is recovered: the websocket fails with
// FailureOther, OnPanic gets the value and the stack, and the connection
// goes on over HTTP.
func TestChaosPanicInOpenBecomesTheTransportsFailure(t *testing.T) {
	d := &hostile{before: func(req runner.OpenRequest) {
		if req.Kind == reconnect.WebSocket {
			panic("dialer bug")
		}
	}}
	c := newChaosRunner(t, scaled(), d, nil)
	c.r.Connect()
	got := c.until(engine.Connected, 5*time.Second)
	if got.TransportKind != reconnect.HTTP {
		t.Fatalf("CONNECTED by %v, want HTTP", got.TransportKind)
	}
	select {
	case p := <-c.panics:
		if p.Where != "Dialer.Open" || p.Transport != 1 || p.Value != "dialer bug" || !strings.Contains(string(p.Stack), "chaos_test.go") {
			t.Fatalf("PanicError %+v (stack %d bytes), want Dialer.Open of T1 with the value and a stack through the dialer", p, len(p.Stack))
		}
		if !strings.Contains(p.Error(), "dialer bug") {
			t.Fatalf("Error() = %q", p.Error())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OnPanic not called")
	}
}

// A panic in a check, in OnStateChange and in RequestClose: each is
// recovered and becomes its own failure; the process lives on.
func TestChaosPanicsInChecksCallbacksAndRequestClose(t *testing.T) {
	s, client := newServer(t, Options{})
	_ = s.SetFault(s.Primary(), HostFault{Down: true})
	cfg := scaled()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: s.Primary(), FallbackHosts: s.Fallbacks()}
	dialer := NewDialer(client)
	d := &hostile{inner: dialer}
	var panics sync.Map
	var calls atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	changes := make(chan runner.StateChange, 64)
	r, err := runner.New(ctx, runner.Options{Config: cfg, Dialer: &closePanics{d},
		CheckConnectivity: func(context.Context) bool {
			if calls.Add(1) == 1 {
				panic("check bug")
			}
			return true
		},
		OnStateChange: func(c runner.StateChange) {
			changes <- c
			if c.To == engine.Connecting {
				panic("callback bug")
			}
		},
		OnPanic: func(p *runner.PanicError) { panics.Store(p.Where, p) }})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		<-r.Done()
		wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer wcancel()
		_ = dialer.Wait(wctx)
	}()
	r.Connect()
	// The first check panics: down, so DISCONNECTED for connectivity-down;
	// the retry's check answers up and a fallback host connects.
	for c := range changes {
		if c.To == engine.Disconnected && c.Reason != engine.ReasonConnectivityDown {
			t.Fatalf("DISCONNECTED for %v, want connectivity-down from the panicking check", c.Reason)
		}
		if c.To == engine.Connected {
			break
		}
	}
	r.Close() // RequestClose panics: the transport counts as closed at once
	for c := range changes {
		if c.To == engine.Closed {
			if c.From != engine.Closing {
				t.Fatalf("%v → CLOSED, want from CLOSING", c.From)
			}
			break
		}
	}
	for _, w := range []string{"CheckConnectivity", "OnStateChange", "Transport.RequestClose"} {
		if _, ok := panics.Load(w); !ok {
			t.Errorf("no PanicError from %s", w)
		}
	}
}

// closePanics panics in every transport's RequestClose.
type closePanics struct{ d *hostile }

func (c *closePanics) Open(ctx context.Context, req runner.OpenRequest, rep runner.Reporter) runner.Transport {
	return requestClosePanics{c.d.Open(ctx, req, rep)}
}

type requestClosePanics struct{ runner.Transport }

func (requestClosePanics) RequestClose() { panic("request-close bug") }

// An Open that blocks and ignores its context stalls nothing: the
// short-circuit timer still starts HTTP, which connects; Close closes;
// cancelling closes Done (after realtimeRequestTimeout at most) while Open
// is still blocked; the transport Open finally returns is closed at once.
func TestChaosBlockingOpenStallsNothing(t *testing.T) {
	release := make(chan struct{})
	d := &hostile{before: func(req runner.OpenRequest) {
		if req.ID == 1 {
			<-release // ignores ctx
		}
	}}
	c := newChaosRunner(t, scaled(), d, nil)
	c.r.Connect()
	got := c.until(engine.Connected, 5*time.Second)
	if got.TransportKind != reconnect.HTTP {
		t.Fatalf("CONNECTED by %v, want HTTP (the websocket's Open is stuck)", got.TransportKind)
	}
	c.r.Close()
	c.until(engine.Closed, 5*time.Second)
	c.cancel()
	// Done waits for the blocked Open at most realtimeRequestTimeout (3 s
	// here), then closes while Open still blocks.
	select {
	case <-c.r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done not closed while an Open blocks")
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for {
		var t1 *hostileConn
		for _, hc := range d.conns() {
			if hc.req.ID == 1 {
				t1 = hc
			}
		}
		if t1 != nil && t1.closed.Load() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the transport the blocked Open returned was not closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// After the context is done the state is CLOSED, with a last change that
// says so, and every transport was closed while its Open context was
// still live: the context is done only after the runner closed the
// transport.
func TestChaosCancelEndsInClosedAfterClosingTransports(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults func(*Server)
		want   engine.State // the state when the context is cancelled
	}{
		{"connected", nil, engine.Connected},
		{"connecting", func(s *Server) {
			h := HostFault{WebSocket: PathFault{Blackhole: 1}, HTTP: PathFault{Blackhole: 1}}
			_ = s.SetFault(s.Primary(), h)
		}, engine.Connecting},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &hostile{}
			c := newChaosRunner(t, scaled(), d, tc.faults)
			c.r.Connect()
			c.until(tc.want, 5*time.Second)
			time.Sleep(200 * time.Millisecond) // the short circuit has opened HTTP too
			c.cancel()
			last := c.until(engine.Closed, 5*time.Second)
			if !last.Stopped || last.From != tc.want || last.Reason != engine.ReasonClosed {
				t.Fatalf("last change %+v, want %v → CLOSED, closed, Stopped", last, tc.want)
			}
			<-c.r.Done()
			if s := c.r.State(); s != engine.Closed {
				t.Fatalf("State() = %v after the stop, want CLOSED", s)
			}
			conns := d.conns()
			if len(conns) == 0 {
				t.Fatal("no transport opened")
			}
			for _, hc := range conns {
				if !hc.closed.Load() {
					t.Errorf("T%d not closed", hc.req.ID)
				} else if err := hc.stopErr(); err != nil {
					t.Errorf("T%d: Open's context was done (%v) before the runner closed it", hc.req.ID, err)
				}
				if hc.ctx.Err() == nil {
					t.Errorf("T%d: Open's context still live after Done", hc.req.ID)
				}
			}
		})
	}
}
