package reconnect

// Connection attempts: starting one, the first transport, ending one
// with nothing left in flight, and the DISCONNECTED and SUSPENDED retries.

import "math"

// startAttempt enters CONNECTING (if not there) and opens the attempt's
// first transport on the primary host.
func (e *Engine) startAttempt(out []Action, reason Reason) []Action {
	if e.state != Connecting {
		out = e.setState(out, Connecting, reason, 0, Failure{})
	}
	e.attemptErr, e.reconnectDue = Failure{}, false
	e.order = e.order[:0]
	e.flowStarted, e.flowHost, e.flowDisplaced, e.check, e.wsCheck = false, 0, false, checkNone, wsCheckNone
	e.flow = HTTP
	if !e.cfg.Transports.HTTP {
		e.flow = WebSocket
	}
	first := FirstStep{Transport: HTTP}
	switch {
	case e.preferHTTP():
		// The flapping guard: HTTP alone, no short-circuit websocket.
	case e.cfg.Policy == PolicyWebSocketFirst:
		first = ChooseTransport(e.cfg.Transports, e.cfg.ShortCircuit)
	case !e.cfg.Transports.HTTP:
		first = FirstStep{Transport: WebSocket}
	case e.cfg.Policy == PolicyWebSocketCheck && e.cfg.Transports.WebSocket:
		// The websocket walks the hosts itself, watched by two timers.
		e.flow = WebSocket
		out = e.startFlow(out)
		out = e.startTimer(out, TimerWebSocketSlow, e.cfg.SlowTimeout, 0)
		return e.startTimer(out, TimerWebSocketGiveUp, e.cfg.GiveUpTimeout, 0)
	}
	if first.Transport == e.flow {
		return e.startFlow(out)
	}
	out = e.open(out, WebSocket, e.hosts.Primary, e.connectMode(), roleShortCircuit)
	if first.ShortCircuit > 0 {
		out = e.startTimer(out, TimerShortCircuit, first.ShortCircuit, 0)
	}
	return out
}

// connectMode is the mode of a new attempt's transports: resume once the
// connection has been up (RTN15c, RTN14h), clean before.
func (e *Engine) connectMode() Mode {
	if e.everConnected {
		return ModeResume
	}
	return ModeClean
}

// startFlow opens the flow transport on the primary host.
func (e *Engine) startFlow(out []Action) []Action {
	out = e.cancelTimers(out, TimerShortCircuit)
	e.flowStarted, e.flowHost, e.flowDisplaced = true, 0, false
	return e.open(out, e.flow, e.hosts.Primary, e.connectMode(), roleFlow)
}

// reopenFlow opens the flow transport again on the host where it was
// displaced by a websocket that was then lost.
func (e *Engine) reopenFlow(out []Action) []Action {
	e.flowDisplaced = false
	host := e.hosts.Primary
	if e.flowHost > 0 {
		host = e.order[e.flowHost]
	}
	return e.open(out, e.flow, host, e.connectMode(), roleFlow)
}

// maybeEndAttempt ends a CONNECTING attempt that has nothing left in flight:
// no transport, no connectivity check, no short-circuit timer. Under
// PolicyWebSocketCheck a websocket that failed on every host first gets
// its websocket check.
func (e *Engine) maybeEndAttempt(out []Action) []Action {
	if e.state != Connecting || e.check != checkNone || e.hasTimer(TimerShortCircuit) {
		return out
	}
	for i := range e.transports {
		if e.transports[i].status != slotFree {
			return out
		}
	}
	if e.cfg.Policy == PolicyWebSocketCheck && e.flow == WebSocket && e.cfg.Transports.HTTP {
		switch e.wsCheck {
		case wsCheckNone:
			e.wsCheck = wsCheckPending
			return append(out, Action{Kind: ActionCheckWebSocket})
		case wsCheckPending:
			return out // the give-up timer decides
		case wsCheckFailed:
			return e.switchToHTTP(out)
		}
	}
	return e.enterDisconnected(out, ReasonConnectFailed, e.attemptErr)
}

// attemptTimers are the timers that belong to one connection attempt.
var attemptTimers = []TimerKind{TimerShortCircuit, TimerConnectivityCheck, TimerWebSocketSlow, TimerWebSocketGiveUp}

// enterDisconnected schedules the next attempt: RTB1 from DISCONNECTED, or
// the flat SUSPENDED interval once connectionStateTtl has passed; the
// state change carries failure f.
func (e *Engine) enterDisconnected(out []Action, reason Reason, f Failure) []Action {
	out = e.cancelTimers(out, attemptTimers...)
	e.check, e.wsCheck = checkNone, wsCheckNone
	if e.ttlExpired {
		return e.enterSuspended(out, reason, f)
	}
	if e.retries < math.MaxInt {
		e.retries++
	}
	retryIn := e.retryDelay(e.retries)
	out = e.setState(out, Disconnected, reason, retryIn, f)
	return e.startTimer(out, TimerRetry, retryIn, 0)
}

func (e *Engine) enterSuspended(out []Action, reason Reason, f Failure) []Action {
	e.retries, e.reconnectDue = 0, false
	retryIn := e.suspendedDelay()
	out = e.setState(out, Suspended, reason, retryIn, f)
	return e.startTimer(out, TimerRetry, retryIn, 0)
}
