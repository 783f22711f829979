package engine

import (
	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/internal/rows"
)

// LossCaseOf returns the combination of the decision for a transport lost
// before CONNECTED (rows.LossRows) that event ev meets in e's state, read
// from the engine's own records; false when ev loses no transport in
// CONNECTING that is not active (or is a token error, which the token
// rows decide). For the tests of the decision table only.
func LossCaseOf(e *Engine, ev Event) (rows.LossCase, bool) {
	if e.state != Connecting {
		return rows.LossCase{}, false
	}
	var s *transportSlot
	f := ev.Failure
	switch ev.Kind {
	case EventTransportFailed, EventTransportClosed:
		s = e.slot(ev.Transport)
	case EventTimerFired:
		for i := range e.transports {
			if t := &e.transports[i]; t.status != slotFree && t.timeout != 0 && t.timeout == ev.Timer {
				s = t
			}
		}
		f = reconnect.Failure{Kind: reconnect.FailureTimeout}
	}
	if s == nil || s.status == slotActive || e.takesTokenError(s, f) {
		return rows.LossCase{}, false
	}
	var c rows.LossCase
	c[rows.LossPolicy] = map[Policy]string{PolicyWebSocketFirst: "wf", PolicyHTTPFirst: "hf", PolicyWebSocketCheck: "wc"}[e.cfg.Policy]
	c[rows.LossStatus] = "opening"
	if s.status == slotPending {
		c[rows.LossStatus] = "pending"
	}
	switch {
	case s.role == roleFlow && s.kind == reconnect.WebSocket:
		c[rows.LossTransport] = rows.WSWalk
	case s.role == roleFlow:
		c[rows.LossTransport] = rows.HTTPFlow
	case s.role == roleShortCircuit && e.att.flowDisplaced:
		c[rows.LossTransport] = rows.SCDisplaced
	case s.role == roleShortCircuit && e.att.flowStarted:
		c[rows.LossTransport] = rows.SCStarted
	case s.role == roleShortCircuit:
		c[rows.LossTransport] = rows.SCNotStarted
	default:
		c[rows.LossTransport] = "upgrade"
	}
	c[rows.LossCheck] = [...]string{"none", "pending", "passed", "failed"}[e.att.wsCheck]
	c[rows.LossHTTP] = "no"
	if e.cfg.Transports.HTTP {
		c[rows.LossHTTP] = "yes"
	}
	switch {
	case f.Kind == reconnect.FailureDisconnected && reconnect.ShouldFallback(f):
		c[rows.LossFailure] = rows.Failure5xx
	case reconnect.ShouldFallback(f):
		c[rows.LossFailure] = rows.FailureQual
	default:
		c[rows.LossFailure] = rows.FailureNot
	}
	switch {
	case e.hostCount() == 1:
		c[rows.LossHosts] = rows.HostNoneFB
	case e.att.flowHost+1 < e.hostCount():
		c[rows.LossHosts] = rows.HostLeft
	default:
		c[rows.LossHosts] = rows.HostLast
	}
	c[rows.LossInFlight] = rows.InFlightNothing
	other := false
	for i := range e.transports {
		if t := &e.transports[i]; t.status != slotFree && t != s {
			other = true
		}
	}
	switch {
	case e.att.check != checkNone:
		c[rows.LossInFlight] = rows.InFlightCheck
	case other || e.hasTimer(TimerShortCircuit):
		c[rows.LossInFlight] = rows.InFlightOther
	}
	return c, true
}
