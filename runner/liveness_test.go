package runner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// connectIdle connects r on its first transport with maxIdle in the
// CONNECTED message's details.
func connectIdle(t *testing.T, r *Runner, d *memDialer, maxIdle time.Duration) *memTransport {
	t.Helper()
	r.Connect()
	synctest.Wait()
	tr := d.transport(1)
	if tr == nil {
		t.Fatal("no transport opened")
	}
	tr.report.Viable()
	tr.report.ConnectedWith(engine.Details{MaxIdleInterval: maxIdle}, reconnect.Failure{})
	synctest.Wait()
	if s := r.State(); s != engine.Connected {
		t.Fatalf("state %v, want connected", s)
	}
	return tr
}

func TestSilentTransportIsDroppedAndTheRunnerReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := engine.AblyConfig()
		r, d, _, rec := newTestRunner(t, t.Context(), cfg)
		const maxIdle = 15 * time.Second
		limit := maxIdle + cfg.Timeouts.RealtimeRequest
		tr := connectIdle(t, r, d, maxIdle)
		connectedAt := time.Now()
		time.Sleep(limit - time.Millisecond)
		synctest.Wait()
		if tr.closed || r.State() != engine.Connected {
			t.Fatalf("dropped before maxIdleInterval + realtimeRequestTimeout: closed=%v state=%v", tr.closed, r.State())
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if !tr.closed {
			t.Fatal("silent transport not closed at maxIdleInterval + realtimeRequestTimeout (RTN23a)")
		}
		var dropped *StateChange
		for _, c := range rec.all() {
			if c.To == engine.Disconnected {
				dropped = &c
				break
			}
		}
		if dropped == nil || dropped.Failure.Kind != reconnect.FailureTimeout || dropped.Reason != engine.ReasonDropped ||
			dropped.At.Sub(connectedAt) != limit {
			t.Fatalf("drop %+v, want DISCONNECTED with a timeout %v after CONNECTED", dropped, limit)
		}
		again := d.transport(2)
		if again == nil || r.State() != engine.Connecting {
			t.Fatalf("no reconnect (RTN15): state %v, T2 %v", r.State(), again)
		}
		again.report.Viable()
		again.report.ConnectedWith(engine.Details{MaxIdleInterval: maxIdle}, reconnect.Failure{})
		synctest.Wait()
		if r.State() != engine.Connected || r.Active() != Transport(again) {
			t.Fatalf("state %v active %v after the reconnect", r.State(), r.Active())
		}
	})
}

func TestTransportReportingActivityIsKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := engine.AblyConfig()
		r, d, _, rec := newTestRunner(t, t.Context(), cfg)
		const maxIdle = 15 * time.Second
		limit := maxIdle + cfg.Timeouts.RealtimeRequest
		tr := connectIdle(t, r, d, maxIdle)
		// A message every maxIdleInterval, for ten idle limits.
		for end := time.Now().Add(10 * limit); time.Now().Before(end); {
			time.Sleep(maxIdle)
			tr.report.Activity()
		}
		synctest.Wait()
		if tr.closed || r.State() != engine.Connected || len(rec.all()) != 2 {
			t.Fatalf("active transport dropped: closed=%v state=%v changes %+v", tr.closed, r.State(), rec.all())
		}
		// Then silence: dropped the limit after the last message.
		last := time.Now()
		time.Sleep(limit)
		synctest.Wait()
		if !tr.closed {
			t.Fatalf("not dropped %v after the last activity", limit)
		}
		if c := rec.all()[2]; c.To != engine.Disconnected || c.At.Sub(last) != limit {
			t.Fatalf("change %+v, want DISCONNECTED %v after the last activity", c, limit)
		}
	})
}

func TestActivityOfAGivenUpTransportIsIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, _ := newTestRunner(t, t.Context(), engine.AblyConfig())
		tr := connectIdle(t, r, d, time.Second)
		tr.report.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
		synctest.Wait()
		tr.report.Activity() // its slot may hold another transport by now
		if p := tr.report.p; p.id != tr.report.id && p.activity.Load() != 0 {
			t.Fatal("a stale Reporter stored activity into a reused slot")
		}
	})
}
