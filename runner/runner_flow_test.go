package runner

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

func TestActiveFollowsTheUpgradeFromHTTPToWebSocket(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		r.Connect()
		synctest.Wait()
		d.transport(1).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused}) // a proxy rejects the websocket
		synctest.Wait()
		http := d.transport(2)
		if http == nil || http.req.Kind != reconnect.HTTP {
			t.Fatalf("T2 = %+v, want HTTP", http)
		}
		http.report.Connected()
		synctest.Wait()
		if r.Active() != Transport(http) {
			t.Fatal("HTTP not active once connected")
		}
		if cs := rec.all(); cs[len(cs)-1].TransportKind != reconnect.HTTP {
			t.Fatalf("CONNECTED by %v, want http", cs[len(cs)-1].Transport)
		}
		up := d.transport(3)
		if up == nil || up.req.Kind != reconnect.WebSocket || up.req.Mode != reconnect.ModeUpgrade {
			t.Fatalf("T3 = %+v, want an upgrade websocket", up)
		}
		up.report.Viable()
		up.report.Connected()
		synctest.Wait()
		if r.Active() != Transport(up) || !http.closed {
			t.Fatalf("after the upgrade: active %v, HTTP closed %v", r.Active(), http.closed)
		}
		cs := rec.all()
		if n := len(cs); n != 3 {
			t.Fatalf("%d state changes, want 2 and an update: the upgrade changes no state", n)
		}
		for _, c := range cs[:2] {
			if c.Update {
				t.Fatalf("%+v is an update, want a state change", c)
			}
		}
		// RTN4h: the SDK learns the new active transport from an UPDATE.
		if c := cs[2]; !c.Update || c.From != engine.Connected || c.To != engine.Connected ||
			c.Reason != engine.ReasonTransport || c.TransportKind != reconnect.WebSocket || c.Host != up.req.Host {
			t.Fatalf("after the upgrade %+v, want an update naming the websocket", c)
		}
	})
}

func TestFatalFromATransportFailsTheConnection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		tr := connectNow(t, r, d)
		revoked := reconnect.Failure{Kind: reconnect.FailureToken, Status: 401}
		tr.report.Fatal(revoked)
		synctest.Wait()
		cs := rec.all()
		if c := cs[len(cs)-1]; c.To != engine.Failed || c.Reason != engine.ReasonFatal || c.Failure != revoked {
			t.Fatalf("change %+v, want FAILED for %v", c, revoked)
		}
		if !tr.closed || r.Active() != nil {
			t.Fatalf("closed=%v active=%v, want the transport closed", tr.closed, r.Active())
		}
	})
}

// TestConcurrentCallsAndReportsUnderRealTime calls every method from many
// goroutines at once while transports report from theirs, with real
// timers and real checks answered at once; it must not race (go test
// -race), panic or deadlock, and stopping must end everything.
func TestConcurrentCallsAndReportsUnderRealTime(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	d := newMemDialer()
	up := func(context.Context) bool { return true }
	r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: up, CheckWebSocket: up,
		OnStateChange: func(StateChange) {}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 300 {
				switch (g + i) % 6 {
				case 0:
					r.Connect()
				case 1:
					r.NetworkDown()
				case 2:
					r.NetworkUp()
				case 3:
					r.Close()
				default:
					d.mu.Lock()
					var ts []*memTransport
					for _, tr := range d.opened {
						ts = append(ts, tr)
					}
					d.mu.Unlock()
					for _, tr := range ts {
						switch i % 4 {
						case 0:
							tr.report.Viable()
						case 1:
							tr.report.Connected()
						case 2:
							tr.report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
						default:
							tr.report.Closed(reconnect.Failure{})
						}
					}
				}
				_ = r.Active()
				_ = r.State()
			}
		}()
	}
	wg.Wait()
	cancel()
	<-r.Done()
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, tr := range d.opened {
		if !tr.closed {
			t.Errorf("T%d not closed after the stop", id)
		}
	}
}
