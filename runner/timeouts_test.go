package runner

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// ownConfig is Defaults with one host and websockets only, so that a lost
// transport ends the attempt at once.
func ownConfig() engine.Config {
	cfg := engine.Defaults()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "realtime:8080"}
	cfg.Transports.HTTP = false
	return cfg
}

// Each job of realtimeRequestTimeout runs for its own field: the connect
// timer (Timeouts.Connect), the close timer (Timeouts.Closing) and the
// renewal, whose context's deadline is Timeouts.Renewal.
func TestRunnerTimersTakeTheirJobsTimeouts(t *testing.T) {
	t.Run("connect", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cfg := ownConfig()
			cfg.Timeouts.Connect = 4 * time.Second
			r, d, _, rec := newTestRunner(t, t.Context(), cfg)
			start := time.Now()
			r.Connect()
			synctest.Wait()
			time.Sleep(4*time.Second - time.Millisecond)
			synctest.Wait()
			if d.transport(1).isClosed() {
				t.Fatal("the transport was given up before Timeouts.Connect")
			}
			time.Sleep(time.Millisecond)
			synctest.Wait()
			cs := rec.all()
			if !d.transport(1).isClosed() || len(cs) < 2 || cs[1].To != engine.Disconnected ||
				cs[1].Failure.Kind != reconnect.FailureTimeout || cs[1].At.Sub(start) != 4*time.Second {
				t.Fatalf("changes %+v: want DISCONNECTED with a timeout 4 s after the connect", cs)
			}
		})
	})
	t.Run("closing", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cfg := ownConfig()
			cfg.Timeouts.Closing = 3 * time.Second
			r, d, _, rec := newTestRunner(t, t.Context(), cfg)
			tr := connectNow(t, r, d)
			r.Close()
			synctest.Wait()
			start := time.Now()
			time.Sleep(3 * time.Second)
			synctest.Wait()
			cs := rec.all()
			if last := cs[len(cs)-1]; last.To != engine.Closed || last.At.Sub(start) != 3*time.Second || !tr.isClosed() {
				t.Fatalf("changes %+v: want CLOSED 3 s after the close, the transport closed", cs)
			}
		})
	})
	t.Run("renewal", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cfg := ownConfig()
			cfg.Timeouts.Renewal = 2 * time.Second
			d, rec := newMemDialer(), &recorder{}
			var deadline time.Time
			renew := func(ctx context.Context) error {
				deadline, _ = ctx.Deadline()
				<-ctx.Done()
				return ctx.Err()
			}
			r, err := New(t.Context(), Options{Config: cfg, Dialer: d, CheckConnectivity: NoConnectivityCheck, OnStateChange: rec.add, RenewToken: renew})
			if err != nil {
				t.Fatal(err)
			}
			r.Connect()
			synctest.Wait()
			d.transport(1).report.Failed(tokenErr)
			synctest.Wait()
			start := time.Now()
			time.Sleep(2 * time.Second)
			synctest.Wait()
			cs := rec.all()
			if deadline.Sub(start) != 2*time.Second || len(cs) != 2 || cs[1].To != engine.Disconnected ||
				cs[1].Failure.Kind != reconnect.FailureTimeout || cs[1].At.Sub(start) != 2*time.Second {
				t.Fatalf("deadline in %v, changes %+v: want the context and DISCONNECTED with a timeout 2 s after the token error", deadline.Sub(start), cs)
			}
		})
	})
}

// The client-side idle limit: a server that announces no maxIdleInterval
// and falls silent is dropped after Config.IdleLimit, and a message
// within it keeps the connection.
func TestRunnerIdleLimitWithoutMaxIdleInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := ownConfig()
		cfg.IdleLimit = 8 * time.Second
		r, d, _, rec := newTestRunner(t, t.Context(), cfg)
		tr := connectNow(t, r, d)
		time.Sleep(5 * time.Second)
		tr.report.Activity()
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if r.State() != engine.Connected {
			t.Fatalf("state %v 5 s after activity, want connected", r.State())
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		cs := rec.all()
		var drop *StateChange
		for i := range cs {
			if cs[i].From == engine.Connected && cs[i].To == engine.Disconnected {
				drop = &cs[i]
			}
		}
		if drop == nil || drop.Failure.Kind != reconnect.FailureTimeout || !tr.isClosed() {
			t.Fatalf("changes %+v: want the silent transport dropped with a timeout", cs)
		}
	})
}
