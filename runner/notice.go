package runner

import (
	"strconv"

	"github.com/reconnect-go/reconnect/engine"
)

// Notified is an optional interface of a Transport: a transport that
// implements it is told when it becomes the connection's active
// transport and when it stops being it, and why (see "Transport notices"
// in the package doc). The runner checks once per transport, when
// Dialer.Open returns, whether the Transport implements it; a transport
// that does not is never asked.
//
// Both are calls of the runner's into the transport, like RequestClose
// and Close: made one call at a time, in the order the engine decided
// them, on the goroutines said under "Goroutines" and "Inline calls" in
// the package doc, and they must return promptly. A method that panics is
// recovered (see PanicError).
type Notified interface {
	// Activated: the transport is now the connection's active transport
	// (its CONNECTED message made the connection CONNECTED, or the
	// upgrade made it take over from another, or, after a close while
	// connecting, it connected and RequestClose follows, RTN12f). It
	// comes before anything else the runner does with the transport from
	// then on: Runner.Active returns it only once Activated has returned,
	// and the state change or update that names it is delivered after.
	// Called at most once per transport.
	Activated()
	// Deactivated: the transport is no longer the active one, for why;
	// Runner.Active no longer returns it, and Close (or CloseFor) follows
	// at once, with the same Cause. Called at most once, and only on a
	// transport that was Activated.
	Deactivated(why Cause)
}

// CauseCloser is an optional interface of a Transport that wants to know
// why it is closed: the runner calls CloseFor(why) in place of Close, with
// the same promise (exactly once, when the engine disposes of the
// transport or the runner stops; the runner ignores the transport's
// reports after it). A transport that implements both Notified and
// CauseCloser and was active hears Deactivated(why), then CloseFor(why).
// The runner checks for it once per transport, when Dialer.Open returns.
type CauseCloser interface {
	CloseFor(why Cause)
}

// Cause says why the runner stopped using a transport: why it was
// deactivated (Notified.Deactivated) and why it is closed
// (CauseCloser.CloseFor). The runner derives it from the event that made
// the engine dispose of the transport; the first rule that matches
// decides (see "Transport notices" in the package doc).
type Cause uint8

const (
	// CauseNone is the zero Cause; the runner never gives it.
	CauseNone Cause = iota
	// CauseEnded: the transport reported its own end (Reporter.Failed or
	// Reporter.Closed) while the connection was not closing.
	CauseEnded
	// CauseSuperseded: another transport took its place: the upgrade
	// websocket became active (RTN4h's UPDATE), the transport choice
	// preferred another (the setTransportPending table), or another
	// transport of a close while connecting connected first (RTN12f).
	CauseSuperseded
	// CauseConnectTimeout: it did not connect within
	// realtimeRequestTimeout (RTN14c).
	CauseConnectTimeout
	// CauseIdleTimeout: the active transport received nothing for the
	// idle limit, maxIdleInterval + realtimeRequestTimeout (RTN23a): a
	// drop, and the connection reconnects.
	CauseIdleTimeout
	// CauseCloseRequested: Runner.Close: the transport was given up by
	// the Close itself, or while the connection was CLOSING: the
	// server's CLOSED after RequestClose, or any other end of the
	// transport then (RTN12), the close timing out (RTN12b), or a Connect
	// making a new connection (RTN11b).
	CauseCloseRequested
	// CauseNetworkDown: Runner.NetworkDown (RTN20a).
	CauseNetworkDown
	// CauseFatal: the connection FAILED: Runner.Fatal, a transport's
	// Reporter.Fatal (this one's too), a token error that cannot be
	// renewed (RTN15h1) or a renewal refused (RSA4d).
	CauseFatal
	// CauseStopped: the runner's context is done.
	CauseStopped
	// CauseAbandoned: the attempt or connection the transport served
	// ended for another reason: another transport's loss (the active
	// one dropped, the attempt failed), connectionStateTtl (SUSPENDED),
	// the attempt limit, a connectivity check, or NetworkUp or Authorize
	// starting the attempt again.
	CauseAbandoned
	numCauses
)

var causeNames = [numCauses]string{"none", "ended", "superseded", "connect-timeout", "idle-timeout",
	"close-requested", "network-down", "fatal", "stopped", "abandoned"}

// String returns the cause's name, e.g. "idle-timeout"; an unknown value
// renders as "Cause(N)".
func (c Cause) String() string {
	if c < numCauses {
		return causeNames[c]
	}
	return "Cause(" + strconv.Itoa(int(c)) + ")"
}

// The notify bits of reporter.notify: what the transport implements.
const (
	notifyActive = 1 << iota // Notified
	notifyClose              // CauseCloser
)

// notifyBits says which optional interfaces t implements.
func notifyBits(t Transport) uint8 {
	var b uint8
	if _, ok := t.(Notified); ok {
		b |= notifyActive
	}
	if _, ok := t.(CauseCloser); ok {
		b |= notifyClose
	}
	return b
}

// stepInfo is what the core knows of the step it is performing, from
// which it derives the Cause of each transport the step disposes of and
// the transport a state change names.
type stepInfo struct {
	kind  engine.EventKind
	timer engine.TimerKind // for engine.EventTimerFired
	// subject is the transport the event names: the one reporting, the
	// one whose connect timer fired, the active one for the idle timer;
	// 0 for none, and 0 once the step's first state change has named it.
	subject engine.TransportID
	from    engine.State       // the state before the step
	active  engine.TransportID // the transport active before the step
}

// causeFor is why the step disposes of transport id: the first rule that
// matches decides.
func (c *core) causeFor(id engine.TransportID) Cause {
	st := &c.st
	switch {
	case st.kind == engine.EventFatal:
		return CauseFatal
	case st.from == engine.Closing:
		return CauseCloseRequested
	}
	switch st.kind {
	case engine.EventTransportFailed, engine.EventTransportClosed:
		if id == st.subject {
			return CauseEnded
		}
	case engine.EventNetworkDown:
		return CauseNetworkDown
	case engine.EventClose:
		return CauseCloseRequested
	case engine.EventTransportViable, engine.EventTransportConnected:
		return CauseSuperseded
	case engine.EventTimerFired:
		switch {
		case st.timer == engine.TimerConnect && id == st.subject:
			return CauseConnectTimeout
		case st.timer == engine.TimerIdle && id == st.subject:
			return CauseIdleTimeout
		case st.timer == engine.TimerClose:
			return CauseCloseRequested
		}
	}
	if c.stepFails() {
		return CauseFatal // a token error that cannot be renewed, a renewal refused
	}
	return CauseAbandoned
}

// stepFails reports whether the step being performed makes the
// connection FAILED.
func (c *core) stepFails() bool {
	for i := range c.out.actions {
		if a := &c.out.actions[i]; a.Kind == engine.ActionStateChange && a.To == engine.Failed {
			return true
		}
	}
	return false
}
