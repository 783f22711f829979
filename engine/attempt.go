package engine

// Connection attempts: starting one, the first transport, ending one
// with nothing left in flight, and the DISCONNECTED and SUSPENDED retries.

import (
	"math"

	"github.com/reconnect-go/reconnect"
)

// startAttempt enters CONNECTING (if not there) and opens the attempt's
// first transport on the primary host.
func (e *Engine) startAttempt(out []Action, reason Reason) []Action {
	if e.state != Connecting {
		out = e.setState(out, Connecting, reason, 0, reconnect.Failure{})
	}
	e.attemptErr, e.reconnectDue = reconnect.Failure{}, false
	e.order = e.order[:0]
	e.flowStarted, e.flowHost, e.flowDisplaced, e.check, e.wsCheck = false, 0, false, checkNone, wsCheckNone
	e.firstHost, e.prefStart, e.prefCheck = 0, reconnect.NoTransport, false
	e.flow = reconnect.HTTP
	if !e.cfg.Transports.HTTP {
		e.flow = reconnect.WebSocket
	}
	if e.cfg.Policy == PolicyWebSocketCheck {
		out = e.startTimer(out, TimerAttempt, e.cfg.GiveUpTimeout+e.cfg.Timeouts.RealtimeRequest, 0)
	}
	if e.wsCheckPolicy() {
		return e.startWSCheckAttempt(out)
	}
	if e.forceFallback && e.hostCount() > 1 {
		// RTN17f1: the server sent the client away; check the internet,
		// then start on a fallback host (onConnectivity).
		e.forceFallback = false
		return e.askConnectivity(out, checkForced)
	}
	return e.firstTransports(out)
}

// firstTransports opens the attempt's first transports on the host
// e.firstHost: a remembered HTTP if Config.RememberTransport, else the
// policy's choice.
func (e *Engine) firstTransports(out []Action) []Action {
	e.forceFallback = false
	if e.preferHTTP() {
		// The flapping guard: HTTP alone, no short-circuit websocket and
		// no background websocket check until the hold is over.
		return e.startFlow(out)
	}
	if e.cfg.RememberTransport {
		// A remembered websocket is what the policies start with anyway.
		if st := e.pref.Start(e.now, e.cfg.PreferenceTTL, e.cfg.Transports); st.Transport == reconnect.HTTP {
			return e.startOnPreference(out, st)
		}
	}
	first := reconnect.FirstStep{Transport: reconnect.HTTP}
	switch {
	case e.cfg.Policy == PolicyWebSocketFirst:
		first = reconnect.ChooseTransport(e.cfg.Transports, e.cfg.ShortCircuit)
	case !e.cfg.Transports.HTTP:
		first = reconnect.FirstStep{Transport: reconnect.WebSocket}
	}
	if first.Transport == e.flow {
		return e.startFlow(out)
	}
	out = e.open(out, reconnect.WebSocket, e.hostAt(e.firstHost), e.connectMode(), roleShortCircuit)
	if first.ShortCircuit > 0 {
		out = e.startTimer(out, TimerShortCircuit, first.ShortCircuit, 0)
	}
	return out
}

// connectMode is the mode of a new attempt's transports: resume once the
// connection has been up (RTN15c, RTN14h), clean before.
func (e *Engine) connectMode() reconnect.Mode {
	if e.everConnected {
		return reconnect.ModeResume
	}
	return reconnect.ModeClean
}

// startFlow opens the flow transport on the attempt's first host (the
// primary, or a fallback after RTN17f1).
func (e *Engine) startFlow(out []Action) []Action {
	out = e.cancelTimers(out, TimerShortCircuit)
	e.flowStarted, e.flowHost, e.flowDisplaced = true, e.firstHost, false
	return e.open(out, e.flow, e.hostAt(e.firstHost), e.connectMode(), roleFlow)
}

// hostAt returns the host at index i of this attempt's host order (0 is
// the primary, drawn or not).
func (e *Engine) hostAt(i int) string {
	if i == 0 || i >= len(e.order) {
		return e.hosts.Primary
	}
	return e.order[i]
}

// reopenFlow opens the flow transport again on the host where it was
// displaced by a websocket that was then lost.
func (e *Engine) reopenFlow(out []Action) []Action {
	e.flowDisplaced = false
	return e.open(out, e.flow, e.hostAt(e.flowHost), e.connectMode(), roleFlow)
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
	if e.cfg.Policy == PolicyWebSocketCheck && e.flow == reconnect.WebSocket && e.cfg.Transports.HTTP {
		switch e.wsCheck {
		case wsCheckNone:
			return e.askWebSocketCheck(out)
		case wsCheckPending:
			return out // the give-up timer decides
		case wsCheckFailed:
			return e.switchToHTTP(out)
		}
	}
	return e.enterDisconnected(out, ReasonConnectFailed, e.attemptErr)
}

// attemptTimers are the timers that belong to one connection attempt.
var attemptTimers = []TimerKind{TimerShortCircuit, TimerConnectivityCheck, TimerWebSocketSlow, TimerWebSocketGiveUp, TimerAttempt, TimerSlowCheck}

// enterDisconnected schedules the next attempt: RTB1 from DISCONNECTED, or
// the flat SUSPENDED interval once connectionStateTtl has passed; the
// state change carries failure f.
func (e *Engine) enterDisconnected(out []Action, reason Reason, f reconnect.Failure) []Action {
	out = e.cancelTimers(out, attemptTimers...)
	e.check, e.wsCheck = checkNone, wsCheckNone
	e.forgetFailedPreference(reason)
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

func (e *Engine) enterSuspended(out []Action, reason Reason, f reconnect.Failure) []Action {
	e.retries, e.reconnectDue = 0, false
	retryIn := e.suspendedDelay()
	out = e.setState(out, Suspended, reason, retryIn, f)
	return e.startTimer(out, TimerRetry, retryIn, 0)
}
