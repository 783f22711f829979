package engine

// The Engine: its state, Step (the event dispatch), the user's requests,
// the OS network events and the state-change record.

import (
	"slices"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Engine is the sans-IO connection state machine: it composes the RTB1
// retry delays, the websocket-first transport choice with its
// setTransportPending table, and the host fallback flow with its
// connectivity check. The SDK feeds it events with the time they happened
// and performs the actions it returns; the engine performs no IO, reads no
// clock, starts no goroutine and draws randomness only from Config.Source.
//
// An Engine is not safe for concurrent use: it belongs to the SDK's
// connection goroutine (or is guarded by its lock), like a raft node.
//
// Bad events never corrupt its state: an event for an unknown or finished
// transport, timer or check, a duplicate, a transport that reports
// connected without being viable first (treated as viable, then
// connected), a late answer to a check, or a time earlier than the last one seen (treated as
// the last one) is ignored or answered as documented on Step.
type Engine struct {
	// Fixed by New (Reset keeps them).
	cfg   Config
	hosts reconnect.Hosts
	src   reconnect.Source

	// The connection, across attempts.
	state         State
	now           time.Time
	retries       int               // attempt number of the last DISCONNECTED retry since the last reset
	lastErr       reconnect.Failure // what LastError returns
	stateErr      reconnect.Failure // the failure the change into the current state carried
	everConnected bool
	ttlExpired    bool // connectionStateTtl passed since the connection was last up
	lastReconnect time.Time
	hadReconnect  bool
	reconnectDue  bool          // the retry timer is Config.ReconnectWindow's reconnect
	lastRetryIn   time.Duration // the last DISCONNECTED retry delay of Config.Retry's family (decorrelated jitter reads it)
	flap          flapState
	pref          reconnect.Preference // the transport preference
	forceFallback bool                 // the next attempt starts on a fallback host (RTN17f1)
	early         earlyRetries         // the first-retry rule (firstretry.go)

	// What is live: the transports, the timers (one of each kind but
	// TimerConnect, whose timers live in their transport's slot), and the
	// last IDs given out, which only grow.
	transports [maxTransports]transportSlot
	singles    [numTimerKinds]TimerID
	lastTport  TransportID
	lastTimer  TimerID
	lastCheck  CheckID

	att attempt // the current attempt (attempt.go)

	// scStart is when the websocket of the running short-circuit timer
	// opened, and scWaiting whether it has yet to report its dial
	// (adaptive.go). Read only while that timer runs; set whenever it
	// starts.
	scStart   time.Time
	scWaiting bool

	srv        serverSaid // what the server said about the connection (details.go)
	renewFirst bool       // the next attempt starts with a token renewal (token.go)
}

// New returns an engine in state INITIALIZED, or the *FieldError of
// Config.Validate.
func New(c Config) (*Engine, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	h, _ := reconnect.ResolveHosts(c.Endpoint)
	if c.ShortCircuit == 0 {
		c.ShortCircuit = reconnect.DefaultShortCircuit
	}
	if c.SlowTimeout == 0 {
		c.SlowTimeout = DefaultSlowTimeout
	}
	if c.GiveUpTimeout == 0 {
		c.GiveUpTimeout = DefaultGiveUpTimeout
	}
	c.Flap = c.Flap.withDefaults()
	c.Timeouts = c.Timeouts.WithDefaults() // each job of realtimeRequestTimeout
	src := c.Source
	if src == nil {
		src = reconnect.DefaultSource()
	}
	e := &Engine{cfg: c, hosts: h, src: src, pref: c.Preference}
	e.att.order = make([]string, 0, 1+len(h.Fallbacks))
	return e, nil
}

// Reset returns the engine to INITIALIZED as New made it, with the
// same configuration, hosts and source, forgetting every transport, timer
// and count: it is how a simulator or a connection pool reuses one engine
// without allocating. The IDs of new transports and timers start again at
// 1, so the SDK must drop every transport and timer of the old life first.
func (e *Engine) Reset() {
	*e = Engine{cfg: e.cfg, hosts: e.hosts, src: e.src, att: attempt{order: e.att.order[:0]}, pref: e.cfg.Preference}
}

// Preference returns the transport preference as it stands: what to
// persist (Preference.MarshalText) and give to the next engine in
// Config.Preference. It changes only under PolicyWebSocketCheck or with
// Config.RememberTransport.
func (e *Engine) Preference() reconnect.Preference { return e.pref }

// State returns the connection state.
func (e *Engine) State() State { return e.state }

// RetryCount returns the attempt number n of the last RTB1 retry: 0 after
// CONNECTED or SUSPENDED (which reset it), then 1, 2, … for each entry into
// DISCONNECTED. The immediate reconnect after a drop or network-down does
// not count, nor does the windowed one of Config.ReconnectWindow; a connect
// from INITIALIZED, CLOSED, FAILED or CLOSING resets it.
func (e *Engine) RetryCount() int { return e.retries }

// LastError returns the failure carried by the most recent state change
// or update that carried one, like Connection.errorReason (RTN25): the
// zero Failure once CONNECTED without an error (which clears it, as the
// reference JavaScript SDK does; a CONNECTED carrying the message's error,
// RTN15c7, sets it) and after a connect from INITIALIZED, CLOSED,
// FAILED (RTN11d) or CLOSING (RTN11b). CONNECTING, CLOSING and CLOSED carry no failure and
// leave it as it was. Each ActionStateChange's own Failure is the error of
// that change; prefer it when reporting a state change.
func (e *Engine) LastError() reconnect.Failure { return e.lastErr }

// Hosts returns the primary and fallback hosts the engine uses. The
// Fallbacks slice is a copy (it allocates): changing it changes nothing in
// the engine.
func (e *Engine) Hosts() reconnect.Hosts {
	return reconnect.Hosts{Primary: e.hosts.Primary, Fallbacks: slices.Clone(e.hosts.Fallbacks)}
}

// Step feeds one event that happened at now and appends the actions to
// perform, in order, to out, returning the extended slice. With room in out
// it allocates nothing.
//
// What each event does, by state:
//
//   - EventConnect: from INITIALIZED, CLOSED or FAILED starts afresh; from
//     CLOSING disposes the closing connection's transports and starts
//     afresh (RTN11b); from DISCONNECTED or SUSPENDED connects now
//     (RTN11c); CONNECTING and CONNECTED ignore it (RTN11e).
//   - EventClose: from CONNECTED goes CLOSING (until the transport closes
//     or realtimeRequestTimeout passes, RTN12a); from CONNECTING goes
//     CLOSING at once and lets the transports in flight finish, CLOSED when
//     none is left, a CLOSE on the one that connects (RTN12f; under
//     PolicyWebSocketCheck CLOSING then CLOSED at once, as ably-js does);
//     from INITIALIZED, DISCONNECTED or SUSPENDED goes CLOSED at once
//     (RTN12d); CLOSING, CLOSED and FAILED ignore it (FAILED stays until a
//     connect, RTN27h).
//   - Transport events for a transport the engine does not know, or no
//     longer tracks, are ignored; so are duplicates.
//   - EventTimerFired for a timer that was cancelled, already fired or
//     never started is ignored.
//   - EventConnectivity and EventWebSocketCheck answer the check
//     Event.Check names; an answer for a check that is not in flight (its
//     attempt ended, its timer fired, it was answered or replaced, or
//     Event.Check is 0) is ignored (see CheckID).
//   - EventNetworkDown takes a connected or connecting connection to
//     DISCONNECTED and reconnects at once as after a drop (RTN20a, RTN15;
//     SUSPENDED instead once connectionStateTtl has passed);
//     EventNetworkUp connects a DISCONNECTED or SUSPENDED one now and
//     restarts a CONNECTING attempt (RTN20b, c).
//   - EventFatal goes FAILED from any state but CLOSED and FAILED.
//   - EventTransportConnected carries the CONNECTED message's details
//     (kept for the connection: RTN21) and error (RTN15c7); a transport
//     activating while CONNECTED (the upgrade) gives an ActionUpdate
//     instead of a state change (RTN4h).
//   - EventConnectionDetails, for the active transport while CONNECTED,
//     takes its details and gives an ActionUpdate (RTN24); otherwise
//     ignored.
//   - EventActivity records the active transport's last activity for the
//     idle timer (RTN23a) and returns no action.
//   - A transport lost with a token error while CONNECTING (or the active
//     one while CONNECTED) asks for one token renewal with
//     Config.CanRenewToken, else goes FAILED (RTN14b, RTN15h);
//     EventTokenRenewal answers the renewal in flight.
//   - EventAuthorize (Auth#authorize, RTC8) halts an attempt in flight for
//     a token renewal and a new attempt (RTC8b), or connects with the
//     renewal first (RTC8c); while CONNECTED or CLOSING it is ignored.
//   - EventTransportDialed may bring the short-circuit timer forward
//     (AdaptiveShortCircuit); otherwise it is ignored.
func (e *Engine) Step(now time.Time, ev Event, out []Action) []Action {
	if now.Before(e.now) {
		now = e.now
	}
	e.now = now
	switch ev.Kind {
	case EventConnect:
		return e.onConnect(out)
	case EventClose:
		return e.onClose(out)
	case EventTransportViable:
		if s := e.slot(ev.Transport); s != nil && s.status == slotOpening {
			return e.onViable(out, s)
		}
	case EventTransportConnected:
		if s := e.slot(ev.Transport); s != nil {
			if s.status == slotOpening {
				out = e.onViable(out, s)
			}
			if s.status == slotPending && s.id == ev.Transport {
				return e.activate(out, s, ev.Details, ev.Failure)
			}
		}
	case EventTransportFailed, EventTransportClosed:
		if s := e.slot(ev.Transport); s != nil {
			return e.onTransportLost(out, s, ev.Failure)
		}
	case EventTimerFired:
		return e.onTimer(out, ev.Timer)
	case EventConnectivity:
		switch {
		case ev.Check == 0:
		case ev.Check == e.att.slowCheck && e.hasTimer(TimerSlowCheck):
			return e.onSlowCheck(out, ev.Up)
		case ev.Check == e.att.checkID && e.att.check != checkNone:
			out = e.cancelTimers(out, TimerConnectivityCheck)
			return e.onConnectivity(out, ev.Up)
		}
	case EventWebSocketCheck:
		if ev.Check != 0 && ev.Check == e.att.wsCheckID && e.att.wsCheck == wsCheckPending {
			return e.onWebSocketCheck(out, ev.Up)
		}
	case EventNetworkUp:
		return e.onNetworkUp(out)
	case EventNetworkDown:
		return e.onNetworkDown(out)
	case EventFatal:
		if e.state != Closed && e.state != Failed {
			out = e.stopAll(out)
			return e.setState(out, Failed, ReasonFatal, 0, ev.Failure)
		}
	case EventConnectionDetails:
		return e.onConnectionDetails(out, ev)
	case EventActivity:
		e.onActivity(ev)
	case EventTokenRenewal:
		return e.onTokenRenewal(out, ev)
	case EventAuthorize:
		return e.onAuthorize(out) // authorize.go
	case EventTransportDialed:
		if s := e.slot(ev.Transport); s != nil {
			return e.onDialed(out, s, ev.RTT) // adaptive.go
		}
	}
	return out
}

func (e *Engine) onConnect(out []Action) []Action {
	switch e.state {
	case Initialized, Closed, Failed, Closing:
		if e.state == Closing {
			out = e.dropClosingConnection(out) // RTN11b (closing.go)
		}
		// A fresh connection: nothing to resume (RTN11).
		e.retries, e.ttlExpired, e.lastErr, e.everConnected = 0, false, reconnect.Failure{}, false
		e.forceFallback = false // a server's RTN17f1 redirect was for the old connection
		e.early = earlyRetries{}
		out = e.startAttempt(out, ReasonConnectRequested)
		return e.startTimer(out, TimerStateTTL, e.cfg.Timeouts.ConnectionStateTTL, 0)
	case Disconnected, Suspended:
		out = e.cancelTimers(out, TimerRetry)
		return e.startAttempt(out, ReasonConnectRequested)
	}
	return out
}

func (e *Engine) onClose(out []Action) []Action {
	switch e.state {
	case Connected:
		out = e.disposeWhere(out, func(s *transportSlot) bool { return s.status != slotActive })
		out = e.cancelTimers(out, attemptTimers...)
		out = e.cancelTimers(out, TimerFlapHold) // no upgrade for a closing connection
		e.att.check = checkNone
		out = e.setState(out, Closing, ReasonCloseRequested, 0, reconnect.Failure{})
		return e.startTimer(out, TimerClose, e.cfg.Timeouts.Closing, 0)
	case Connecting:
		return e.closeWhileConnecting(out) // RTN12f (closing.go)
	case Initialized, Disconnected, Suspended:
		out = e.stopAll(out)
		return e.setState(out, Closed, ReasonCloseRequested, 0, reconnect.Failure{})
	}
	return out
}

func (e *Engine) onNetworkUp(out []Action) []Action {
	switch e.state {
	case Disconnected, Suspended:
		out = e.cancelTimers(out, TimerRetry)
		return e.startAttempt(out, ReasonNetworkUp)
	case Connecting:
		out = e.abandonAttempt(out)
		return e.startAttempt(out, ReasonNetworkUp)
	}
	return out
}

// onNetworkDown follows RTN20a: DISCONNECTED at once, and that state
// change triggers the RTN15 reconnect, as after a drop (the rate limit and
// the reconnect window included; the flapping guard counts no
// network-down). Once connectionStateTtl has passed, a CONNECTING
// connection goes SUSPENDED instead (RTN14e). docs/decisions.md says why
// the engine reconnects at once although the OS says the network is down.
func (e *Engine) onNetworkDown(out []Action) []Action {
	if e.state != Connected && e.state != Connecting {
		return out
	}
	// The OS says the network is gone: no route to any host.
	f := reconnect.Failure{Kind: reconnect.FailureUnreachable}
	if e.state == Connecting && e.ttlExpired {
		return e.enterDisconnected(out, ReasonNetworkDown, f)
	}
	wasConnected := e.state == Connected
	out = e.abandonAttempt(out)
	out = e.reconnectFor(out, ReasonNetworkDown, f)
	if wasConnected {
		out = e.startTimer(out, TimerStateTTL, e.stateTTL(), 0)
	}
	return out
}

// setState moves to state to for reason, announcing retryIn and carrying
// failure f (the zero Failure for none; FailureNone counts as none).
func (e *Engine) setState(out []Action, to State, reason Reason, retryIn time.Duration, f reconnect.Failure) []Action {
	from := e.state
	if f.Kind == reconnect.FailureNone {
		f = reconnect.Failure{}
	}
	if f.Kind != reconnect.FailureNone || to == Connected {
		e.lastErr = f
	}
	e.state, e.stateErr = to, f
	out, a := pushAction(out)
	a.Kind, a.From, a.To, a.Reason, a.RetryIn, a.Failure = ActionStateChange, from, to, reason, retryIn, f
	return out
}

// stopAll disposes every transport and cancels every timer.
func (e *Engine) stopAll(out []Action) []Action {
	out = e.disposeAll(out)
	return e.stopTimers(out)
}

// stopTimers cancels every timer but the transports' connect timers, in
// the order of their kinds, and forgets the connectivity check in flight.
func (e *Engine) stopTimers(out []Action) []Action {
	for k := range e.singles {
		out = e.cancelKind(out, TimerKind(k))
	}
	e.att.check = checkNone
	return out
}
