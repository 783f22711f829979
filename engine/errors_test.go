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

func TestActionStringRendersEveryKind(t *testing.T) {
	due := time.Date(2026, 1, 1, 0, 0, 2, 500_000_000, time.UTC)
	for _, c := range []struct {
		a    Action
		want string
	}{
		{Action{Kind: ActionOpenTransport, Transport: 3, TransportKind: reconnect.HTTP, Host: "h.example.com", Mode: reconnect.ModeResume}, "open T3 http h.example.com resume"},
		{Action{Kind: ActionDisposeTransport, Transport: 4}, "dispose T4"},
		{Action{Kind: ActionActivateTransport, Transport: 5}, "activate T5"},
		{Action{Kind: ActionStartTimer, Timer: 6, TimerKind: TimerConnect, Transport: 2, Due: due}, "timer K6 connect T2 due 2026-01-01T00:00:02.5Z"},
		{Action{Kind: ActionStartTimer, Timer: 7, TimerKind: TimerRetry, Due: due}, "timer K7 retry due 2026-01-01T00:00:02.5Z"},
		{Action{Kind: ActionCancelTimer, Timer: 8, TimerKind: TimerShortCircuit}, "cancel K8 short-circuit"},
		{Action{Kind: ActionCancelTimer, Timer: 9, TimerKind: TimerConnect, Transport: 1}, "cancel K9 connect T1"},
		{Action{Kind: ActionCheckConnectivity, Check: 3}, "check C3"},
		{Action{Kind: ActionCheckWebSocket, Check: 4}, "check-websocket C4"},
		{Action{Kind: ActionStateChange, From: Connecting, To: Disconnected, Reason: ReasonConnectFailed, RetryIn: 13200 * time.Millisecond,
			Failure: reconnect.Failure{Kind: reconnect.FailureDNS}}, "state connecting→disconnected retryIn=13.2s reason=connect-failed error=dns"},
		{Action{Kind: ActionStateChange, From: Connecting, To: Connected, Reason: ReasonConnected}, "state connecting→connected retryIn=0s reason=connected"},
		{Action{Kind: 99}, "ActionKind(99)"},
		{Action{}, "ActionKind(0)"},
	} {
		if got := c.a.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.a, got, c.want)
		}
	}
	for _, c := range []struct{ got, want string }{
		{State(99).String(), "State(99)"}, {Reason(99).String(), "Reason(99)"}, {EventKind(99).String(), "EventKind(99)"},
		{TimerKind(99).String(), "TimerKind(99)"}, {Policy(99).String(), "Policy(99)"}, {Initialized.String(), "initialized"},
		{ReasonNone.String(), "none"}, {EventNone.String(), "none"}, {TimerKind(0).String(), "none"}, {TimerFlapHold.String(), "flap-hold"},
		{Failed.String(), "failed"}, {ReasonFatal.String(), "fatal"}, {EventWebSocketCheck.String(), "websocket-check"},
		{ActionCheckWebSocket.String(), "check-websocket"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
