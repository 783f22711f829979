package engine

// Connection attempts: starting one, the first transport, ending one
// with nothing left in flight, and the DISCONNECTED and SUSPENDED retries.

import (
	"math"

	"github.com/reconnect-go/reconnect"
)

// attempt is what belongs to one connection attempt, a value like raft's
// tracker.Progress: startAttempt starts one by assigning a fresh value,
// abandonAttempt (a failure, a drop, the network) ends one the same way,
// and nothing of an attempt carries into the next but the host order's
// array (reused, so that a fallback allocates nothing). What spans
// attempts is on the Engine.
//
// After CONNECTED, a close or a fatal error the value stays as the
// attempt left it, its connectivity check cancelled, until the next
// attempt or a drop: the transport preference's background websocket
// check (prefCheck) may still answer and update the preference.
type attempt struct {
	order []string                // the host order, drawn when the first fallback is needed
	err   reconnect.Failure       // the last failure of one of its transports
	flow  reconnect.TransportKind // the transport that walks the hosts

	flowStarted bool
	flowHost    int // index into the host order of the flow's current host
	// flowDisplaced: the flow's transport turned viable and was closed for
	// a websocket (rules 1, 2); nothing of the flow is in flight.
	flowDisplaced bool
	// firstHost is the host-order index the attempt's first transports
	// open on: 0, or 1 after a server-directed fallback (RTN17f1).
	firstHost int

	// The checks in flight, each with its ID (see CheckID): the fallback or
	// forced connectivity check (while check is not checkNone), the
	// websocket check (while wsCheck is wsCheckPending) and the slow
	// connectivity check (while TimerSlowCheck runs).
	check     checkPurpose
	checkID   CheckID
	wsCheck   wsCheckState
	wsCheckID CheckID
	slowCheck CheckID

	// prefStart is the transport the attempt started on because of the
	// transport preference (NoTransport if none); prefCheck, whether the
	// websocket check in flight is the preference's background check.
	prefStart reconnect.TransportKind
	prefCheck bool

	// renewal is the token renewal in flight (0: none; TimerRenewToken
	// bounds it); renewed, whether the attempt is the retry that followed
	// a renewal, whose token error ends it (token.go).
	renewal CheckID
	renewed bool
}

// checkPurpose is why a connectivity check is in flight.
type checkPurpose uint8

const (
	checkNone     checkPurpose = iota
	checkFallback              // before the next fallback host (RTN17j)
	checkForced                // before an attempt that starts on a fallback host (RTN17f1)
)

// wsCheckState is the state of PolicyWebSocketCheck's websocket check.
type wsCheckState uint8

const (
	wsCheckNone wsCheckState = iota
	wsCheckPending
	wsCheckPassed
	wsCheckFailed
)

// startAttempt enters CONNECTING (if not there), starts a fresh attempt and
// opens its first transport on the primary host.
func (e *Engine) startAttempt(out []Action, reason Reason) []Action {
	if e.state != Connecting {
		out = e.setState(out, Connecting, reason, 0, reconnect.Failure{})
	}
	e.reconnectDue = false
	e.att = attempt{order: e.att.order[:0], flow: reconnect.HTTP}
	if e.renewFirst {
		return e.renewBeforeAttempt(out) // token.go
	}
	if !e.cfg.Transports.HTTP {
		e.att.flow = reconnect.WebSocket
	}
	if e.usesWebSocketCheck() {
		// The attempt limit: however many hosts remain.
		out = e.startTimer(out, TimerAttempt, e.cfg.GiveUpTimeout+e.cfg.Timeouts.Connect, 0)
	}
	if e.watchesWebSocket() {
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
// e.att.firstHost: a remembered HTTP if Config.RememberTransport, else the
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
	first := e.firstStep()
	if first.Transport == e.att.flow {
		return e.startFlow(out)
	}
	out = e.open(out, reconnect.WebSocket, e.hostAt(e.att.firstHost), e.connectMode(), roleShortCircuit)
	if first.ShortCircuit > 0 {
		e.scStart, e.scWaiting = e.now, true // adaptive.go
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
	e.att.flowStarted, e.att.flowHost, e.att.flowDisplaced = true, e.att.firstHost, false
	return e.open(out, e.att.flow, e.hostAt(e.att.firstHost), e.connectMode(), roleFlow)
}

// hostAt returns the host at index i of this attempt's host order (0 is
// the primary, drawn or not).
func (e *Engine) hostAt(i int) string {
	if i == 0 || i >= len(e.att.order) {
		return e.hosts.Primary
	}
	return e.att.order[i]
}

// reopenFlow opens the flow transport again on the host where it was
// displaced by a websocket that was then lost.
func (e *Engine) reopenFlow(out []Action) []Action {
	e.att.flowDisplaced = false
	return e.open(out, e.att.flow, e.hostAt(e.att.flowHost), e.connectMode(), roleFlow)
}

// maybeEndAttempt ends a CONNECTING attempt that has nothing left in flight:
// no transport, no connectivity check, no short-circuit timer. Under
// PolicyWebSocketCheck a websocket that failed on every host first gets
// its websocket check.
func (e *Engine) maybeEndAttempt(out []Action) []Action {
	if e.state != Connecting || e.att.check != checkNone || e.hasTimer(TimerShortCircuit) {
		return out
	}
	for i := range e.transports {
		if e.transports[i].status != slotFree {
			return out
		}
	}
	if e.walkMayGiveUpToHTTP() {
		switch e.att.wsCheck {
		case wsCheckNone:
			return e.askWebSocketCheck(out)
		case wsCheckPending:
			return out // the give-up timer decides
		case wsCheckFailed:
			return e.switchToHTTP(out)
		}
	}
	return e.enterDisconnected(out, ReasonConnectFailed, e.att.err)
}

// attemptTimers are the timers that belong to one connection attempt.
var attemptTimers = []TimerKind{TimerShortCircuit, TimerConnectivityCheck, TimerWebSocketSlow, TimerWebSocketGiveUp, TimerAttempt, TimerSlowCheck, TimerRenewToken}

// abandonAttempt ends the attempt with whatever it has in flight: it
// disposes every transport, cancels the attempt's timers and forgets the
// attempt.
func (e *Engine) abandonAttempt(out []Action) []Action {
	out = e.disposeAll(out)
	out = e.cancelTimers(out, attemptTimers...)
	e.att = attempt{order: e.att.order[:0]}
	return out
}

// enterDisconnected ends the attempt (abandonAttempt) and schedules the
// next: RTB1 from DISCONNECTED, or the flat SUSPENDED interval once
// connectionStateTtl has passed; the state change carries failure f.
func (e *Engine) enterDisconnected(out []Action, reason Reason, f reconnect.Failure) []Action {
	e.forgetFailedPreference(reason)
	out = e.abandonAttempt(out)
	if e.ttlExpired {
		return e.enterSuspended(out, reason, f)
	}
	retryIn, early := e.earlyRetry()
	if !early {
		if e.retries < math.MaxInt {
			e.retries++
		}
		retryIn = e.retryDelay(e.retries)
	}
	out = e.setState(out, Disconnected, reason, retryIn, f)
	return e.startTimer(out, TimerRetry, retryIn, 0)
}

// enterSuspended goes SUSPENDED with the flat retry; the state change
// carries f, or a timeout when f is none: SUSPENDED always carries a
// reason (RTN14e), whichever way it is entered.
func (e *Engine) enterSuspended(out []Action, reason Reason, f reconnect.Failure) []Action {
	e.retries, e.reconnectDue, e.early = 0, false, earlyRetries{}
	retryIn := e.suspendedDelay()
	out = e.setState(out, Suspended, reason, retryIn, suspendedReason(f))
	return e.startTimer(out, TimerRetry, retryIn, 0)
}
