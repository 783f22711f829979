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
	return connectWith(t, r, d, 1, engine.Details{MaxIdleInterval: maxIdle})
}

// idleMaxIdle is the maxIdleInterval newIdleRunner's CONNECTED message
// carries.
const idleMaxIdle = 15 * time.Second

// newIdleRunner makes a runner with engine.AblyConfig and connects it on
// its first transport with idleMaxIdle in the CONNECTED message's details;
// limit is how long that transport may stay silent (RTN23a:
// maxIdleInterval plus realtimeRequestTimeout).
func newIdleRunner(t *testing.T) (r *Runner, d *memDialer, rec *recorder, tr *memTransport, limit time.Duration) {
	t.Helper()
	cfg := engine.AblyConfig()
	r, d, _, rec = newTestRunner(t, t.Context(), cfg)
	return r, d, rec, connectIdle(t, r, d, idleMaxIdle), idleMaxIdle + cfg.Timeouts.RealtimeRequest
}

func TestSilentTransportIsDroppedAndTheRunnerReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, rec, tr, limit := newIdleRunner(t)
		connectedAt := time.Now()
		time.Sleep(limit - time.Millisecond)
		synctest.Wait()
		if tr.isClosed() || r.State() != engine.Connected {
			t.Fatalf("dropped before maxIdleInterval + realtimeRequestTimeout: closed=%v state=%v", tr.isClosed(), r.State())
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if !tr.isClosed() {
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
		again.report.ConnectedWith(engine.Details{MaxIdleInterval: idleMaxIdle}, reconnect.Failure{})
		synctest.Wait()
		if r.State() != engine.Connected || r.Active() != Transport(again) {
			t.Fatalf("state %v active %v after the reconnect", r.State(), r.Active())
		}
	})
}

func TestTransportReportingActivityIsKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, _, rec, tr, limit := newIdleRunner(t)
		// A message every maxIdleInterval, for ten idle limits.
		for end := time.Now().Add(10 * limit); time.Now().Before(end); {
			time.Sleep(idleMaxIdle)
			tr.report.Activity()
		}
		synctest.Wait()
		if tr.isClosed() || r.State() != engine.Connected || len(rec.all()) != 2 {
			t.Fatalf("active transport dropped: closed=%v state=%v changes %+v", tr.isClosed(), r.State(), rec.all())
		}
		// Then silence: dropped between the limit and the limit plus the
		// sampling period after the last message (never before it).
		last := time.Now()
		time.Sleep(limit - time.Millisecond)
		synctest.Wait()
		if tr.isClosed() || len(rec.all()) != 2 {
			t.Fatalf("dropped before %v after the last activity: changes %+v", limit, rec.all())
		}
		time.Sleep(time.Millisecond + IdleSamplePeriod(limit))
		synctest.Wait()
		if !tr.isClosed() {
			t.Fatalf("not dropped %v after the last activity", limit+IdleSamplePeriod(limit))
		}
		if c := rec.all()[2]; c.To != engine.Disconnected || c.At.Sub(last) < limit || c.At.Sub(last) > limit+IdleSamplePeriod(limit) {
			t.Fatalf("change %+v, want DISCONNECTED %v to %v after the last activity", c, limit, limit+IdleSamplePeriod(limit))
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
		if p := tr.report.p; p.id != tr.report.id && p.heard.Load() != 0 {
			t.Fatal("a stale Reporter stored activity into a reused slot")
		}
	})
}

// TestActivitySamplingBounds: whenever the last activity L falls (on the
// sampling grid, between two samples, just before the idle timer is
// due), the transport is never dropped before L + D and always by
// L + D + δ (D the idle limit, δ its sampling period).
func TestActivitySamplingBounds(t *testing.T) {
	for _, maxIdle := range []time.Duration{15 * time.Second, 40 * time.Millisecond} {
		cfg := engine.AblyConfig()
		if maxIdle < time.Second {
			cfg.Timeouts.RealtimeRequest = 30 * time.Millisecond
		}
		limit := maxIdle + cfg.Timeouts.RealtimeRequest
		delta := IdleSamplePeriod(limit)
		for _, off := range []time.Duration{0, 1, delta / 2, delta - 1, delta, delta + 1, 3*delta + delta/3, limit - delta, limit - 1} {
			t.Run(limit.String()+"/"+off.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					r, d, _, rec := newTestRunner(t, t.Context(), cfg)
					tr := connectIdle(t, r, d, maxIdle)
					time.Sleep(off)
					tr.report.Activity()
					last := time.Now()
					time.Sleep(limit - 1)
					synctest.Wait()
					if tr.isClosed() || r.State() != engine.Connected {
						t.Fatalf("dropped before L + %v (L = %v after CONNECTED): state %v", limit, off, r.State())
					}
					time.Sleep(1 + delta)
					synctest.Wait()
					if !tr.isClosed() {
						t.Fatalf("not dropped by L + %v + %v (L = %v after CONNECTED)", limit, delta, off)
					}
					var at time.Time
					for _, c := range rec.all() {
						if c.To == engine.Disconnected {
							at = c.At
							break
						}
					}
					if q := at.Sub(last); q < limit || q > limit+delta {
						t.Fatalf("dropped %v after the last activity, want %v to %v", q, limit, limit+delta)
					}
				})
			})
		}
	}
}

// TestActivityFasterThanSamplingKeepsTheTransport: messages far more
// often than the sampling period keep the connection for many limits, and
// each idle-timer firing runs the engine once, not once per message.
func TestActivityFasterThanSamplingKeepsTheTransport(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, _, rec, tr, limit := newIdleRunner(t)
		for end := time.Now().Add(4 * limit); time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
			tr.report.Activity()
		}
		synctest.Wait()
		if tr.isClosed() || r.State() != engine.Connected || len(rec.all()) != 2 {
			t.Fatalf("dropped while messages came: closed=%v state=%v changes %+v", tr.isClosed(), r.State(), rec.all())
		}
	})
}

// TestSamplingStopsWithTheIdleTimer: once the transport is dropped (its
// idle timer gone) and on a connection without a maxIdleInterval, the
// runner takes no samples, so an idle connection sets no clock for them.
func TestSamplingStopsWithTheIdleTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := engine.AblyConfig()
		r, d, _, _ := newTestRunner(t, t.Context(), cfg)
		tr := connectIdle(t, r, d, time.Second)
		if r.core.live.at.IsZero() || r.core.live.every != IdleSamplePeriod(time.Second+cfg.Timeouts.RealtimeRequest) {
			t.Fatalf("sampling %+v while the idle timer runs", r.core.live)
		}
		tr.report.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
		synctest.Wait()
		again := d.transport(2)
		if again == nil {
			t.Fatal("no reconnect")
		}
		again.report.Viable()
		again.report.Connected() // no details: no idle timer
		synctest.Wait()
		time.Sleep(time.Second)
		synctest.Wait()
		if !r.core.live.at.IsZero() {
			t.Fatalf("still sampling without an idle timer: %+v", r.core.live)
		}
	})
}

func TestIdleSamplePeriod(t *testing.T) {
	for _, c := range []struct{ limit, want time.Duration }{
		{25 * time.Second, 3125 * time.Millisecond},
		{time.Second, 125 * time.Millisecond},
		{80 * time.Millisecond, 10 * time.Millisecond},
		{40 * time.Millisecond, 10 * time.Millisecond},
		{4 * time.Millisecond, 4 * time.Millisecond},
		{0, minSamplePeriod},
		{-time.Second, minSamplePeriod},
	} {
		if got := IdleSamplePeriod(c.limit); got != c.want {
			t.Errorf("IdleSamplePeriod(%v) = %v, want %v", c.limit, got, c.want)
		}
	}
}
