package runner

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

func TestConnectedWithCarriesTheErrorAndDetailsGiveAnUpdate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		r.Connect()
		synctest.Wait()
		tr := d.transport(1)
		resumeFailed := reconnect.Failure{Kind: reconnect.FailureOther, Status: 400}
		tr.report.Viable()
		tr.report.Details(engine.Details{}, reconnect.Failure{}) // before CONNECTED: ignored
		tr.report.ConnectedWith(engine.Details{ConnectionStateTTL: time.Minute}, resumeFailed)
		synctest.Wait()
		cs := rec.all()
		if len(cs) != 2 {
			t.Fatalf("changes %+v, want CONNECTING and CONNECTED", cs)
		}
		if c := cs[1]; c.To != engine.Connected || c.Update || c.Failure != resumeFailed {
			t.Fatalf("CONNECTED %+v, want it to carry %v (RTN15c7)", c, resumeFailed)
		}
		reauth := reconnect.Failure{Kind: reconnect.FailureOther, Status: 401}
		tr.report.Details(engine.Details{MaxIdleInterval: time.Second}, reauth)
		tr.report.Details(engine.Details{}, reconnect.Failure{}) // counts every time
		synctest.Wait()
		cs = rec.all()
		if len(cs) != 4 {
			t.Fatalf("changes %+v, want two updates after CONNECTED", cs)
		}
		want := StateChange{At: cs[2].At, From: engine.Connected, To: engine.Connected, Reason: engine.ReasonDetails,
			Failure: reauth, TransportID: 1, TransportKind: reconnect.WebSocket, Host: tr.req.Host, Transport: tr, Update: true}
		if cs[2] != want {
			t.Fatalf("update %+v, want %+v", cs[2], want)
		}
		if c := cs[3]; !c.Update || c.Failure != (reconnect.Failure{}) || c.Reason != engine.ReasonDetails {
			t.Fatalf("second update %+v", c)
		}
		if s := r.State(); s != engine.Connected {
			t.Fatalf("state %v, want connected", s)
		}
		tr.report.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
		synctest.Wait()
		n := len(rec.all())
		tr.report.Details(engine.Details{}, reconnect.Failure{}) // after the end: ignored
		synctest.Wait()
		if len(rec.all()) != n {
			t.Fatalf("details after Closed made a change: %+v", rec.all()[n:])
		}
	})
}

// earlyDialer's transports report CONNECTED, and a later CONNECTED, from
// within Open: the reports are held back until Open returns.
type earlyDialer struct{ first, later reconnect.Failure }

func (d earlyDialer) Open(_ context.Context, _ OpenRequest, report Reporter) Transport {
	report.Viable()
	report.ConnectedWith(engine.Details{}, d.first)
	report.Details(engine.Details{MaxIdleInterval: time.Second}, d.later)
	return noTransport{}
}

func TestDetailsWhileOpenRunsReplaceTheHeldConnected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		later := reconnect.Failure{Kind: reconnect.FailureOther, Status: 400}
		r, err := New(t.Context(), Options{Config: engine.AblyConfig(), Dialer: earlyDialer{later: later},
			CheckConnectivity: NoConnectivityCheck, OnStateChange: rec.add})
		if err != nil {
			t.Fatal(err)
		}
		r.Connect()
		synctest.Wait()
		cs := rec.all()
		if len(cs) != 2 || cs[1].To != engine.Connected || cs[1].Failure != later {
			t.Fatalf("changes %+v, want CONNECTED carrying the later message's %v", cs, later)
		}
	})
}
