package runner

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// newTestRunner returns a runner on an in-memory dialer with test checks,
// recording its state changes.
func newTestRunner(t *testing.T, ctx context.Context, cfg engine.Config) (*Runner, *memDialer, *memCheck, *recorder) {
	t.Helper()
	d, net, rec := newMemDialer(), newMemCheck(), &recorder{}
	r, err := New(ctx, Options{Config: cfg, Dialer: d, CheckConnectivity: net.check,
		CheckWebSocket: newMemCheck().check, OnStateChange: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	return r, d, net, rec
}

// connectNow connects r and makes its first transport connect.
func connectNow(t *testing.T, r *Runner, d *memDialer) *memTransport {
	t.Helper()
	return connectOn(t, r, d, 1)
}

// connectOn connects r and makes transport id, the one the connect opens,
// connect.
func connectOn(t *testing.T, r *Runner, d *memDialer, id engine.TransportID) *memTransport {
	t.Helper()
	return connectWith(t, r, d, id, engine.Details{})
}

// connectWith connects r and makes transport id, the one the connect
// opens, connect with dt in the CONNECTED message's details.
func connectWith(t *testing.T, r *Runner, d *memDialer, id engine.TransportID, dt engine.Details) *memTransport {
	t.Helper()
	r.Connect()
	synctest.Wait()
	tr := d.transport(id)
	if tr == nil {
		t.Fatalf("transport %d not opened", id)
	}
	reportConnected(t, r, tr, dt)
	return tr
}

// reportConnected makes tr report viable, then CONNECTED with dt in its
// details, and checks that r is then connected.
func reportConnected(t *testing.T, r *Runner, tr *memTransport, dt engine.Details) {
	t.Helper()
	tr.report.Viable()
	tr.report.ConnectedWith(dt, reconnect.Failure{})
	synctest.Wait()
	if s := r.State(); s != engine.Connected {
		t.Fatalf("state %v, want connected", s)
	}
}

func TestCloseSendsCloseAndEndsClosedWithNoGoroutineLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		tr := connectNow(t, r, d)
		if r.Active() != Transport(tr) {
			t.Fatalf("Active() = %v, want the connected transport", r.Active())
		}
		r.Close()
		synctest.Wait()
		if !tr.closeRq || r.State() != engine.Closing {
			t.Fatalf("closeRequested=%v state=%v, want CLOSE sent in CLOSING", tr.closeRq, r.State())
		}
		tr.report.Closed(reconnect.Failure{})
		synctest.Wait()
		if r.State() != engine.Closed || !tr.closed || r.Active() != nil {
			t.Fatalf("state=%v closed=%v active=%v, want CLOSED, the transport closed, none active", r.State(), tr.closed, r.Active())
		}
		// Nothing of the runner's runs now: synctest.Test fails if a
		// goroutine of the bubble is left when this function returns, and
		// the context (t.Context) is still live.
		cs := rec.all()
		last := cs[len(cs)-1]
		if last.From != engine.Closing || last.To != engine.Closed || last.Reason != engine.ReasonClosed {
			t.Fatalf("last change %+v", last)
		}
	})
}

func TestCloseWithoutAnswerClosesAfterRealtimeRequestTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := engine.AblyConfig()
		r, d, _, _ := newTestRunner(t, t.Context(), cfg)
		tr := connectNow(t, r, d)
		start := time.Now()
		r.Close()
		time.Sleep(cfg.Timeouts.RealtimeRequest - time.Nanosecond)
		synctest.Wait()
		if r.State() != engine.Closing {
			t.Fatalf("state %v before realtimeRequestTimeout, want closing", r.State())
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if r.State() != engine.Closed || !tr.closed {
			t.Fatalf("state %v closed=%v at %v, want CLOSED", r.State(), tr.closed, time.Since(start))
		}
	})
}

// Close while CONNECTING goes CLOSING and lets the transport in flight
// finish (RTN12f); when it connects, the runner sends CLOSE on it (RTN12a)
// and the server's CLOSED ends the close. Connect while CLOSING makes a new
// connection (RTN11b).
func TestCloseWhileConnectingSendsCloseOnTheTransportThatConnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		r.Connect()
		synctest.Wait()
		tr := d.transport(1)
		r.Close()
		synctest.Wait()
		if r.State() != engine.Closing || tr.closed || tr.closeRq {
			t.Fatalf("state=%v closed=%v closeRequested=%v, want CLOSING with the transport still in flight", r.State(), tr.closed, tr.closeRq)
		}
		tr.report.Viable()
		tr.report.Connected()
		synctest.Wait()
		if !tr.closeRq || r.State() != engine.Closing || r.Active() != Transport(tr) {
			t.Fatalf("closeRequested=%v state=%v active=%v, want CLOSE sent on the transport that connected, in CLOSING", tr.closeRq, r.State(), r.Active())
		}
		tr.report.Closed(reconnect.Failure{})
		synctest.Wait()
		if r.State() != engine.Closed || !tr.closed {
			t.Fatalf("state=%v closed=%v, want CLOSED and the transport closed", r.State(), tr.closed)
		}
		for _, c := range rec.all() {
			if c.To == engine.Connected {
				t.Fatalf("change %+v: a close while connecting reported CONNECTED", c)
			}
		}
		// Connect while CLOSING (RTN11b): the closing transport is closed,
		// a new one opens; its late CLOSED changes nothing.
		old := connectOn(t, r, d, 2)
		r.Close()
		synctest.Wait()
		r.Connect()
		synctest.Wait()
		if !old.closed || r.State() != engine.Connecting || d.transport(3) == nil {
			t.Fatalf("old closed=%v state=%v, want the old transport closed and a new one opening", old.closed, r.State())
		}
		old.report.Closed(reconnect.Failure{})
		synctest.Wait()
		if r.State() != engine.Connecting {
			t.Fatalf("state %v after the old transport's CLOSED, want connecting", r.State())
		}
	})
}

func TestCancelLeavesNoGoroutineAndClosesEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		r, d, net, _ := newTestRunner(t, ctx, engine.AblyConfig())
		r.Connect()
		synctest.Wait()
		d.transport(1).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
		synctest.Wait()
		d.transport(2).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
		synctest.Wait() // a connectivity check is in flight now, and timers run
		if len(net.asks) != 1 {
			t.Fatalf("%d checks in flight, want 1", len(net.asks))
		}
		cancel()
		<-r.Done()
		for id, tr := range d.opened {
			if !tr.closed {
				t.Errorf("transport T%d not closed", id)
			}
		}
		r.Connect() // ignored after the stop
		synctest.Wait()
		if len(d.opened) != 2 {
			t.Fatalf("%d transports opened after the stop", len(d.opened)-2)
		}
	})
}

// TestCancelLeavesNoGoroutineRealTime checks the same with the real
// scheduler: the goroutine count returns to where it was.
func TestCancelLeavesNoGoroutineRealTime(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	d := newMemDialer()
	net := newMemCheck()
	r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: net.check,
		OnStateChange: func(StateChange) {}})
	if err != nil {
		t.Fatal(err)
	}
	r.Connect()
	for d.transport(1) == nil {
		runtime.Gosched()
	}
	d.transport(1).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
	for d.transport(2) == nil {
		runtime.Gosched()
	}
	d.transport(2).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
	<-net.asks // the check's goroutine waits for an answer
	cancel()
	<-r.Done()
	// Done is closed by the last goroutine as it ends; give the scheduler
	// a moment to retire it (no sleep: yield until the count drops).
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Fatalf("%d goroutines after the stop, %d before", after, before)
	}
}

func TestStateChangesCarryTheFailureThatCausedThem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := engine.AblyConfig()
		cfg.Endpoint.Endpoint = "rt.example.com" // no fallback hosts
		r, d, _, rec := newTestRunner(t, t.Context(), cfg)
		r.Connect()
		synctest.Wait()
		d.transport(1).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
		synctest.Wait()
		// T2 (HTTP) never answers: its connect timeout ends the attempt.
		time.Sleep(cfg.Timeouts.RealtimeRequest)
		synctest.Wait()
		cs := rec.all()
		last := cs[len(cs)-1]
		if last.To != engine.Disconnected || last.Reason != engine.ReasonConnectFailed ||
			last.Failure != (reconnect.Failure{Kind: reconnect.FailureTimeout}) || last.RetryIn <= 0 {
			t.Fatalf("change %+v, want DISCONNECTED for a timeout with a retry", last)
		}
		// The retry connects; then the transport drops with a 503.
		time.Sleep(last.RetryIn)
		synctest.Wait()
		tr := d.transport(3)
		tr.report.Connected()
		synctest.Wait()
		cs = rec.all()
		if c := cs[len(cs)-1]; c.To != engine.Connected || c.TransportKind != reconnect.WebSocket || c.Host != "rt.example.com" || c.Failure != (reconnect.Failure{}) {
			t.Fatalf("change %+v, want CONNECTED by websocket to rt.example.com", c)
		}
		drop := reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503}
		tr.report.Closed(drop)
		synctest.Wait()
		cs = rec.all()
		if c := cs[len(cs)-2]; c.Reason != engine.ReasonDropped || c.Failure != drop {
			t.Fatalf("change %+v, want a drop for %+v", c, drop)
		}
		if c := cs[len(cs)-1]; c.To != engine.Connecting || c.Failure != (reconnect.Failure{}) {
			t.Fatalf("change %+v, want the immediate reconnect, no failure", c)
		}
		tr.report.Connected() // a closed transport's report is ignored
		synctest.Wait()
		if r.State() != engine.Connecting {
			t.Fatalf("state %v after a report from a closed transport", r.State())
		}
	})
}

func TestSlowOnStateChangeNeverBlocksTheLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var got []StateChange
		d := newMemDialer()
		r, err := New(t.Context(), Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck,
			OnStateChange: func(c StateChange) { <-release; got = append(got, c) }})
		if err != nil {
			t.Fatal(err)
		}
		// Many changes while the callback is stuck on the first: each
		// Close while CONNECTING goes CLOSING (RTN12f; the transport in
		// flight goes on), each Connect while CLOSING starts a new
		// connection (RTN11b).
		const n = MaxQueuedChanges + 10
		for range n {
			r.Connect()
			r.Close()
		}
		synctest.Wait()
		if r.State() != engine.Closing {
			t.Fatalf("state %v, want the loop to have run to CLOSING", r.State())
		}
		close(release)
		synctest.Wait()
		missed := 0
		for _, c := range got {
			missed += c.Missed
		}
		if len(got)+missed != 2*n {
			t.Fatalf("%d delivered + %d missed, want %d changes", len(got), missed, 2*n)
		}
		// The queue holds MaxQueuedChanges; one more may already be in the
		// callback when it fills.
		if len(got) < MaxQueuedChanges || len(got) > MaxQueuedChanges+1 || got[len(got)-1].To != engine.Closing {
			t.Fatalf("%d delivered, last %+v", len(got), got[len(got)-1])
		}
	})
}

func TestNewRejectsBadOptions(t *testing.T) {
	if _, err := New(context.Background(), Options{Config: engine.AblyConfig()}); !errors.Is(err, ErrNoDialer) {
		t.Fatalf("no dialer: %v", err)
	}
	var fe *reconnect.FieldError
	if _, err := New(context.Background(), Options{Dialer: newMemDialer()}); !errors.As(err, &fe) {
		t.Fatalf("zero Config: %v, want a *reconnect.FieldError", err)
	}
}

func TestATransportReportingInALoopCannotFloodTheRunner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		r.Connect()
		synctest.Wait()
		tr := d.transport(1)
		for range 10_000 {
			tr.report.Viable()
			tr.report.Connected()
		}
		r.mu.Lock()
		queued := len(r.sh.inbox)
		r.mu.Unlock()
		if queued > 2 {
			t.Fatalf("%d events queued for one transport's repeated reports, want at most 2", queued)
		}
		synctest.Wait()
		tr.report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
		tr.report.Closed(reconnect.Failure{Kind: reconnect.FailureRefused})
		synctest.Wait()
		if n := len(rec.all()); r.State() != engine.Connecting || n != 4 {
			// connecting, connected, the drop, the immediate reconnect
			t.Fatalf("state %v after %d changes", r.State(), n)
		}
	})
}
