package engine

import (
	"strconv"
	"time"

	"github.com/reconnect-go/reconnect"
)

// State is a connection state (RTN4).
type State uint8

const (
	// Initialized: made, never asked to connect.
	Initialized State = iota
	// Connecting: a connection attempt is in flight.
	Connecting
	// Connected: a transport is active.
	Connected
	// Disconnected: the last attempt failed or the connection dropped; a
	// retry is scheduled (RTN14d).
	Disconnected
	// Suspended: no connection for connectionStateTtl; retries every
	// suspendedRetryTimeout (RTN14e).
	Suspended
	// Closing: a close was requested while connected or connecting
	// (RTN12). Entering CLOSING from CONNECTED is the SDK's signal to send
	// its CLOSE protocol message on the active transport (RTN12a); entering
	// it from CONNECTING, the transports in flight go on (RTN12f), and an
	// ActionActivateTransport while CLOSING is the signal to send CLOSE on
	// that transport: no other action asks for it. The connection becomes
	// CLOSED when the active transport reports closed, or
	// realtimeRequestTimeout after CLOSE, or when no transport of the
	// interrupted attempt is left.
	Closing
	// Closed: closed on request; stays put until a connect is requested.
	Closed
	// Failed: a fatal error; stays put until a connect is requested.
	Failed
	numStates
)

var stateNames = [numStates]string{"initialized", "connecting", "connected", "disconnected", "suspended", "closing", "closed", "failed"}

// String returns the state's lower-case name, e.g. "connecting".
func (s State) String() string { return enumName(stateNames[:], int(s), "State") }

// Reason says why a state change happened.
type Reason uint8

const (
	// ReasonNone: no reason recorded.
	ReasonNone Reason = iota
	// ReasonConnectRequested: the user asked to connect (RTN11).
	ReasonConnectRequested
	// ReasonRetry: the DISCONNECTED or SUSPENDED retry timer fired.
	ReasonRetry
	// ReasonReconnect: the immediate reconnect after an unexpected drop
	// (RTN15a) or after network-down (RTN20a), or, with
	// Config.ReconnectWindow, the reconnect when the window's retry timer
	// fires.
	ReasonReconnect
	// ReasonNetworkUp: the OS said the network is back (RTN20b, RTN20c).
	ReasonNetworkUp
	// ReasonConnected: a transport became active.
	ReasonConnected
	// ReasonDropped: the active transport closed or failed unexpectedly.
	ReasonDropped
	// ReasonConnectFailed: every transport and host of the attempt failed,
	// or a failure did not qualify for another host.
	ReasonConnectFailed
	// ReasonConnectivityDown: the connectivity check said the internet is
	// down, so no fallback host was tried (RTN17j).
	ReasonConnectivityDown
	// ReasonNetworkDown: the OS said the network is gone (RTN20a); the
	// reconnect follows as after a drop.
	ReasonNetworkDown
	// ReasonStateTTL: connectionStateTtl passed without a connection.
	ReasonStateTTL
	// ReasonCloseRequested: the user asked to close (RTN12).
	ReasonCloseRequested
	// ReasonClosed: the close completed, or (RTN12f) no transport of the
	// attempt a close interrupted is left.
	ReasonClosed
	// ReasonFatal: a fatal error was reported, or a token error that
	// cannot be renewed (Config.CanRenewToken false: RTN15h1, RSA4a2), or
	// a renewal refused with status 403 (RSA4d).
	ReasonFatal
	// ReasonDetails: the active transport received another CONNECTED
	// protocol message (EventConnectionDetails, RTN24): an ActionUpdate.
	ReasonDetails
	// ReasonTransport: another transport became active while CONNECTED
	// (the upgrade websocket taking over from HTTP): an ActionUpdate.
	ReasonTransport
	numReasons
)

var reasonNames = [numReasons]string{"none", "connect-requested", "retry", "reconnect", "network-up", "connected", "dropped",
	"connect-failed", "connectivity-down", "network-down", "state-ttl", "close-requested", "closed", "fatal", "details", "transport"}

// String returns the reason's name, e.g. "connect-failed".
func (r Reason) String() string { return enumName(reasonNames[:], int(r), "Reason") }

// TransportID names one transport the engine opened. IDs are 1, 2, 3, … in
// the order the engine opens transports; 0 is never a transport.
type TransportID uint64

// TimerID names one timer the engine started. IDs are 1, 2, 3, … in the
// order the engine starts timers; 0 is never a timer.
type TimerID uint64

// CheckID names one check the engine asked for: a connectivity check
// (ActionCheckConnectivity), a websocket check (ActionCheckWebSocket) or
// a token renewal (ActionRenewToken). IDs are 1, 2, 3, … in the order the
// engine asks for them, the three kinds counted together; 0 is never a
// check, so an answer carrying 0 is rejected as unknown. A renewal is in
// flight from its ActionRenewToken until it is answered, its
// TimerRenewToken fires or its attempt ends.
//
// The SDK returns the ID with the answer (Event.Check). The engine acts on
// an answer only while its check is in flight: an answer to a check whose
// attempt ended (the attempt limit, connectionStateTtl, a drop, a close),
// whose timer fired (TimerConnectivityCheck, TimerSlowCheck: the check
// already counted as down), that was answered already, or that a newer
// check of the same purpose replaced, is ignored under every policy. One
// check lives on past CONNECTED: the background websocket check of a
// remembered HTTP, whose "up" still forgets the preference once HTTP has
// connected (as ably-js unpersists it), with no other effect. So an SDK
// that cannot cancel a check's HTTP request or websocket needs nothing
// special: it lets the request finish and reports the answer with its ID,
// and the engine ignores an answer that comes too late. Answers may arrive
// in any order.
type CheckID uint64

// EventKind is the kind of an Event.
type EventKind uint8

const (
	// EventNone is the zero Event; the engine ignores it.
	EventNone EventKind = iota
	// EventConnect: the user asked to connect (RTN11).
	EventConnect
	// EventClose: the user asked to close (RTN12).
	EventClose
	// EventTransportViable: transport Event.Transport has shown itself
	// viable (it is ready to be made pending): for a websocket, its
	// opening handshake has completed (101 Switching Protocols, the socket
	// is open); for HTTP, its connect request has received a 2xx response
	// status. Package runner documents the same moments for transports.
	EventTransportViable
	// EventTransportConnected: transport Event.Transport received the
	// realtime CONNECTED protocol message (the first one on it), with
	// Event.Details the connectionDetails it carries (RTN21; the zero
	// Details for none) and Event.Failure its error (RTN15c7, RTN16l: a
	// resume or recovery that failed; the zero Failure for none). A later
	// CONNECTED message on the same transport is EventConnectionDetails.
	EventTransportConnected
	// EventTransportFailed: transport Event.Transport failed, with
	// Event.Failure saying how.
	EventTransportFailed
	// EventTransportClosed: the server closed transport Event.Transport or
	// it dropped, with Event.Failure saying how (a zero Failure for a clean
	// close).
	EventTransportClosed
	// EventTimerFired: timer Event.Timer is due. A timer that has fired is
	// finished: the SDK forgets it, and the engine never cancels it.
	EventTimerFired
	// EventConnectivity: connectivity check Event.Check has answered;
	// Event.Up is ConnectivityUp of the response (false for a failed
	// request). An answer for a check no longer in flight is ignored (see
	// CheckID).
	EventConnectivity
	// EventNetworkUp: the OS says the network is available (RTN20b).
	EventNetworkUp
	// EventNetworkDown: the OS says the network is unavailable (RTN20a).
	EventNetworkDown
	// EventFatal: an error no retry can fix (for example a revoked key);
	// Event.Failure describes it.
	EventFatal
	// EventWebSocketCheck: websocket check Event.Check has answered;
	// Event.Up says whether a websocket to the check host opened. An
	// answer for a check no longer in flight is ignored (see CheckID).
	EventWebSocketCheck
	// EventConnectionDetails: the active transport Event.Transport
	// received another CONNECTED protocol message after its first (RTN24:
	// a reauthorisation, for example), with Event.Details its
	// connectionDetails and Event.Failure its error. While CONNECTED the
	// details replace those in force and an ActionUpdate reports it
	// (RTN4h); for any other transport, or in any other state, it is
	// ignored.
	EventConnectionDetails
	// EventActivity: the active transport Event.Transport received
	// something from the server (any message, or a transport-level ping:
	// RTN23a) at Event.LastActivity, or at the event's own time when
	// LastActivity is the zero Time. It only records the time, with no
	// action and no allocation: an SDK can feed one per message, or keep
	// the time itself and feed one with LastActivity just before it feeds
	// TimerIdle (see TimerIdle).
	EventActivity
	// EventTokenRenewal: token renewal Event.Check has answered:
	// Event.Up is whether a new token was obtained; when not,
	// Event.Failure says why (http-status 403 for RSA4d's refusal). An
	// answer for a renewal no longer in flight is ignored (see CheckID).
	EventTokenRenewal
	// EventAuthorize: the SDK's Auth#authorize was called (RTC8). While
	// CONNECTING the attempt is halted and a token renewal asked, whose
	// answer (EventTokenRenewal) starts a new attempt at once (RTC8b);
	// from INITIALIZED, DISCONNECTED, SUSPENDED, CLOSED or FAILED the
	// connection moves to CONNECTING with the renewal before any
	// transport (RTC8c); while CONNECTED or CLOSING it is ignored (the SDK
	// sends AUTH on the active transport itself, RTC8a). Whether the SDK
	// can renew its token (Config.CanRenewToken) does not matter: the
	// SDK's authorize obtains the token (authorize.go).
	EventAuthorize
	// EventTransportDialed: transport Event.Transport's TCP connection
	// (and TLS session, if any) is up, before its websocket handshake,
	// and took Event.RTT from the dial's start: the observed round trip.
	// For the attempt's first websocket under PolicyWebSocketFirst with
	// Config.Adaptive on, it may bring the short-circuit timer forward
	// (AdaptiveShortCircuit); in every other case it is ignored, so an
	// SDK may report it for every transport or never.
	EventTransportDialed
	numEventKinds
)

var eventNames = [numEventKinds]string{"none", "connect", "close", "viable", "connected", "failed", "closed", "timer",
	"connectivity", "network-up", "network-down", "fatal", "websocket-check", "details", "activity", "token", "authorize", "dialed"}

// String returns the kind's name, e.g. "viable".
func (k EventKind) String() string { return enumName(eventNames[:], int(k), "EventKind") }

// Event is one thing that happened, fed to Engine.Step with the time it
// happened. Only the fields its Kind names are read.
type Event struct {
	Kind      EventKind
	Transport TransportID
	Timer     TimerID
	// Check is the check an EventConnectivity, EventWebSocketCheck or
	// EventTokenRenewal answers: the Action.Check of the action that
	// asked for it.
	Check   CheckID
	Failure reconnect.Failure
	Up      bool
	// Details is what a CONNECTED message's connectionDetails say
	// (EventTransportConnected, EventConnectionDetails).
	Details Details
	// LastActivity is when the transport last received something
	// (EventActivity); the zero Time means the event's own time.
	LastActivity time.Time
	// RTT is how long the dial of an EventTransportDialed took (TCP, and
	// TLS if any); a negative RTT counts as 0.
	RTT time.Duration
}

// TimerKind says what a timer the engine starts is for.
type TimerKind uint8

const (
	// TimerShortCircuit: the websocket's head start before HTTP starts too.
	TimerShortCircuit TimerKind = iota + 1
	// TimerConnect: Timeouts.Connect (realtimeRequestTimeout unless set)
	// for transport Action.Transport to connect (RTN14c); when it fires
	// the transport has timed out.
	TimerConnect
	// TimerRetry: the DISCONNECTED (RTB1) or SUSPENDED retry.
	TimerRetry
	// TimerStateTTL: connectionStateTtl without a connection; when it
	// fires a DISCONNECTED connection becomes SUSPENDED (RTN14e).
	TimerStateTTL
	// TimerConnectivityCheck: httpRequestTimeout for the connectivity
	// check; when it fires the check counts as down.
	TimerConnectivityCheck
	// TimerClose: Timeouts.Closing (realtimeRequestTimeout unless set)
	// for a close to complete, from CLOSING with an active transport
	// (RTN12b).
	TimerClose
	// TimerWebSocketSlow: PolicyWebSocketCheck's slow point, when the
	// websocket and connectivity checks start.
	TimerWebSocketSlow
	// TimerWebSocketGiveUp: PolicyWebSocketCheck's give-up point, when HTTP
	// takes over unless the websocket check passed.
	TimerWebSocketGiveUp
	// TimerFlapHold: the end of the flapping guard's HTTP preference
	// (Config.Flap); when it fires an HTTP connection opens an upgrade
	// websocket again.
	TimerFlapHold
	// TimerAttempt: PolicyWebSocketCheck's attempt limit,
	// Config.GiveUpTimeout + Timeouts.Connect from the start of an
	// attempt; when it fires the attempt has failed, however many hosts
	// remain.
	TimerAttempt
	// TimerSlowCheck: httpRequestTimeout for the connectivity check
	// PolicyWebSocketCheck's slow timer asks for; when it fires that check
	// counts as down.
	TimerSlowCheck
	// TimerIdle: the active transport's idle limit, maxIdleInterval +
	// Timeouts.IdleSlack after its last activity (RTN23a), started when a
	// transport activates with a maxIdleInterval above 0, or, when the
	// server announces none, Config.IdleLimit when that is above 0. It is
	// not restarted by EventActivity: when it fires, the engine restarts
	// it for what remains if the last activity recorded is recent enough,
	// and otherwise disposes of the transport as a drop with
	// FailureTimeout (RTN15). Disposing of the active transport cancels it.
	TimerIdle
	// TimerRenewToken: Timeouts.Renewal (realtimeRequestTimeout unless
	// set) for a token renewal (RSA4c); when it fires the renewal has
	// failed with FailureTimeout.
	TimerRenewToken
	numTimerKinds
)

var timerNames = [numTimerKinds]string{"none", "short-circuit", "connect", "retry", "state-ttl", "connectivity-check", "close", "websocket-slow", "websocket-give-up", "flap-hold", "attempt", "slow-check", "idle", "renew-token"}

// String returns the kind's name, e.g. "short-circuit".
func (k TimerKind) String() string { return enumName(timerNames[:], int(k), "TimerKind") }

// ActionKind is the kind of an Action.
type ActionKind uint8

const (
	// ActionOpenTransport: open Action.TransportKind as transport
	// Action.Transport on Action.Host in Action.Mode. Action.Transport is
	// a TransportID, the SDK's key for its own transport object;
	// Action.TransportKind is the kind (a reconnect.TransportKind: WebSocket or HTTP).
	ActionOpenTransport ActionKind = iota + 1
	// ActionDisposeTransport: close and forget transport Action.Transport.
	ActionDisposeTransport
	// ActionActivateTransport: make transport Action.Transport the
	// connection's transport. While the state is Closing (a close while
	// connecting, RTN12f) it also means: send CLOSE on it (RTN12a).
	ActionActivateTransport
	// ActionStartTimer: start timer Action.Timer, of kind
	// Action.TimerKind (for TimerConnect, of transport Action.Transport),
	// due at Action.Due; feed EventTimerFired when it is.
	ActionStartTimer
	// ActionCancelTimer: cancel timer Action.Timer; a late EventTimerFired
	// for it is ignored anyway.
	ActionCancelTimer
	// ActionCheckConnectivity: GET the connectivity check URL and feed
	// EventConnectivity with the answer and Event.Check = Action.Check.
	// Under PolicyWebSocketCheck two checks can be in flight (the slow
	// timer's and a fallback check); their answers may come in any order.
	// A check need not be cancelled when the engine stops caring: an
	// answer for a check no longer in flight is ignored (see CheckID).
	ActionCheckConnectivity
	// ActionStateChange: the connection moved from Action.From to
	// Action.To for Action.Reason; Action.RetryIn is the announced delay
	// before the next attempt (DISCONNECTED and SUSPENDED), else 0;
	// Action.Failure is the failure that caused the change (the zero
	// Failure for none; see Engine.LastError).
	ActionStateChange
	// ActionCheckWebSocket: open a websocket to the websocket check host
	// and feed EventWebSocketCheck with whether it opened and
	// Event.Check = Action.Check (PolicyWebSocketCheck, and a remembered
	// HTTP's background check).
	ActionCheckWebSocket
	// ActionRenewToken: obtain a new token (RTN14b, RTN15h2) and feed
	// EventTokenRenewal with the outcome and Event.Check = Action.Check.
	// Asked only for a token error (reconnect.FailureToken) with
	// Config.CanRenewToken set, at most once per attempt.
	ActionRenewToken
	// ActionUpdate: the connection stays CONNECTED but its conditions
	// changed (RTN4h): the SDK emits its UPDATE event, with previous and
	// current CONNECTED, for Action.Reason (ReasonDetails: new connection
	// details, RTN24; ReasonTransport: another transport is active),
	// carrying Action.Failure as the change's reason (the zero Failure for
	// none; a failure also becomes Engine.LastError).
	ActionUpdate
	numActionKinds
)

var actionNames = [numActionKinds]string{"", "open", "dispose", "activate", "timer", "cancel", "check", "state", "check-websocket", "renew-token", "update"}

// String returns the kind's short name, e.g. "open".
func (k ActionKind) String() string { return enumName(actionNames[:], int(k), "ActionKind") }

// Action is one thing the SDK must do. Only the fields its Kind names are
// set.
type Action struct {
	Kind          ActionKind
	TransportKind reconnect.TransportKind
	Mode          reconnect.Mode
	TimerKind     TimerKind
	From, To      State
	Reason        Reason
	Transport     TransportID
	Timer         TimerID
	// Check is the ID of the check an ActionCheckConnectivity,
	// ActionCheckWebSocket or ActionRenewToken asks for; its answer
	// carries it back.
	Check   CheckID
	Host    string
	Due     time.Time
	RetryIn time.Duration
	// Failure is the failure a state change or an update carries
	// (ActionStateChange, ActionUpdate): the zero Failure for none.
	Failure reconnect.Failure
}

// pushAction appends a zero Action to out and returns the longer slice
// and the new element, which the caller fills in place. Appending a
// composite literal instead has the compiler build the Action aside and
// copy its 120 bytes, pointers and all, into the slice: in place,
// BenchmarkEngineStep executes 889 instructions a Step instead of 942.
func pushAction(out []Action) ([]Action, *Action) {
	out = append(out, Action{})
	return out, &out[len(out)-1]
}

// String renders the action on one line, e.g.
// "open T1 websocket main.realtime.ably.net clean" or
// "state connecting→disconnected retryIn=13.2s reason=connect-failed error=dns".
func (a Action) String() string {
	switch a.Kind {
	case ActionOpenTransport:
		return "open T" + strconv.FormatUint(uint64(a.Transport), 10) + " " + a.TransportKind.String() + " " + a.Host + " " + a.Mode.String()
	case ActionDisposeTransport:
		return "dispose T" + strconv.FormatUint(uint64(a.Transport), 10)
	case ActionActivateTransport:
		return "activate T" + strconv.FormatUint(uint64(a.Transport), 10)
	case ActionStartTimer:
		return "timer K" + strconv.FormatUint(uint64(a.Timer), 10) + " " + a.timerName() + " due " + a.Due.Format(time.RFC3339Nano)
	case ActionCancelTimer:
		return "cancel K" + strconv.FormatUint(uint64(a.Timer), 10) + " " + a.timerName()
	case ActionCheckConnectivity:
		return "check C" + strconv.FormatUint(uint64(a.Check), 10)
	case ActionCheckWebSocket:
		return "check-websocket C" + strconv.FormatUint(uint64(a.Check), 10)
	case ActionRenewToken:
		return "renew-token C" + strconv.FormatUint(uint64(a.Check), 10)
	case ActionUpdate:
		s := "update " + a.Reason.String()
		if a.Failure.Kind != reconnect.FailureNone {
			s += " error=" + a.Failure.String()
		}
		return s
	case ActionStateChange:
		s := "state " + a.From.String() + "→" + a.To.String() + " retryIn=" + a.RetryIn.String() + " reason=" + a.Reason.String()
		if a.Failure.Kind != reconnect.FailureNone {
			s += " error=" + a.Failure.String()
		}
		return s
	}
	return a.Kind.String()
}

// timerName is the timer's kind, with its transport for TimerConnect.
func (a Action) timerName() string {
	if a.TimerKind == TimerConnect {
		return "connect T" + strconv.FormatUint(uint64(a.Transport), 10)
	}
	return a.TimerKind.String()
}

// enumName is the String of every enum of the package: the name at index
// i, or "Type(i)" for a value outside the enum or without a name. (The
// root package has the same six lines: the library imports nothing but
// the standard library and itself, and these are too small to export.)
func enumName(names []string, i int, typ string) string {
	if i >= 0 && i < len(names) && names[i] != "" {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}
