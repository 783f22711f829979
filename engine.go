package reconnect

import (
	"math"
	"time"
)

// Policy is how a connection attempt chooses its first transport.
type Policy uint8

const (
	// PolicyWebSocketFirst is the transport-fallback proposal: a websocket
	// on the primary host with a short-circuit timer, then HTTP, then the
	// host fallback flow. The default.
	PolicyWebSocketFirst Policy = iota
	// PolicyHTTPFirst is what the proposal replaced: HTTP first, with host
	// fallback, then an upgrade to a websocket once HTTP is active.
	PolicyHTTPFirst
	// PolicyWebSocketCheck is the websocket-only policy a major JavaScript
	// SDK ships: the websocket walks the hosts on its own; after
	// Config.SlowTimeout (4 s) a websocket check and an HTTP connectivity
	// check run (the latter down means DISCONNECTED); after
	// Config.GiveUpTimeout (10 s) HTTP takes over unless the websocket
	// check passed; and when the websocket has failed on every host, a
	// websocket check runs at once: failed means HTTP now, passed means
	// DISCONNECTED, no answer leaves it to the give-up timer.
	PolicyWebSocketCheck
	numPolicies
)

// String returns "websocket-first", "http-first" or "websocket-check".
func (p Policy) String() string { return enumName(policyNames[:], int(p), "Policy") }

var policyNames = [numPolicies]string{"websocket-first", "http-first", "websocket-check"}

// Config configures an Engine. Its zero value is not valid: start from
// DefaultConfig.
type Config struct {
	// Timeouts are the retry and fallback timeouts; see Timeouts.Validate.
	Timeouts Timeouts
	// ShortCircuit is how long the first websocket has to itself before
	// HTTP starts too; 0 means DefaultShortCircuit. It must not be
	// negative.
	ShortCircuit time.Duration
	// Endpoint names the hosts; see ResolveHosts.
	Endpoint EndpointOptions
	// Transports says which transports exist; at least one must.
	Transports Availability
	// Policy chooses the first transport of each attempt.
	Policy Policy
	// SlowTimeout and GiveUpTimeout are PolicyWebSocketCheck's two timers;
	// 0 means the defaults, DefaultSlowTimeout and DefaultGiveUpTimeout.
	// Other policies ignore them. They must not be negative.
	SlowTimeout, GiveUpTimeout time.Duration
	// Source draws the RTB1 jitter and the fallback host order; nil means
	// DefaultSource. The engine calls it only from Step.
	Source Source
}

// DefaultConfig returns the spec's defaults: DefaultTimeouts, the 2 s short
// circuit, the default endpoint, websocket and HTTP both available, the
// websocket-first policy and the default source.
func DefaultConfig() Config {
	return Config{
		Timeouts:     DefaultTimeouts(),
		ShortCircuit: DefaultShortCircuit,
		Transports:   Availability{WebSocket: true, HTTP: true},
	}
}

// Validate reports the first invalid field of c as a *FieldError, or nil.
func (c Config) Validate() error {
	if err := c.Timeouts.Validate(); err != nil {
		return inConfig(err)
	}
	switch {
	case c.ShortCircuit < 0:
		return &FieldError{Field: "Config.ShortCircuit", Value: c.ShortCircuit.String(), Problem: "must not be negative"}
	case !c.Transports.WebSocket && !c.Transports.HTTP:
		return &FieldError{Field: "Config.Transports", Value: "{}", Problem: "must make at least one transport available"}
	case c.SlowTimeout < 0:
		return &FieldError{Field: "Config.SlowTimeout", Value: c.SlowTimeout.String(), Problem: "must not be negative"}
	case c.GiveUpTimeout < 0:
		return &FieldError{Field: "Config.GiveUpTimeout", Value: c.GiveUpTimeout.String(), Problem: "must not be negative"}
	case c.Policy >= numPolicies:
		return &FieldError{Field: "Config.Policy", Value: c.Policy.String(), Problem: "is not a known policy"}
	}
	if _, err := ResolveHosts(c.Endpoint); err != nil {
		return inConfig(err)
	}
	return nil
}

// inConfig names a nested field's *FieldError from Config.
func inConfig(err error) error {
	fe := *err.(*FieldError)
	fe.Field = "Config." + fe.Field
	return &fe
}

// The timers of PolicyWebSocketCheck, as the JavaScript SDK that ships it
// sets them.
const (
	DefaultSlowTimeout   = 4 * time.Second
	DefaultGiveUpTimeout = 10 * time.Second
)

// checkPurpose is why a connectivity check is in flight.
type checkPurpose uint8

const (
	checkNone     checkPurpose = iota
	checkFallback              // before the next fallback host (RTN17j)
	checkSlow                  // PolicyWebSocketCheck's slow timer
)

// wsCheckState is the state of PolicyWebSocketCheck's websocket check.
type wsCheckState uint8

const (
	wsCheckNone wsCheckState = iota
	wsCheckPending
	wsCheckPassed
	wsCheckFailed
)

const (
	maxTransports = 4 // short-circuit websocket, flow transport, upgrade websocket, and one spare
	// immediateReconnectGap is the least time between two immediate
	// reconnects after unexpected drops (RTN15a; one a second).
	immediateReconnectGap = time.Second
)

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
	kind    Transport
	mode    Mode
	host    string
	role    role
	status  transportStatus
	timeout TimerID
}

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
// transport or timer, a duplicate, a transport that reports connected
// without being viable first (treated as viable, then connected), a late
// connectivity answer, or a time earlier than the last one seen (treated as
// the last one) is ignored or answered as documented on Step.
type Engine struct {
	cfg   Config
	hosts Hosts
	order []string // this attempt's host order, drawn when the first fallback is needed
	src   Source

	state         State
	now           time.Time
	retries       int // attempt number of the last DISCONNECTED retry since the last reset
	lastErr       Failure
	everConnected bool
	ttlExpired    bool // connectionStateTtl passed since the connection was last up
	lastReconnect time.Time
	hadReconnect  bool

	transports [maxTransports]transportSlot
	// singles holds the live timer of each kind but TimerConnect, whose
	// timers live in their transport's slot: at most one of each.
	singles   [numTimerKinds]TimerID
	lastTport TransportID
	lastTimer TimerID

	// The current attempt.
	flow        Transport // the transport that walks the hosts
	flowStarted bool
	flowHost    int // index into the host order of the flow's current host
	check       checkPurpose
	wsCheck     wsCheckState
}

// NewEngine returns an engine in state INITIALIZED, or the *FieldError of
// Config.Validate.
func NewEngine(c Config) (*Engine, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	h, _ := ResolveHosts(c.Endpoint)
	if c.ShortCircuit == 0 {
		c.ShortCircuit = DefaultShortCircuit
	}
	if c.SlowTimeout == 0 {
		c.SlowTimeout = DefaultSlowTimeout
	}
	if c.GiveUpTimeout == 0 {
		c.GiveUpTimeout = DefaultGiveUpTimeout
	}
	e := &Engine{cfg: c, hosts: h, src: c.Source}
	e.order = make([]string, 0, 1+len(h.Fallbacks))
	return e, nil
}

// Reset returns the engine to INITIALIZED as NewEngine made it, with the
// same configuration, hosts and source, forgetting every transport, timer
// and count: it is how a simulator or a connection pool reuses one engine
// without allocating. The IDs of new transports and timers start again at
// 1, so the SDK must drop every transport and timer of the old life first.
func (e *Engine) Reset() {
	*e = Engine{cfg: e.cfg, hosts: e.hosts, src: e.src, order: e.order[:0]}
}

// State returns the connection state.
func (e *Engine) State() State { return e.state }

// RetryCount returns the attempt number n of the last RTB1 retry: 0 after
// CONNECTED or SUSPENDED (which reset it), then 1, 2, … for each entry into
// DISCONNECTED. The immediate reconnect after a drop does not count.
func (e *Engine) RetryCount() int { return e.retries }

// LastError returns the last failure the engine was told of (the zero
// Failure if none).
func (e *Engine) LastError() Failure { return e.lastErr }

// Hosts returns the primary and fallback hosts the engine uses.
func (e *Engine) Hosts() Hosts { return e.hosts }

// Step feeds one event that happened at now and appends the actions to
// perform, in order, to out, returning the extended slice. With room in out
// it allocates nothing.
//
// What each event does, by state:
//
//   - EventConnect: from INITIALIZED, CLOSED or FAILED starts afresh; from
//     DISCONNECTED or SUSPENDED connects now (RTN11c); otherwise ignored.
//   - EventClose: from CONNECTED goes CLOSING (until the transport closes
//     or realtimeRequestTimeout passes); from any other live state goes
//     CLOSED at once; CLOSING, CLOSED and FAILED ignore it.
//   - Transport events for a transport the engine does not know, or no
//     longer tracks, are ignored; so are duplicates.
//   - EventTimerFired for a timer that was cancelled, already fired or
//     never started is ignored.
//   - EventConnectivity without a check in flight is ignored, as is
//     EventWebSocketCheck without a websocket check in flight.
//   - EventNetworkDown drops a connected or connecting connection to
//     DISCONNECTED (RTN20a); EventNetworkUp connects a DISCONNECTED or
//     SUSPENDED one now and restarts a CONNECTING attempt (RTN20b, c).
//   - EventFatal goes FAILED from any state but CLOSED and FAILED.
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
				return e.activate(out, s)
			}
		}
	case EventTransportFailed, EventTransportClosed:
		if s := e.slot(ev.Transport); s != nil {
			return e.onTransportLost(out, s, ev.Failure)
		}
	case EventTimerFired:
		return e.onTimer(out, ev.Timer)
	case EventConnectivity:
		if e.check != checkNone {
			out = e.cancelTimers(out, TimerConnectivityCheck)
			return e.onConnectivity(out, ev.Up)
		}
	case EventWebSocketCheck:
		if e.wsCheck == wsCheckPending {
			return e.onWebSocketCheck(out, ev.Up)
		}
	case EventNetworkUp:
		return e.onNetworkUp(out)
	case EventNetworkDown:
		return e.onNetworkDown(out)
	case EventFatal:
		if e.state != Closed && e.state != Failed {
			e.lastErr = ev.Failure
			out = e.stopAll(out)
			return e.setState(out, Failed, ReasonFatal, 0)
		}
	}
	return out
}

// ---- user requests -------------------------------------------------------

func (e *Engine) onConnect(out []Action) []Action {
	switch e.state {
	case Initialized, Closed, Failed:
		// A fresh connection: nothing to resume (RTN11).
		e.retries, e.ttlExpired, e.lastErr, e.everConnected = 0, false, Failure{}, false
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
		e.check = checkNone
		out = e.setState(out, Closing, ReasonCloseRequested, 0)
		return e.startTimer(out, TimerClose, e.cfg.Timeouts.RealtimeRequest, 0)
	case Initialized, Connecting, Disconnected, Suspended:
		out = e.stopAll(out)
		return e.setState(out, Closed, ReasonCloseRequested, 0)
	}
	return out
}

// ---- attempts --------------------------------------------------------------

// startAttempt enters CONNECTING (if not there) and opens the attempt's
// first transport on the primary host.
func (e *Engine) startAttempt(out []Action, reason Reason) []Action {
	if e.state != Connecting {
		out = e.setState(out, Connecting, reason, 0)
	}
	e.order = e.order[:0]
	e.flowStarted, e.flowHost, e.check, e.wsCheck = false, 0, checkNone, wsCheckNone
	e.flow = HTTP
	if !e.cfg.Transports.HTTP {
		e.flow = WebSocket
	}
	first := FirstStep{Transport: HTTP}
	switch {
	case e.cfg.Policy == PolicyWebSocketFirst:
		first = ChooseTransport(e.cfg.Transports, e.cfg.ShortCircuit)
	case !e.cfg.Transports.HTTP:
		first = FirstStep{Transport: WebSocket}
	case e.cfg.Policy == PolicyWebSocketCheck && e.cfg.Transports.WebSocket:
		// The websocket walks the hosts itself, watched by two timers.
		e.flow = WebSocket
		out = e.startFlow(out)
		out = e.startTimer(out, TimerWebSocketSlow, e.cfg.SlowTimeout, 0)
		return e.startTimer(out, TimerWebSocketGiveUp, e.cfg.GiveUpTimeout, 0)
	}
	if first.Transport == e.flow {
		return e.startFlow(out)
	}
	out = e.open(out, WebSocket, e.hosts.Primary, e.connectMode(), roleShortCircuit)
	if first.ShortCircuit > 0 {
		out = e.startTimer(out, TimerShortCircuit, first.ShortCircuit, 0)
	}
	return out
}

// connectMode is the mode of a new attempt's transports: resume once the
// connection has been up (RTN15c, RTN14h), clean before.
func (e *Engine) connectMode() Mode {
	if e.everConnected {
		return ModeResume
	}
	return ModeClean
}

// startFlow opens the flow transport on the primary host.
func (e *Engine) startFlow(out []Action) []Action {
	out = e.cancelTimers(out, TimerShortCircuit)
	e.flowStarted, e.flowHost = true, 0
	return e.open(out, e.flow, e.hosts.Primary, e.connectMode(), roleFlow)
}

// hostCount is how many hosts the flow may use: the primary and at most
// httpMaxRetryCount fallbacks.
func (e *Engine) hostCount() int {
	return 1 + min(e.cfg.Timeouts.HTTPMaxRetryCount, len(e.hosts.Fallbacks))
}

func (e *Engine) onConnectivity(out []Action, up bool) []Action {
	purpose := e.check
	e.check = checkNone
	if purpose == checkSlow && up {
		return e.maybeEndAttempt(out)
	}
	if !up {
		// RTN17j: the internet is down, so no fallback host; and nothing
		// else of this attempt can succeed either.
		out = e.disposeWhere(out, func(*transportSlot) bool { return true })
		return e.enterDisconnected(out, ReasonConnectivityDown)
	}
	if len(e.order) == 0 {
		e.order = AppendHostOrder(e.order, e.hosts, e.cfg.Timeouts.HTTPMaxRetryCount, e.src)
	}
	e.flowHost++
	return e.open(out, e.flow, e.order[e.flowHost], e.connectMode(), roleFlow)
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
	if e.cfg.Policy == PolicyWebSocketCheck && e.flow == WebSocket && e.cfg.Transports.HTTP {
		switch e.wsCheck {
		case wsCheckNone:
			e.wsCheck = wsCheckPending
			return append(out, Action{Kind: ActionCheckWebSocket})
		case wsCheckPending:
			return out // the give-up timer decides
		case wsCheckFailed:
			return e.switchToHTTP(out)
		}
	}
	return e.enterDisconnected(out, ReasonConnectFailed)
}

// attemptTimers are the timers that belong to one connection attempt.
var attemptTimers = []TimerKind{TimerShortCircuit, TimerConnectivityCheck, TimerWebSocketSlow, TimerWebSocketGiveUp}

// switchToHTTP abandons the websocket flow for the HTTP one
// (PolicyWebSocketCheck).
func (e *Engine) switchToHTTP(out []Action) []Action {
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	out = e.cancelTimers(out, TimerWebSocketSlow, TimerWebSocketGiveUp, TimerConnectivityCheck)
	e.check = checkNone
	e.flow = HTTP
	return e.startFlow(out)
}

func (e *Engine) onWebSocketCheck(out []Action, up bool) []Action {
	if up {
		e.wsCheck = wsCheckPassed
	} else {
		e.wsCheck = wsCheckFailed
	}
	if e.state != Connecting || e.flow != WebSocket {
		return out
	}
	return e.maybeEndAttempt(out)
}

// enterDisconnected schedules the next attempt: RTB1 from DISCONNECTED, or
// the flat SUSPENDED interval once connectionStateTtl has passed.
func (e *Engine) enterDisconnected(out []Action, reason Reason) []Action {
	out = e.cancelTimers(out, attemptTimers...)
	e.check, e.wsCheck = checkNone, wsCheckNone
	if e.ttlExpired {
		return e.enterSuspended(out, reason)
	}
	if e.retries < math.MaxInt {
		e.retries++
	}
	retryIn := RetryDelay(e.cfg.Timeouts.DisconnectedRetry, e.retries, draw(e.src))
	out = e.setState(out, Disconnected, reason, retryIn)
	return e.startTimer(out, TimerRetry, retryIn, 0)
}

func (e *Engine) enterSuspended(out []Action, reason Reason) []Action {
	e.retries = 0
	out = e.setState(out, Suspended, reason, e.cfg.Timeouts.SuspendedRetry)
	return e.startTimer(out, TimerRetry, e.cfg.Timeouts.SuspendedRetry, 0)
}

// ---- transports ------------------------------------------------------------

func (e *Engine) onViable(out []Action, s *transportSlot) []Action {
	pending, active := e.find(slotPending), e.find(slotActive)
	d, _ := DecidePending(s.kind, s.mode, kindOf(pending), kindOf(active))
	switch d {
	case DiscardCandidate:
		return e.lose(out, s, Failure{})
	case ReplacePending:
		out = e.dispose(out, pending)
	}
	s.status = slotPending
	return out
}

// transportState is what the transport-choice steps look at in this attempt.
func (e *Engine) transportState() TransportState {
	return TransportState{HTTPAvailable: e.cfg.Transports.HTTP, HTTPStarted: e.flowStarted,
		Pending: kindOf(e.find(slotPending)), Active: kindOf(e.find(slotActive))}
}

func kindOf(s *transportSlot) Transport {
	if s == nil {
		return NoTransport
	}
	return s.kind
}

// activate makes the pending transport s active.
func (e *Engine) activate(out []Action, s *transportSlot) []Action {
	out = e.cancelConnectTimer(out, s)
	if prev := e.find(slotActive); prev != nil {
		out = e.dispose(out, prev) // the upgrade websocket takes over from HTTP
	}
	s.status = slotActive
	out = append(out, Action{Kind: ActionActivateTransport, Transport: s.id})
	out = e.cancelTimers(out, attemptTimers...)
	e.check = checkNone
	if s.kind == WebSocket {
		// Nothing can do better than an active websocket: close the rest.
		out = e.disposeWhere(out, func(o *transportSlot) bool { return o != s })
	}
	if e.state != Connected {
		e.retries, e.ttlExpired, e.everConnected = 0, false, true
		out = e.cancelTimers(out, TimerStateTTL, TimerRetry)
		out = e.setState(out, Connected, ReasonConnected, 0)
	}
	if k, m := UpgradeAfterActivation(s.kind, e.cfg.Transports); k != NoTransport {
		out = e.open(out, k, s.host, m, roleUpgrade)
	}
	return out
}

// onTransportLost handles a transport that failed or closed.
func (e *Engine) onTransportLost(out []Action, s *transportSlot, f Failure) []Action {
	if s.status == slotActive {
		return e.onDrop(out, f)
	}
	return e.lose(out, s, f)
}

// lose disposes a transport that is not active and carries the attempt on.
func (e *Engine) lose(out []Action, s *transportSlot, f Failure) []Action {
	r := s.role
	out = e.dispose(out, s)
	if f != (Failure{}) {
		e.lastErr = f
	}
	if e.state != Connecting {
		return out // an upgrade websocket failing, or a leftover
	}
	switch r {
	case roleShortCircuit:
		if HTTPOnWebSocketFailure(e.transportState()) {
			return e.startFlow(out)
		}
	case roleFlow:
		if f != (Failure{}) && ShouldFallback(f) && e.flowHost+1 < e.hostCount() {
			e.check = checkFallback
			out = append(out, Action{Kind: ActionCheckConnectivity})
			return e.startTimer(out, TimerConnectivityCheck, e.cfg.Timeouts.HTTPRequest, 0)
		}
	}
	return e.maybeEndAttempt(out)
}

// onDrop handles the active transport closing or failing.
func (e *Engine) onDrop(out []Action, f Failure) []Action {
	e.lastErr = f
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	out = e.cancelTimers(out, attemptTimers...)
	e.check, e.wsCheck = checkNone, wsCheckNone
	if e.state == Closing {
		out = e.cancelTimers(out, TimerClose)
		return e.setState(out, Closed, ReasonClosed, 0)
	}
	if !e.hadReconnect || e.now.Sub(e.lastReconnect) >= immediateReconnectGap {
		// RTN15a: reconnect at once; it does not consume a retry number.
		e.hadReconnect, e.lastReconnect = true, e.now
		out = e.setState(out, Disconnected, ReasonDropped, 0)
		out = e.startAttempt(out, ReasonReconnect)
	} else {
		out = e.enterDisconnected(out, ReasonDropped)
	}
	return e.startTimer(out, TimerStateTTL, e.cfg.Timeouts.ConnectionStateTTL, 0)
}

// ---- timers ------------------------------------------------------------------

func (e *Engine) onTimer(out []Action, id TimerID) []Action {
	p, s := e.takeTimer(id)
	switch p {
	case TimerShortCircuit:
		if HTTPOnShortCircuit(e.transportState()) {
			return e.startFlow(out)
		}
		return e.maybeEndAttempt(out)
	case TimerConnect:
		return e.onTransportLost(out, s, Failure{Kind: FailureTimeout})
	case TimerRetry:
		if e.state == Disconnected || e.state == Suspended {
			return e.startAttempt(out, ReasonRetry)
		}
	case TimerStateTTL:
		e.ttlExpired = true
		if e.state == Disconnected {
			out = e.cancelTimers(out, TimerRetry)
			return e.enterSuspended(out, ReasonStateTTL)
		}
	case TimerConnectivityCheck:
		if e.check != checkNone {
			return e.onConnectivity(out, false)
		}
	case TimerWebSocketSlow:
		if e.state == Connecting && e.flow == WebSocket {
			if e.wsCheck == wsCheckNone {
				e.wsCheck = wsCheckPending
				out = append(out, Action{Kind: ActionCheckWebSocket})
			}
			if e.check == checkNone {
				e.check = checkSlow
				out = append(out, Action{Kind: ActionCheckConnectivity})
				out = e.startTimer(out, TimerConnectivityCheck, e.cfg.Timeouts.HTTPRequest, 0)
			}
		}
	case TimerWebSocketGiveUp:
		if e.state == Connecting && e.flow == WebSocket {
			if e.wsCheck != wsCheckPassed {
				return e.switchToHTTP(out)
			}
			return e.maybeEndAttempt(out)
		}
	case TimerClose:
		if e.state == Closing {
			out = e.disposeWhere(out, func(*transportSlot) bool { return true })
			return e.setState(out, Closed, ReasonClosed, 0)
		}
	}
	return out
}

// ---- network ---------------------------------------------------------------

func (e *Engine) onNetworkUp(out []Action) []Action {
	switch e.state {
	case Disconnected, Suspended:
		out = e.cancelTimers(out, TimerRetry)
		return e.startAttempt(out, ReasonNetworkUp)
	case Connecting:
		out = e.disposeWhere(out, func(*transportSlot) bool { return true })
		out = e.cancelTimers(out, attemptTimers...)
		return e.startAttempt(out, ReasonNetworkUp)
	}
	return out
}

func (e *Engine) onNetworkDown(out []Action) []Action {
	if e.state != Connected && e.state != Connecting {
		return out
	}
	wasConnected := e.state == Connected
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	out = e.cancelTimers(out, attemptTimers...)
	e.check = checkNone
	out = e.enterDisconnected(out, ReasonNetworkDown)
	if wasConnected {
		out = e.startTimer(out, TimerStateTTL, e.cfg.Timeouts.ConnectionStateTTL, 0)
	}
	return out
}

// ---- bookkeeping -------------------------------------------------------------

func (e *Engine) setState(out []Action, to State, reason Reason, retryIn time.Duration) []Action {
	from := e.state
	e.state = to
	return append(out, Action{Kind: ActionStateChange, From: from, To: to, Reason: reason, RetryIn: retryIn})
}

// stopAll disposes every transport and cancels every timer.
func (e *Engine) stopAll(out []Action) []Action {
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	for k := range e.singles {
		out = e.cancelKind(out, TimerKind(k))
	}
	e.check = checkNone
	return out
}

func (e *Engine) open(out []Action, k Transport, host string, m Mode, r role) []Action {
	for i := range e.transports {
		s := &e.transports[i]
		if s.status != slotFree {
			continue
		}
		e.lastTport++
		*s = transportSlot{id: e.lastTport, kind: k, mode: m, host: host, role: r, status: slotOpening}
		out = append(out, Action{Kind: ActionOpenTransport, Transport: s.id, TransportKind: k, Host: host, Mode: m})
		out = e.startTimer(out, TimerConnect, e.cfg.Timeouts.RealtimeRequest, s.id)
		s.timeout = e.lastTimer
		return out
	}
	return out // cannot happen: at most three transports are ever live
}

func (e *Engine) dispose(out []Action, s *transportSlot) []Action {
	out = e.cancelConnectTimer(out, s)
	out = append(out, Action{Kind: ActionDisposeTransport, Transport: s.id})
	*s = transportSlot{}
	return out
}

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
	return append(out, Action{Kind: ActionStartTimer, Timer: e.lastTimer, TimerKind: k, Transport: tid, Due: e.now.Add(d)})
}

// cancelKind cancels the live timer of kind k, if any.
func (e *Engine) cancelKind(out []Action, k TimerKind) []Action {
	if id := e.singles[k]; id != 0 {
		e.singles[k] = 0
		out = append(out, Action{Kind: ActionCancelTimer, Timer: id, TimerKind: k})
	}
	return out
}

// cancelConnectTimer cancels transport s's connect timeout, if running.
func (e *Engine) cancelConnectTimer(out []Action, s *transportSlot) []Action {
	if s.timeout != 0 {
		out = append(out, Action{Kind: ActionCancelTimer, Timer: s.timeout, TimerKind: TimerConnect, Transport: s.id})
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
