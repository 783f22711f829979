package engine

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

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
		{Action{Kind: ActionRenewToken, Check: 5}, "renew-token C5"},
		{Action{Kind: ActionUpdate, From: Connected, To: Connected, Reason: ReasonDetails}, "update details"},
		{Action{Kind: ActionUpdate, From: Connected, To: Connected, Reason: ReasonTransport, Failure: reconnect.Failure{Kind: reconnect.FailureToken}}, "update transport error=token"},
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
		{EventConnectionDetails.String(), "details"}, {EventActivity.String(), "activity"}, {EventTokenRenewal.String(), "token"},
		{TimerIdle.String(), "idle"}, {TimerRenewToken.String(), "renew-token"}, {ActionUpdate.String(), "update"}, {ActionRenewToken.String(), "renew-token"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
