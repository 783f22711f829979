package engine

// The server speaks: the connection details a CONNECTED protocol message
// carries (RTN21, CD2), kept for the connection, and the UPDATE a later
// CONNECTED message makes (RTN24, RTN4h).

import (
	"time"

	"github.com/reconnect-go/reconnect"
)

// Details is what the engine uses of the connectionDetails a CONNECTED
// protocol message carries (CD2). The SDK copies the two fields it
// finds in the message; a field the message leaves out is 0. A negative
// value counts as 0. The other connectionDetails (connectionKey, clientId,
// maxMessageSize, …) are the SDK's: nothing the engine decides depends on
// them.
type Details struct {
	// ConnectionStateTTL is connectionStateTtl (CD2f): from this CONNECTED
	// on, the connection's connectionStateTtl (RTN21), in place of
	// Config.Timeouts.ConnectionStateTTL, for the state-ttl timer started
	// when the connection is lost; 0 keeps the one in force (the last the
	// server sent on this connection, else the configured one). A connect
	// from INITIALIZED, CLOSED, FAILED or CLOSING (a new connection,
	// RTN11b) forgets it (RTN11d).
	ConnectionStateTTL time.Duration
	// MaxIdleInterval is maxIdleInterval (CD2h): the transport is idle,
	// and disposed, after MaxIdleInterval + Timeouts.IdleSlack
	// (realtimeRequestTimeout unless set) without activity (RTN23a;
	// TimerIdle). 0 means the server allows arbitrarily long inactivity,
	// or did not say: no idle timer, unless Config.IdleLimit sets a
	// client-side one.
	MaxIdleInterval time.Duration
}

// serverSaid is what the server said about the connection, and the
// active transport's last activity.
type serverSaid struct {
	ttl          time.Duration // connectionStateTtl from the server; 0: the configured one
	maxIdle      time.Duration // the active transport's maxIdleInterval; 0: no idle timer
	lastActivity time.Time     // the active transport's last activity (idle.go)
}

// stateTTL is the connection's connectionStateTtl: the server's (RTN21),
// else the configured one.
func (e *Engine) stateTTL() time.Duration {
	if e.srv.ttl > 0 && e.everConnected {
		return e.srv.ttl
	}
	return e.cfg.Timeouts.ConnectionStateTTL
}

// useDetails takes the details of a CONNECTED message on the transport
// that is, or has just become, active; the message is activity too.
func (e *Engine) useDetails(d Details) {
	if d.ConnectionStateTTL > 0 {
		e.srv.ttl = d.ConnectionStateTTL
	}
	e.srv.maxIdle = max(d.MaxIdleInterval, 0)
	e.srv.lastActivity = e.now
}

// announceActive is what follows activation once the other transports are
// disposed: the details taken, then CONNECTED carrying the message's error
// (RTN15c7, RTN16l), or an UPDATE when the connection was CONNECTED
// already (the upgrade: RTN4h), then the idle timer.
func (e *Engine) announceActive(out []Action, d Details, f reconnect.Failure) []Action {
	if !e.everConnected {
		e.srv = serverSaid{} // a fresh connection: nothing said before holds
	}
	e.useDetails(d)
	if e.state != Connected {
		e.everConnected = true
		out = e.setState(out, Connected, ReasonConnected, 0, f)
	} else {
		out = e.update(out, ReasonTransport, f)
	}
	return e.armIdle(out)
}

// onConnectionDetails handles a later CONNECTED message on the active
// transport: the details replace those in force, an UPDATE reports it
// with the message's error (RTN24), and the idle timer starts again from
// the message with its maxIdleInterval.
func (e *Engine) onConnectionDetails(out []Action, ev Event) []Action {
	s := e.slot(ev.Transport)
	if e.state != Connected || s == nil || s.status != slotActive {
		return out
	}
	e.useDetails(ev.Details)
	out = e.update(out, ReasonDetails, ev.Failure)
	return e.armIdle(out)
}

// update reports a change of the connection's conditions without a state
// change (RTN4h), carrying failure f (none for the zero Failure), which
// also becomes LastError.
func (e *Engine) update(out []Action, r Reason, f reconnect.Failure) []Action {
	if f.Kind == reconnect.FailureNone {
		f = reconnect.Failure{}
	} else {
		e.lastErr = f
	}
	out, a := pushAction(out)
	a.Kind, a.From, a.To, a.Reason, a.Failure = ActionUpdate, Connected, Connected, r, f
	return out
}
