package engine

// Closing outside CONNECTED: close() while CONNECTING (RTN12f) and
// connect() while CLOSING (RTN11b). Close from CONNECTED (RTN12a) and the
// end of CLOSING are onClose's, onDrop's and the close timer's.

import "github.com/reconnect-go/reconnect"

// closeWhileConnecting follows RTN12f: "If the connection state is
// CONNECTING, moves immediately to CLOSING. If the connection attempt
// succeeds, ie. a CONNECTED ProtocolMessage arrives from Ably, then do as
// specified in RTN12a. If it doesn't succeed, move to CLOSED."
//
// Every timer stops but the connect timers of the transports in flight,
// and the attempt starts nothing more (no other host, no other transport).
// Under PolicyWebSocketCheck (closeAbandonsAttempt) the transports are
// disposed too, as ably-js does; under the other policies they go on until
// one connects (activateWhileClosing) or all are lost (closeIfNothingLeft),
// each bounded by its connect timer. With nothing left in flight the
// connection goes CLOSED in the same step, after CLOSING.
func (e *Engine) closeWhileConnecting(out []Action) []Action {
	if e.closeAbandonsAttempt() {
		out = e.disposeAll(out)
	}
	out = e.stopTimers(out)
	out = e.setState(out, Closing, ReasonCloseRequested, 0, reconnect.Failure{})
	return e.closeIfNothingLeft(out)
}

// closeIfNothingLeft ends a CLOSING that has no transport left: the
// attempt it was closing did not succeed (RTN12f), so CLOSED.
func (e *Engine) closeIfNothingLeft(out []Action) []Action {
	for i := range e.transports {
		if e.transports[i].status != slotFree {
			return out
		}
	}
	return e.setState(out, Closed, ReasonClosed, 0, reconnect.Failure{})
}

// activateWhileClosing is a transport of the attempt a close interrupted
// receiving CONNECTED (RTN12f, then RTN12a): it becomes the active
// transport, so that the SDK sends CLOSE on it (ActionActivateTransport
// while the state is Closing is that cue), every other transport is
// disposed and the close timer starts (RTN12b). The state stays CLOSING:
// no CONNECTED is reported, the transport preference is not updated and
// no upgrade follows.
func (e *Engine) activateWhileClosing(out []Action, s *transportSlot) []Action {
	out = e.cancelConnectTimer(out, s)
	s.status = slotActive
	out, a := pushAction(out)
	a.Kind, a.Transport = ActionActivateTransport, s.id
	out = e.disposeWhere(out, func(o *transportSlot) bool { return o != s })
	return e.startTimer(out, TimerClose, e.cfg.Timeouts.Closing, 0)
}

// dropClosingConnection is the first half of connect() while CLOSING
// (RTN11b: "make a new connection with a new transport instance and remove
// all references to the old one ... when the CLOSED ProtocolMessage
// arrives for the old connection, it doesn't affect the new one"): every
// transport is disposed and every timer cancelled; onConnect then starts
// a fresh connection as from CLOSED.
func (e *Engine) dropClosingConnection(out []Action) []Action {
	return e.stopAll(out)
}

// suspendedReason is the failure SUSPENDED carries (RTN14e: "emitted
// with the reason, and Connection#errorReason will be updated"): f, the
// failure the rules give the state change (the DISCONNECTED it leaves, the
// attempt's last transport failure), or a timeout when there is none (the
// connection was not made within connectionStateTtl). One rule for every
// way into SUSPENDED.
func suspendedReason(f reconnect.Failure) reconnect.Failure {
	if f.Kind == reconnect.FailureNone {
		return reconnect.Failure{Kind: reconnect.FailureTimeout}
	}
	return f
}
