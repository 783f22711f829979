package runner

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// adaptiveConfig is Ably's configuration with the adaptive short circuit
// of Defaults: 3 × the dial, at least 50 ms, the 2 s short circuit as the
// ceiling.
func adaptiveConfig() engine.Config {
	cfg := engine.AblyConfig()
	cfg.Adaptive = engine.DefaultAdaptiveShortCircuit()
	return cfg
}

// A websocket whose dial took 10 ms: HTTP starts at the 50 ms floor, not
// at 3 × 10 ms nor at the 2 s short circuit; a second report counts for
// nothing.
func TestDialedBringsTheShortCircuitForward(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, _ := newTestRunner(t, t.Context(), adaptiveConfig())
		start := time.Now()
		r.Connect()
		synctest.Wait()
		ws := d.transport(1)
		time.Sleep(10 * time.Millisecond)
		ws.report.Dialed(10 * time.Millisecond)
		ws.report.Dialed(time.Millisecond) // counts once
		synctest.Wait()
		time.Sleep(50*time.Millisecond - time.Since(start) - time.Nanosecond)
		synctest.Wait()
		if d.transport(2) != nil {
			t.Fatalf("HTTP opened %v after the connect, before the 50 ms floor", time.Since(start))
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if h := d.transport(2); h == nil || h.req.Kind != reconnect.HTTP {
			t.Fatalf("no HTTP at %v, want it at the 50 ms floor", time.Since(start))
		}
	})
}

// dialedDialer's websockets report their dial from within Open: the report
// is held back until Open returns, with its round trip.
type dialedDialer struct{ *memDialer }

func (d dialedDialer) Open(ctx context.Context, req OpenRequest, report Reporter) Transport {
	if req.Kind == reconnect.WebSocket {
		report.Dialed(100 * time.Millisecond)
	}
	return d.memDialer.Open(ctx, req, report)
}

func TestDialedWhileOpenRunsIsHeldWithItsRoundTrip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newMemDialer()
		r, err := New(t.Context(), Options{Config: adaptiveConfig(), Dialer: dialedDialer{d}, CheckConnectivity: NoConnectivityCheck})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		r.Connect()
		synctest.Wait()
		time.Sleep(300*time.Millisecond - time.Nanosecond) // 3 × 100 ms from the open
		synctest.Wait()
		if d.transport(2) != nil {
			t.Fatalf("HTTP opened at %v, before 3 × the 100 ms dial", time.Since(start))
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if d.transport(2) == nil {
			t.Fatalf("no HTTP at %v, want it at 300 ms", time.Since(start))
		}
	})
}
