package engine

// Timers: what each kind does when it fires, and the bookkeeping of live
// timers (one per kind; connect timeouts in their transport's slot).

import (
	"time"

	"github.com/reconnect-go/reconnect"
)

func (e *Engine) onTimer(out []Action, id TimerID) []Action {
	p, s := e.takeTimer(id)
	switch p {
	case TimerShortCircuit:
		if reconnect.HTTPOnShortCircuit(e.transportState()) {
			return e.startFlow(out)
		}
		return e.maybeEndAttempt(out)
	case TimerConnect:
		return e.onTransportLost(out, s, reconnect.Failure{Kind: reconnect.FailureTimeout})
	case TimerRetry:
		if e.state == Disconnected || e.state == Suspended {
			if e.reconnectDue {
				return e.startAttempt(out, ReasonReconnect)
			}
			return e.startAttempt(out, ReasonRetry)
		}
	case TimerStateTTL:
		e.ttlExpired = true
		switch e.state {
		case Disconnected:
			out = e.cancelTimers(out, TimerRetry)
			// Still without a connection for the same failure.
			return e.enterSuspended(out, ReasonStateTTL, e.stateErr)
		case Connecting:
			// SUSPENDED at that moment, also in the middle of an attempt,
			// with the attempt's failure as its reason (RTN14e).
			return e.enterDisconnected(out, ReasonStateTTL, e.att.err)
		}
	case TimerConnectivityCheck:
		if e.att.check != checkNone {
			return e.onConnectivity(out, false)
		}
	case TimerWebSocketSlow:
		return e.onSlowTimer(out)
	case TimerWebSocketGiveUp:
		return e.onGiveUpTimer(out)
	case TimerFlapHold:
		return e.onFlapHoldOver(out)
	case TimerAttempt:
		if e.state == Connecting {
			return e.enterDisconnected(out, ReasonConnectFailed, e.att.err)
		}
	case TimerSlowCheck:
		return e.onSlowCheck(out, false)
	case TimerIdle:
		return e.onIdleTimer(out) // idle.go
	case TimerRenewToken:
		if e.state == Connecting && e.att.renewal != 0 {
			return e.renewalDone(out, false, reconnect.Failure{Kind: reconnect.FailureTimeout}) // token.go
		}
	case TimerClose:
		if e.state == Closing {
			out = e.disposeAll(out)
			return e.setState(out, Closed, ReasonClosed, 0, reconnect.Failure{})
		}
	}
	return out
}

// startTimer starts a timer of kind k due after d, replacing the running
// timer of that kind; a TimerConnect belongs to transport tid, and the
// caller records its ID (e.lastTimer) in the transport's slot.
func (e *Engine) startTimer(out []Action, k TimerKind, d time.Duration, tid TransportID) []Action {
	if k != TimerConnect {
		out = e.cancelKind(out, k)
	}
	e.lastTimer++
	if k != TimerConnect {
		e.singles[k] = e.lastTimer
	}
	out, a := pushAction(out)
	a.Kind, a.Timer, a.TimerKind, a.Transport, a.Due = ActionStartTimer, e.lastTimer, k, tid, e.now.Add(d)
	return out
}

// cancelKind cancels the live timer of kind k, if any.
func (e *Engine) cancelKind(out []Action, k TimerKind) []Action {
	if id := e.singles[k]; id != 0 {
		e.singles[k] = 0
		var a *Action
		out, a = pushAction(out)
		a.Kind, a.Timer, a.TimerKind = ActionCancelTimer, id, k
	}
	return out
}

// cancelConnectTimer cancels transport s's connect timeout, if running.
func (e *Engine) cancelConnectTimer(out []Action, s *transportSlot) []Action {
	if s.timeout != 0 {
		var a *Action
		out, a = pushAction(out)
		a.Kind, a.Timer, a.TimerKind, a.Transport = ActionCancelTimer, s.timeout, TimerConnect, s.id
		s.timeout = 0
	}
	return out
}

// cancelTimers cancels the live timers of the given kinds (not
// TimerConnect).
func (e *Engine) cancelTimers(out []Action, kinds ...TimerKind) []Action {
	for _, k := range kinds {
		out = e.cancelKind(out, k)
	}
	return out
}

func (e *Engine) hasTimer(k TimerKind) bool { return e.singles[k] != 0 }

// takeTimer forgets the live timer id and returns its kind (and, for a
// TimerConnect, its transport); an unknown id gives kind 0.
func (e *Engine) takeTimer(id TimerID) (TimerKind, *transportSlot) {
	if id == 0 {
		return 0, nil
	}
	for k, t := range e.singles {
		if t == id {
			e.singles[k] = 0
			return TimerKind(k), nil
		}
	}
	for i := range e.transports {
		if s := &e.transports[i]; s.timeout == id && s.status != slotFree {
			s.timeout = 0
			return TimerConnect, s
		}
	}
	return 0, nil
}
