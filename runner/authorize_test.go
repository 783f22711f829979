package runner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// RTC8b: authorize while CONNECTING closes the attempt's transport, asks
// RenewToken, and opens a new transport at once with no state change.
func TestAuthorizeWhileConnectingHaltsTheAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rn := &renewer{}
		r, d, rec := newRenewRunner(t, rn)
		r.Connect()
		synctest.Wait()
		first := d.transport(1)
		first.report.Viable()
		r.Authorize()
		synctest.Wait()
		if !first.closed {
			t.Fatal("the attempt's transport was not closed (RTC8b: halted)")
		}
		if ids := rn.calls(); len(ids) != 1 || ids[0] == 0 {
			t.Fatalf("RenewToken calls %v, want one carrying its check ID", ids)
		}
		again := d.transport(2)
		if again == nil {
			t.Fatal("no new transport once the token was obtained")
		}
		again.report.Viable()
		again.report.Connected()
		synctest.Wait()
		cs := rec.all()
		if len(cs) != 2 || cs[0].To != engine.Connecting || cs[1].To != engine.Connected {
			t.Fatalf("changes %+v, want CONNECTING then CONNECTED", cs)
		}
	})
}

// RTC8c (RTC8 for INITIALIZED): authorize connects, obtaining the token
// before any transport opens; while CONNECTED it does nothing (RTC8a).
func TestAuthorizeConnectsWithTheTokenFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rn := &renewer{block: true}
		r, d, rec := newRenewRunner(t, rn)
		r.Authorize()
		synctest.Wait()
		if len(rn.calls()) != 1 || d.transport(1) != nil {
			t.Fatalf("RenewToken calls %v, transport %v: want the renewal before any transport", rn.calls(), d.transport(1))
		}
		// The blocked renewal times out (RSA4c): DISCONNECTED with a retry.
		time.Sleep(engine.AblyConfig().Timeouts.RealtimeRequest)
		synctest.Wait()
		rn.mu.Lock()
		rn.block = false
		rn.mu.Unlock()
		cs := rec.all()
		if len(cs) != 2 || cs[0].To != engine.Connecting || cs[1].To != engine.Disconnected {
			t.Fatalf("changes %+v, want CONNECTING then DISCONNECTED after the renewal timed out", cs)
		}
		tr := connectNow(t, r, d)
		n := len(rec.all())
		r.Authorize()
		synctest.Wait()
		if len(rec.all()) != n || len(rn.calls()) != 1 || tr.closed {
			t.Fatalf("authorize while CONNECTED changed something: changes %+v, renewals %v", rec.all()[n:], rn.calls())
		}
	})
}
