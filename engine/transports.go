package engine

import "github.com/reconnect-go/reconnect"

// Transports: the slots, the setTransportPending decision when one turns
// viable, activation and upgrade, losing one, and the active one dropping.

// maxTransports is how many transports can be live at once: the
// short-circuit websocket, the flow transport, the upgrade websocket, and
// one spare.
const maxTransports = 4

// role is why the engine opened a transport.
type role uint8

const (
	roleShortCircuit role = iota + 1 // the first websocket, when the flow is HTTP
	roleFlow                         // the transport that walks the hosts
	roleUpgrade                      // a websocket opened to take over from active HTTP
)

type transportStatus uint8

const (
	slotFree transportStatus = iota
	slotOpening
	slotPending
	slotActive
)

type transportSlot struct {
	id      TransportID
	kind    reconnect.TransportKind
	mode    reconnect.Mode
	host    string
	role    role
	status  transportStatus
	timeout TimerID
}

func (e *Engine) onViable(out []Action, s *transportSlot) []Action {
	if e.usesWebSocketCheck() {
		out = e.onOpened(out, s)
	}
	pending, active := e.find(slotPending), e.find(slotActive)
	d, _ := reconnect.DecidePending(s.kind, s.mode, kindOf(pending), kindOf(active))
	switch d {
	case reconnect.DiscardCandidate:
		e.noteDisplaced(s)
		return e.lose(out, s, reconnect.Failure{})
	case reconnect.ReplacePending:
		e.noteDisplaced(pending)
		out = e.dispose(out, pending)
	}
	s.status = slotPending
	return out
}

// noteDisplaced records that the flow transport s, viable and so working
// on its host, was closed for a websocket by rule 1 or 2: if that websocket
// is lost before it connects, the flow opens again on the same host
// (liveness).
func (e *Engine) noteDisplaced(s *transportSlot) {
	if s.role == roleFlow {
		e.att.flowDisplaced = true
	}
}

// transportState is what the transport-choice steps look at in this
// attempt. A flow displaced by a websocket counts as not started: it has
// nothing in flight and must start again if that websocket is lost.
func (e *Engine) transportState() reconnect.TransportState {
	return reconnect.TransportState{HTTPAvailable: e.cfg.Transports.HTTP, HTTPStarted: e.att.flowStarted && !e.att.flowDisplaced,
		Pending: kindOf(e.find(slotPending)), Active: kindOf(e.find(slotActive))}
}

func kindOf(s *transportSlot) reconnect.TransportKind {
	if s == nil {
		return reconnect.NoTransport
	}
	return s.kind
}

// activate makes the pending transport s active, with the details d and
// the error f of the CONNECTED message it received.
func (e *Engine) activate(out []Action, s *transportSlot, d Details, f reconnect.Failure) []Action {
	if e.state == Closing {
		return e.activateWhileClosing(out, s) // RTN12f (closing.go)
	}
	out = e.cancelConnectTimer(out, s)
	if prev := e.find(slotActive); prev != nil {
		out = e.dispose(out, prev) // the upgrade websocket takes over from HTTP
	}
	s.status = slotActive
	out, a := pushAction(out)
	a.Kind, a.Transport = ActionActivateTransport, s.id
	out = e.cancelTimers(out, attemptTimers...)
	e.att.check = checkNone
	if s.kind == reconnect.WebSocket {
		// Nothing can do better than an active websocket: close the rest.
		out = e.disposeWhere(out, func(o *transportSlot) bool { return o != s })
	} else {
		out = e.disposeWhere(out, lateWebSocket)
	}
	if e.usesPreference() {
		e.att.prefStart = reconnect.NoTransport
		if !(s.kind == reconnect.HTTP && e.preferHTTP()) { // keep "websocket-unstable" through the hold
			e.pref = e.pref.Apply(reconnect.PreferenceEventConnected, s.kind, e.now)
		}
	}
	if e.state != Connected {
		e.retries, e.ttlExpired, e.early = 0, false, earlyRetries{}
		out = e.cancelTimers(out, TimerStateTTL, TimerRetry)
	}
	out = e.announceActive(out, d, f) // CONNECTED, or an UPDATE; the idle timer (details.go)
	if k, m := reconnect.UpgradeAfterActivation(s.kind, e.cfg.Transports); k != reconnect.NoTransport && e.upgradesHTTP() {
		if e.preferHTTP() {
			// No upgrade until the flapping guard's hold is over.
			if !e.hasTimer(TimerFlapHold) {
				out = e.startTimer(out, TimerFlapHold, e.flap.httpTill.Sub(e.now), 0)
			}
			return out
		}
		out = e.open(out, k, s.host, m, roleUpgrade)
	}
	return out
}

// lateWebSocket reports whether o is a websocket opened in a mode other
// than upgrade that is still opening: when HTTP activates, rule 3 of the
// setTransportPending table (reconnect.PendingTable) can only ever discard
// it, so activation closes it at once instead of leaving its socket open
// until it turns viable or its realtimeRequestTimeout runs out (behind a
// proxy that blackholes websockets, 10 s per client beside the upgrade
// websocket). Nothing is lost by closing it: while CONNECTED, neither its
// failure nor its success would change anything (lose and onViable learn
// nothing from a transport once the connection is CONNECTED), and the
// upgrade websocket, opened in the same step, tries the same host.
func lateWebSocket(o *transportSlot) bool {
	return o.kind == reconnect.WebSocket && o.mode != reconnect.ModeUpgrade && o.status == slotOpening
}

// onTransportLost handles a transport that failed or closed.
func (e *Engine) onTransportLost(out []Action, s *transportSlot, f reconnect.Failure) []Action {
	if e.takesTokenError(s, f) {
		return e.onTokenError(out, f) // token.go
	}
	if s.status == slotActive {
		return e.onDrop(out, f)
	}
	return e.lose(out, s, f)
}

// lose disposes a transport that is not active and carries the attempt on.
func (e *Engine) lose(out []Action, s *transportSlot, f reconnect.Failure) []Action {
	r, wasPending := s.role, s.status == slotPending
	out = e.dispose(out, s)
	if e.state == Closing {
		return e.closeIfNothingLeft(out) // RTN12f (closing.go)
	}
	if e.state != Connecting {
		return out // an upgrade websocket failing, or a leftover
	}
	if f.Kind != reconnect.FailureNone {
		e.att.err = f
	}
	if wasPending && e.usesWebSocketCheck() {
		return e.onPendingLost(out, f)
	}
	if r == roleFlow && e.walkStopped() {
		return out // the give-up timer decides
	}
	switch r {
	case roleShortCircuit:
		if reconnect.HTTPOnWebSocketFailure(e.transportState()) {
			if e.att.flowDisplaced {
				return e.reopenFlow(out)
			}
			return e.startFlow(out)
		}
	case roleFlow:
		if reconnect.ShouldFallback(f) && e.att.flowHost+1 < e.hostCount() {
			return e.askConnectivity(out, checkFallback)
		}
	}
	return e.maybeEndAttempt(out)
}

// onDrop handles the active transport closing or failing.
func (e *Engine) onDrop(out []Action, f reconnect.Failure) []Action {
	if a := e.find(slotActive); a != nil && a.kind == reconnect.WebSocket && e.state == Connected {
		e.noteWebSocketDrop()
	}
	out = e.abandonAttempt(out)
	if e.state == Closing {
		out = e.cancelTimers(out, TimerClose)
		return e.setState(out, Closed, ReasonClosed, 0, reconnect.Failure{})
	}
	out = e.reconnect(out, f)
	return e.startTimer(out, TimerStateTTL, e.stateTTL(), 0)
}

// sendsToFallback reports whether failure f, a transport's loss, sends the
// next attempt to a fallback host (RTN17f1): a DISCONNECTED with a
// qualifying status (500–504), when there is a fallback host.
func (e *Engine) sendsToFallback(f reconnect.Failure) bool {
	return f.Kind == reconnect.FailureDisconnected && reconnect.ShouldFallback(f) && e.hostCount() > 1
}

// reconnect goes DISCONNECTED after a drop and reconnects at once (RTN15a;
// it does not consume a retry number), or, within a second of the last
// immediate reconnect, after a retry delay: a server or proxy that accepts
// and drops every connection gets no reconnect a second from every client.
// Config.ImmediateReconnect turns it off or limits it further
// (reconnectsAtOnce).
// A DISCONNECTED that qualifies for a fallback host (RTN17f1: status
// 500–504) makes the next attempt check the internet and start on a
// fallback host, and forgets the transport preference.
func (e *Engine) reconnect(out []Action, f reconnect.Failure) []Action {
	return e.reconnectFor(out, ReasonDropped, f)
}

// reconnectFor is reconnect with the reason of the DISCONNECTED it goes
// through: ReasonDropped, or ReasonNetworkDown (RTN20a).
func (e *Engine) reconnectFor(out []Action, reason Reason, f reconnect.Failure) []Action {
	if e.sendsToFallback(f) {
		e.forceFallback = true
		if e.usesPreference() {
			e.pref = e.pref.Apply(reconnect.PreferenceEventServerFallback, reconnect.NoTransport, e.now)
		}
	}
	if !e.reconnectsAtOnce() {
		return e.enterDisconnected(out, reason, f)
	}
	e.hadReconnect, e.lastReconnect = true, e.now
	e.startEarlyRetries()
	if e.cfg.ReconnectWindow > 0 {
		return e.windowedReconnect(out, reason, f)
	}
	out = e.setState(out, Disconnected, reason, 0, f)
	return e.startAttempt(out, ReasonReconnect)
}

func (e *Engine) open(out []Action, k reconnect.TransportKind, host string, m reconnect.Mode, r role) []Action {
	for i := range e.transports {
		s := &e.transports[i]
		if s.status != slotFree {
			continue
		}
		e.lastTport++
		*s = transportSlot{id: e.lastTport, kind: k, mode: m, host: host, role: r, status: slotOpening}
		var a *Action
		out, a = pushAction(out)
		a.Kind, a.Transport, a.TransportKind, a.Host, a.Mode = ActionOpenTransport, s.id, k, host, m
		out = e.startTimer(out, TimerConnect, e.cfg.Timeouts.Connect, s.id)
		s.timeout = e.lastTimer
		return out
	}
	return out // cannot happen: at most three transports are ever live
}

// dispose closes transport s: its connect timer cancelled first, and for
// the active transport its idle timer right after (idle.go).
func (e *Engine) dispose(out []Action, s *transportSlot) []Action {
	out = e.cancelConnectTimer(out, s)
	out, a := pushAction(out)
	a.Kind, a.Transport = ActionDisposeTransport, s.id
	if s.status == slotActive {
		out = e.cancelKind(out, TimerIdle)
	}
	*s = transportSlot{}
	return out
}

// disposeAll disposes every live transport.
func (e *Engine) disposeAll(out []Action) []Action {
	return e.disposeWhere(out, func(*transportSlot) bool { return true })
}

// disposeWhere disposes the live transports pred selects.
func (e *Engine) disposeWhere(out []Action, pred func(*transportSlot) bool) []Action {
	for i := range e.transports {
		if s := &e.transports[i]; s.status != slotFree && pred(s) {
			out = e.dispose(out, s)
		}
	}
	return out
}

// slot returns the live transport with id, or nil.
func (e *Engine) slot(id TransportID) *transportSlot {
	if id == 0 {
		return nil
	}
	for i := range e.transports {
		if e.transports[i].id == id && e.transports[i].status != slotFree {
			return &e.transports[i]
		}
	}
	return nil
}

// find returns the transport with status st, or nil.
func (e *Engine) find(st transportStatus) *transportSlot {
	for i := range e.transports {
		if e.transports[i].status == st {
			return &e.transports[i]
		}
	}
	return nil
}
