package main

import (
	"strings"
	"testing"
)

// explain annotates each new input, timer and action of what the server
// says: connection details, UPDATE, activity and the idle timer, token
// errors, the renewal and its timer, and canRenewToken.
func TestExplainNotesTheServersInputs(t *testing.T) {
	for id, wants := range map[string][]string{
		"server-connected-while-connected-is-an-update": {
			"· ignored: T1 is not the active transport, or the connection is not CONNECTED",
			"· maxIdleInterval 15000 ms: the idle limit is 15000 + 10000 = 25000 ms of silence",
			"· the server's connectionStateTtl 120000 ms replaces the configured one",
			"· UPDATE (RTN4h, RTN24): a later CONNECTED message on the active transport",
			"· no maxIdleInterval (or 0): no idle timer, the one running cancelled",
		},
		"server-upgrade-is-an-update":                      {"· UPDATE (RTN4h): T3 now carries the connection"},
		"server-connected-carries-the-failed-resume-error": {"· the CONNECTED message carries the error other"},
		"idle-activity-reported-when-the-timer-fires": {
			"· activity of the active transport at 9000 ms: recorded, never an action",
			"· activity since the idle timer started (the last at 9000 ms): it starts again, due 3000 + 10000 ms after it",
			"· at=99999 is later than the step: it counts as the step's time",
			"· ignored: T9 is not the active transport",
			"· activity at 1000 ms, earlier than the 22000 ms recorded: it changes nothing",
			"· no activity for maxIdleInterval + realtimeRequestTimeout (13000 ms): the transport is lost as a drop with a timeout",
		},
		"idle-timer-in-closing-does-nothing": {"· in CLOSING the idle timer does nothing"},
		"token-error-while-connected-renewed-resumes": {
			"(policy websocket-first, canRenewToken: a token error renews the token once)",
			"· renew-token: the SDK obtains a new token (canRenewToken) and feeds `token C1 renewed` or `token C1 failed <failure>`",
			"· the token is renewed: a new attempt at once, without a state change",
		},
		"token-renewal-times-out": {
			"· no answer to the token renewal within realtimeRequestTimeout: it failed with a timeout (RSA4c)",
			"· ignored: no token renewal C1 in flight",
			"· ignored: no token renewal C0 in flight",
		},
		"token-renewal-refused-with-403-fails":       {"· the renewal was refused with 403: FAILED (RSA4d)"},
		"token-error-while-connecting-renewal-fails": {"· the renewal failed: the attempt ends"},
		"token-error-again-after-the-renewal":        {"· a token error again in the attempt that followed a renewal: no second renewal (RTN14b)"},
		"token-error-while-connecting-cannot-renew":  {"· a token error, and canRenewToken is off: the token cannot be renewed, FAILED (RSA4a2, RTN15h1)"},
		"uts-rtc8b-authorize-while-connecting-halts-the-attempt": {
			"· authorize() while CONNECTING: every connection attempt halted, and the token asked for; renewed, a new attempt at once with it (RTC8b)",
			"· renew-token: the SDK obtains authorize()'s token (whatever canRenewToken says) and feeds `token C1 renewed` or `token C1 failed <failure>`",
		},
		"authorize-while-connected-or-closing-does-nothing": {
			"· authorize() while CONNECTED: the SDK obtains the token and sends AUTH itself; nothing for the engine (RTC8a)",
			"· authorize() while CLOSING: nothing; the close asked for stands",
			"· authorize() while CLOSED: the connection connects, the token asked for before any transport (RTC8c)",
		},
	} {
		explainHas(t, id, wants)
	}
}

// A timeline without the server's inputs gets no note, and a scenario
// without canRenewToken says nothing of it.
func TestExplainNotesOnlyWhatTheStepSays(t *testing.T) {
	out, errOut, status := runCLI("explain", "outcome-1-websocket-within-short-circuit")
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	if strings.Contains(out, "·") || strings.Contains(out, "canRenewToken") {
		t.Errorf("notes for a timeline without the server's inputs:\n%s", out)
	}
}

func TestNoterFollowsTheActiveTransport(t *testing.T) {
	n := &noter{}
	n.notes(100, "connected T2 maxIdleInterval=5000", []string{"activate T2", "state connecting connected connected", "timer idle at=15100"}, "connecting", "connected")
	if got := n.notes(200, "activity T2", nil, "connected", "connected"); len(got) != 1 || !strings.Contains(got[0], "at 200 ms: recorded") {
		t.Errorf("activity of the active transport: %q", got)
	}
	n.notes(300, "network-down", []string{"dispose T2", "cancel idle"}, "connected", "connecting")
	if got := n.notes(400, "activity T2", nil, "connecting", "connecting"); len(got) != 1 || !strings.Contains(got[0], "ignored: T2") {
		t.Errorf("activity of a disposed transport: %q", got)
	}
	if got := n.notes(500, "details T2 maxIdleInterval=1", nil, "connecting", "connecting"); len(got) != 1 || !strings.Contains(got[0], "ignored") {
		t.Errorf("details outside CONNECTED: %q", got)
	}
	for _, ev := range []string{"", "activity", "timer", "token", "details", "failed T1", "connected T1 x=y=z"} {
		n.notes(600, ev, nil, "connecting", "connecting") // never panics
	}
}
