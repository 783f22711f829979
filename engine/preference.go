package engine

import "github.com/reconnect-go/reconnect"

// The transport preference (Config.Preference, Engine.Preference) in the
// engine: starting an attempt on the remembered transport, its background
// websocket check, and forgetting a remembered transport that failed.
// Whether the engine keeps it at all is usesPreference (policy.go).

// startOnPreference starts the attempt on the remembered transport, with
// the websocket check in the background when st asks for it.
func (e *Engine) startOnPreference(out []Action, st reconnect.PreferenceStart) []Action {
	e.att.prefStart, e.att.flow = st.Transport, st.Transport
	if st.CheckWebSocket {
		e.att.prefCheck = true
		out = e.askWebSocketCheck(out)
	}
	return e.startFlow(out)
}

// onPreferenceCheck handles the background websocket check of a remembered
// HTTP: passed forgets the preference and, while the attempt still
// connects on HTTP, moves to the websocket. PolicyWebSocketCheck abandons
// HTTP for the websocket walk, as ably-js does (in the same attempt: the
// attempt limit keeps running); the other policies keep HTTP going and
// open the websocket beside it, so the setTransportPending rules let
// whichever is first win (on a slow network, abandoning HTTP in flight
// cost websocket-first 1.2 s a reconnect in the simulator).
func (e *Engine) onPreferenceCheck(out []Action, up bool) []Action {
	e.att.prefCheck = false
	e.att.wsCheck = wsCheckNone
	if !up {
		return out
	}
	e.pref = e.pref.Apply(reconnect.PreferenceEventWebSocketCheckPassed, reconnect.NoTransport, e.now)
	if e.state != Connecting || e.att.flow != reconnect.HTTP {
		return out
	}
	e.att.prefStart = reconnect.NoTransport
	if !e.watchesWebSocket() {
		if e.find(slotPending) != nil || e.find(slotActive) != nil {
			return out // HTTP is viable already: the upgrade follows
		}
		return e.open(out, reconnect.WebSocket, e.hostAt(e.att.flowHost), e.connectMode(), roleShortCircuit)
	}
	out = e.disposeAll(out)
	out = e.cancelTimers(out, TimerConnectivityCheck, TimerShortCircuit)
	e.att.check = checkNone
	e.att.order, e.att.firstHost = e.att.order[:0], 0
	return e.connectWS(out)
}

// forgetFailedPreference forgets the remembered transport when the attempt
// that started on it failed to connect (reason connect-failed), as the
// attempt ends (enterDisconnected). An attempt
// that ended because the internet or the network was down, or
// connectionStateTtl passed, says nothing about the transport: the
// preference stays.
func (e *Engine) forgetFailedPreference(reason Reason) {
	if reason == ReasonConnectFailed && e.att.prefStart != reconnect.NoTransport {
		e.pref = e.pref.Apply(reconnect.PreferenceEventAttemptFailed, e.att.prefStart, e.now)
	}
}
