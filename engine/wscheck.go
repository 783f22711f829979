package engine

import "github.com/reconnect-go/reconnect"

// PolicyWebSocketCheck as ably-js 2.28.0 runs it (the attempt limit, the
// slow and give-up timers, the websocket walk, the slow connectivity
// check), and the transport preference every policy can use.

// wsCheckPolicy reports whether attempts run PolicyWebSocketCheck's
// websocket watch: the policy, with websockets available (with or without
// HTTP).
func (e *Engine) wsCheckPolicy() bool {
	return e.cfg.Policy == PolicyWebSocketCheck && e.cfg.Transports.WebSocket
}

// usesPreference reports whether the engine remembers and uses the
// transport preference.
func (e *Engine) usesPreference() bool {
	return e.cfg.Policy == PolicyWebSocketCheck || e.cfg.RememberTransport
}

// startWSCheckAttempt starts a PolicyWebSocketCheck attempt with
// websockets available, after the attempt limit: on the remembered
// transport or with the websocket walk.
func (e *Engine) startWSCheckAttempt(out []Action) []Action {
	if e.forceFallback && e.hostCount() > 1 {
		// RTN17f1: the websocket walk starts with the connectivity check
		// and goes on to a fallback host (onConnectivity).
		e.forceFallback = false
		out = e.startWatch(out)
		e.flowStarted, e.flowHost = true, 0
		return e.askConnectivity(out, checkFallback)
	}
	e.forceFallback = false
	if st := e.pref.Start(e.now, e.cfg.PreferenceTTL, e.cfg.Transports); st.Transport == reconnect.HTTP {
		return e.startOnPreference(out, st)
	}
	return e.connectWS(out)
}

// startWatch makes the websocket the flow and starts the slow and give-up
// timers (before the websocket opens, as ably-js does, so that at the
// give-up point the give-up timer fires before the websocket's timeout).
func (e *Engine) startWatch(out []Action) []Action {
	e.flow, e.wsCheck, e.prefCheck = reconnect.WebSocket, wsCheckNone, false
	out = e.startTimer(out, TimerWebSocketSlow, e.cfg.SlowTimeout, 0)
	return e.startTimer(out, TimerWebSocketGiveUp, e.cfg.GiveUpTimeout, 0)
}

// connectWS starts the websocket walk on the attempt's first host.
func (e *Engine) connectWS(out []Action) []Action {
	out = e.startWatch(out)
	return e.startFlow(out)
}

// startOnPreference starts the attempt on the remembered transport, with
// the websocket check in the background when st asks for it.
func (e *Engine) startOnPreference(out []Action, st reconnect.PreferenceStart) []Action {
	e.prefStart, e.flow = st.Transport, st.Transport
	if st.CheckWebSocket {
		e.prefCheck = true
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
	e.prefCheck = false
	e.wsCheck = wsCheckNone
	if !up {
		return out
	}
	e.pref = e.pref.Apply(reconnect.PreferenceEventWebSocketCheckPassed, reconnect.NoTransport, e.now)
	if e.state != Connecting || e.flow != reconnect.HTTP {
		return out
	}
	e.prefStart = reconnect.NoTransport
	if !e.wsCheckPolicy() {
		if e.find(slotPending) != nil || e.find(slotActive) != nil {
			return out // HTTP is viable already: the upgrade follows
		}
		return e.open(out, reconnect.WebSocket, e.hostAt(e.flowHost), e.connectMode(), roleShortCircuit)
	}
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	out = e.cancelTimers(out, TimerConnectivityCheck, TimerShortCircuit)
	e.check = checkNone
	e.order, e.firstHost = e.order[:0], 0
	return e.connectWS(out)
}

// forgetFailedPreference forgets the remembered transport when the attempt
// that started on it failed to connect (reason connect-failed). An attempt
// that ended because the internet or the network was down, or
// connectionStateTtl passed, says nothing about the transport: the
// preference stays.
func (e *Engine) forgetFailedPreference(reason Reason) {
	if reason != ReasonConnectFailed {
		e.prefStart = reconnect.NoTransport
		return
	}
	if e.prefStart != reconnect.NoTransport {
		e.pref = e.pref.Apply(reconnect.PreferenceEventAttemptFailed, e.prefStart, e.now)
		e.prefStart = reconnect.NoTransport
	}
}

// onSlowTimer runs the checks of PolicyWebSocketCheck's slow point: the
// websocket check (once per walk) and a connectivity check of its own,
// whatever else is in flight.
func (e *Engine) onSlowTimer(out []Action) []Action {
	if e.state != Connecting || e.flow != reconnect.WebSocket {
		return out
	}
	if e.wsCheck == wsCheckNone {
		out = e.askWebSocketCheck(out)
	}
	e.lastCheck++
	e.slowCheck = e.lastCheck
	out = append(out, Action{Kind: ActionCheckConnectivity, Check: e.slowCheck})
	return e.startTimer(out, TimerSlowCheck, e.cfg.Timeouts.HTTPRequest, 0)
}

// onSlowCheck handles the answer of the slow connectivity check: down ends
// the attempt (also after the switch to HTTP), up changes nothing.
func (e *Engine) onSlowCheck(out []Action, up bool) []Action {
	out = e.cancelTimers(out, TimerSlowCheck)
	if up || e.state != Connecting {
		return out
	}
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	return e.enterDisconnected(out, ReasonConnectivityDown, e.attemptErr)
}

// onOpened is what a transport turning viable ends under
// PolicyWebSocketCheck: its own connect timeout and the slow and give-up
// timers.
func (e *Engine) onOpened(out []Action, s *transportSlot) []Action {
	out = e.cancelConnectTimer(out, s)
	return e.cancelTimers(out, TimerWebSocketSlow, TimerWebSocketGiveUp)
}

// onPendingLost ends the attempt when a transport that was viable closes
// before CONNECTED (PolicyWebSocketCheck): a DISCONNECTED that qualifies
// for a fallback host (RTN17f1) reconnects at once on a fallback host,
// anything else is DISCONNECTED.
func (e *Engine) onPendingLost(out []Action, f reconnect.Failure) []Action {
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	if f.Kind == reconnect.FailureDisconnected && reconnect.ShouldFallback(f) && e.hostCount() > 1 {
		out = e.cancelTimers(out, attemptTimers...)
		e.check, e.wsCheck = checkNone, wsCheckNone
		return e.reconnect(out, f)
	}
	return e.enterDisconnected(out, ReasonConnectFailed, e.attemptErr)
}
