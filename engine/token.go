package engine

// Token errors (RTN14b, RTN15h, RSA4a2, RSA4c, RSA4d): the one renewal
// the engine asks for, its answer, and where a token error that cannot be
// renewed goes.

import "github.com/reconnect-go/reconnect"

// takesTokenError reports whether the loss of transport s with failure f
// is a token error the token rules handle: a transport of the attempt
// while CONNECTING (RTN14b, and RTN15c5's resume), or the active one while
// CONNECTED (RTN15h). Elsewhere (CLOSING, an upgrade websocket) a token
// failure is an ordinary one.
func (e *Engine) takesTokenError(s *transportSlot, f reconnect.Failure) bool {
	return f.Kind == reconnect.FailureToken &&
		(e.state == Connecting || e.state == Connected && s.status == slotActive)
}

// onTokenError handles a token error. Without Config.CanRenewToken the
// token cannot be renewed: everything stops and the connection is FAILED
// (RTN15h1, RSA4a2). With it: while CONNECTED, the drop of RTN15a (through
// DISCONNECTED, as RTN15h2i allows, with its rate limit and the reconnect
// window), whose next attempt starts with the renewal (RTN15h2); while
// CONNECTING, the attempt is abandoned for the renewal (RTN14b), unless it
// is the attempt that followed a renewal: then DISCONNECTED with the token
// error, as an attempt that failed.
func (e *Engine) onTokenError(out []Action, f reconnect.Failure) []Action {
	switch {
	case !e.cfg.CanRenewToken:
		out = e.stopAll(out)
		return e.setState(out, Failed, ReasonFatal, 0, f)
	case e.state == Connected:
		e.renewFirst = true
		return e.onDrop(out, f)
	case e.att.renewed:
		return e.enterDisconnected(out, ReasonConnectFailed, f)
	}
	out = e.abandonAttempt(out)
	e.att.err = f // SUSPENDED before the renewal's answer carries it (RTN14e)
	return e.askRenewal(out)
}

// renewBeforeAttempt is the start of the attempt that follows a token
// error while CONNECTED: the renewal, before any transport.
func (e *Engine) renewBeforeAttempt(out []Action) []Action {
	e.renewFirst = false
	return e.askRenewal(out)
}

// askRenewal asks the SDK for a new token, with Timeouts.Renewal
// (realtimeRequestTimeout unless configured) to obtain it (RSA4c).
func (e *Engine) askRenewal(out []Action) []Action {
	e.lastCheck++
	e.att.renewal = e.lastCheck
	out, a := pushAction(out)
	a.Kind, a.Check = ActionRenewToken, e.att.renewal
	return e.startTimer(out, TimerRenewToken, e.cfg.Timeouts.Renewal, 0)
}

// onTokenRenewal handles the answer to the renewal in flight; any other
// answer is ignored (see CheckID).
func (e *Engine) onTokenRenewal(out []Action, ev Event) []Action {
	if ev.Check == 0 || ev.Check != e.att.renewal || !e.hasTimer(TimerRenewToken) || e.state != Connecting {
		return out
	}
	out = e.cancelTimers(out, TimerRenewToken)
	return e.renewalDone(out, ev.Up, ev.Failure)
}

// renewalDone ends the renewal: renewed, a new attempt at once with the
// new token, the one retry (RTN14b, RTN15h2: resume mode once the
// connection has been CONNECTED); refused with status 403, FAILED (RSA4d);
// failed otherwise, DISCONNECTED carrying the renewal's failure (RTN14b,
// RSA4c2), or SUSPENDED once connectionStateTtl has passed.
func (e *Engine) renewalDone(out []Action, renewed bool, f reconnect.Failure) []Action {
	e.att.renewal = 0
	switch {
	case renewed:
		out = e.startAttempt(out, ReasonReconnect)
		e.att.renewed = true
		return out
	case f.Kind == reconnect.FailureHTTPStatus && f.Status == 403:
		out = e.stopAll(out)
		return e.setState(out, Failed, ReasonFatal, 0, f)
	}
	return e.enterDisconnected(out, ReasonConnectFailed, f)
}
