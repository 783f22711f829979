package engine

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

func TestFailureStringIsTheFixtureGrammar(t *testing.T) {
	for _, c := range []struct {
		f    reconnect.Failure
		want string
	}{
		{reconnect.Failure{}, "none"},
		{reconnect.Failure{Kind: reconnect.FailureNone, Status: 500, Server: "x"}, "none"},
		{reconnect.Failure{Kind: reconnect.FailureOther}, "other"},
		{reconnect.Failure{Kind: reconnect.FailureDNS, Status: 503}, "dns"},
		{reconnect.Failure{Kind: reconnect.FailureToken, Status: 401}, "token"},
		{reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 503}, "http-status:503"},
		{reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 403, Server: "CloudFront"}, "http-status:403:CloudFront"},
		{reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 504, Server: "ignored"}, "disconnected:504"},
		{reconnect.Failure{Kind: 200}, "FailureKind(200)"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.f, got, c.want)
		}
	}
}

// TestLastErrorFollowsTheStateChanges walks one connection through the
// cases of LastError's doc: set by a failing change, kept by CONNECTING,
// cleared by CONNECTED, set by a drop, kept by CLOSED, cleared by a fresh
// connect.
func TestLastErrorFollowsTheStateChanges(t *testing.T) {
	cfg := AblyConfig()
	cfg.Endpoint.Endpoint = "rt.example.com"
	cfg.Source = constSource(0)
	e, _ := New(cfg)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	dns, other, drop := reconnect.Failure{Kind: reconnect.FailureDNS}, reconnect.Failure{Kind: reconnect.FailureOther}, reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503}
	var out []Action
	step := func(ev Event, want reconnect.Failure) {
		t.Helper()
		out = e.Step(now, ev, out[:0])
		if got := e.LastError(); got != want {
			t.Fatalf("after %v: LastError %v, want %v (actions %v)", ev.Kind, got, want, out)
		}
	}
	retry := func() TimerID {
		for _, a := range out {
			if a.Kind == ActionStartTimer && a.TimerKind == TimerRetry {
				return a.Timer
			}
		}
		t.Fatalf("no retry timer in %v", out)
		return 0
	}
	step(Event{Kind: EventConnect}, reconnect.Failure{})
	step(Event{Kind: EventTransportFailed, Transport: 1, Failure: dns}, reconnect.Failure{}) // HTTP starts: still CONNECTING
	step(Event{Kind: EventTransportFailed, Transport: 2, Failure: other}, other)
	step(Event{Kind: EventTimerFired, Timer: retry()}, other) // CONNECTING keeps it
	step(Event{Kind: EventTransportConnected, Transport: 3}, reconnect.Failure{})
	now = now.Add(time.Minute)
	step(Event{Kind: EventTransportClosed, Transport: 3, Failure: drop}, drop)
	step(Event{Kind: EventClose}, drop)
	step(Event{Kind: EventConnect}, reconnect.Failure{})
	step(Event{Kind: EventFatal, Failure: reconnect.Failure{Kind: reconnect.FailureToken, Status: 401}}, reconnect.Failure{Kind: reconnect.FailureToken, Status: 401})
}

func TestEngineHostsIsACopy(t *testing.T) {
	cfg := AblyConfig()
	cfg.Endpoint.FallbackHosts = []string{"fb1.example.com"}
	cfg.Source = constSource(0)
	e, _ := New(cfg)
	h := e.Hosts()
	h.Fallbacks[0] = "evil.example.com"
	cfg.Endpoint.FallbackHosts[0] = "evil2.example.com"
	if got := e.Hosts().Fallbacks[0]; got != "fb1.example.com" {
		t.Fatalf("Hosts().Fallbacks[0] = %q after writing to a returned copy", got)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []Action
	for _, ev := range []Event{{Kind: EventConnect}, {Kind: EventTransportFailed, Transport: 1, Failure: reconnect.Failure{Kind: reconnect.FailureDNS}},
		{Kind: EventTransportFailed, Transport: 2, Failure: reconnect.Failure{Kind: reconnect.FailureDNS}}, {Kind: EventConnectivity, Check: 1, Up: true}} {
		out = e.Step(now, ev, out[:0])
	}
	for _, a := range out {
		if a.Kind == ActionOpenTransport && a.Host != "fb1.example.com" {
			t.Fatalf("the engine opened %q, want the configured fallback", a.Host)
		}
	}
	if len(out) == 0 || out[len(out)-1].Kind != ActionStartTimer {
		t.Fatalf("no fallback host opened: %v", out)
	}
}
