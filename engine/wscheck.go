package engine

import "github.com/reconnect-go/reconnect"

// PolicyWebSocketCheck as ably-js 2.28.0 runs it: the websocket walk with
// its slow and give-up timers, the websocket check and the slow
// connectivity check, the switch to HTTP, and what a viable transport ends.
// The attempt limit is startAttempt's; what the policy changes elsewhere is
// in policy.go.

// startWSCheckAttempt starts a PolicyWebSocketCheck attempt with
// websockets available, after the attempt limit: on the remembered
// transport or with the websocket walk.
func (e *Engine) startWSCheckAttempt(out []Action) []Action {
	if e.forceFallback && e.hostCount() > 1 {
		// RTN17f1: the websocket walk starts with the connectivity check
		// and goes on to a fallback host (onConnectivity).
		e.forceFallback = false
		out = e.startWatch(out)
		e.att.flowStarted, e.att.flowHost = true, 0
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
	e.att.flow, e.att.wsCheck, e.att.prefCheck = reconnect.WebSocket, wsCheckNone, false
	out = e.startTimer(out, TimerWebSocketSlow, e.cfg.SlowTimeout, 0)
	return e.startTimer(out, TimerWebSocketGiveUp, e.cfg.GiveUpTimeout, 0)
}

// connectWS starts the websocket walk on the attempt's first host.
func (e *Engine) connectWS(out []Action) []Action {
	out = e.startWatch(out)
	return e.startFlow(out)
}

// askWebSocketCheck asks for a websocket check.
func (e *Engine) askWebSocketCheck(out []Action) []Action {
	e.lastCheck++
	e.att.wsCheck, e.att.wsCheckID = wsCheckPending, e.lastCheck
	out, a := pushAction(out)
	a.Kind, a.Check = ActionCheckWebSocket, e.att.wsCheckID
	return out
}

// onWebSocketCheck handles the answer to the websocket check: the
// preference's background check (onPreferenceCheck), or the walk's, whose
// answer the walk waits for once nothing else is in flight
// (maybeEndAttempt).
func (e *Engine) onWebSocketCheck(out []Action, up bool) []Action {
	if e.att.prefCheck {
		return e.onPreferenceCheck(out, up)
	}
	if up {
		e.att.wsCheck = wsCheckPassed
	} else {
		e.att.wsCheck = wsCheckFailed
	}
	if e.state != Connecting || e.att.flow != reconnect.WebSocket {
		return out
	}
	return e.maybeEndAttempt(out)
}

// onSlowTimer runs the checks of PolicyWebSocketCheck's slow point: the
// websocket check (once per walk) and a connectivity check of its own,
// whatever else is in flight.
func (e *Engine) onSlowTimer(out []Action) []Action {
	if e.state != Connecting || e.att.flow != reconnect.WebSocket {
		return out
	}
	if e.att.wsCheck == wsCheckNone {
		out = e.askWebSocketCheck(out)
	}
	e.lastCheck++
	e.att.slowCheck = e.lastCheck
	out, a := pushAction(out)
	a.Kind, a.Check = ActionCheckConnectivity, e.att.slowCheck
	return e.startTimer(out, TimerSlowCheck, e.cfg.Timeouts.HTTPRequest, 0)
}

// onSlowCheck handles the answer of the slow connectivity check: down ends
// the attempt (also after the switch to HTTP), up changes nothing.
func (e *Engine) onSlowCheck(out []Action, up bool) []Action {
	out = e.cancelTimers(out, TimerSlowCheck)
	if up || e.state != Connecting {
		return out
	}
	return e.enterDisconnected(out, ReasonConnectivityDown, e.att.err)
}

// onGiveUpTimer is the give-up point of the websocket walk: a passed
// websocket check lets the walk run on until nothing is in flight, anything
// else gives up to HTTP. Without HTTP there is nothing to give up to: the
// attempt limit decides.
func (e *Engine) onGiveUpTimer(out []Action) []Action {
	if e.state != Connecting || e.att.flow != reconnect.WebSocket {
		return out
	}
	if e.att.wsCheck == wsCheckPassed {
		return e.maybeEndAttempt(out)
	}
	if e.cfg.Transports.HTTP {
		return e.switchToHTTP(out)
	}
	return out
}

// switchToHTTP abandons the websocket flow for the HTTP one.
func (e *Engine) switchToHTTP(out []Action) []Action {
	out = e.disposeAll(out)
	// The slow connectivity check goes on: its "down" still ends the attempt.
	out = e.cancelTimers(out, TimerWebSocketSlow, TimerWebSocketGiveUp, TimerConnectivityCheck)
	e.att.check = checkNone
	e.att.flow = reconnect.HTTP
	return e.startFlow(out)
}

// onOpened is what a transport turning viable ends under
// PolicyWebSocketCheck: its own connect timeout and the slow and give-up
// timers.
func (e *Engine) onOpened(out []Action, s *transportSlot) []Action {
	out = e.cancelConnectTimer(out, s)
	return e.cancelTimers(out, TimerWebSocketSlow, TimerWebSocketGiveUp)
}

// onPendingLost ends the attempt when a transport that was viable closes
// before CONNECTED (PolicyWebSocketCheck): a DISCONNECTED that sends the
// client to a fallback host (RTN17f1) reconnects at once on a fallback
// host, anything else is DISCONNECTED.
func (e *Engine) onPendingLost(out []Action, f reconnect.Failure) []Action {
	if e.sendsToFallback(f) {
		out = e.abandonAttempt(out)
		return e.reconnect(out, f)
	}
	return e.enterDisconnected(out, ReasonConnectFailed, e.att.err)
}
