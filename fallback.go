package reconnect

import (
	"strconv"
	"time"
)

// TransportKind is a kind of realtime transport: WebSocket or HTTP. The
// zero value, NoTransport, stands for an empty slot ("nothing pending",
// "nothing active"). (It was called Transport in v0.1.0; package
// runner's Transport is the SDK's transport object itself.)
type TransportKind uint8

const (
	// NoTransport is no transport at all: an empty pending or active slot.
	NoTransport TransportKind = iota
	// WebSocket is the websocket transport, the one that can be upgraded to
	// (the proposal's "websocket transport", the connection manager's
	// upgrade transport).
	WebSocket
	// HTTP is the HTTP (comet or long-polling) transport, the base
	// transport that works wherever the host is reachable.
	HTTP
)

// String returns "none", "websocket" or "http", and "TransportKind(N)"
// for a value outside the enum.
func (t TransportKind) String() string {
	return enumName(transportNames[:], int(t), "TransportKind")
}

var transportNames = [...]string{"none", "websocket", "http"}

// Mode is the connection mode a transport was opened with.
type Mode uint8

const (
	// ModeClean opens a new connection.
	ModeClean Mode = iota
	// ModeResume resumes a previous connection (RTN15c).
	ModeResume
	// ModeRecover recovers a connection from a recovery key (RTN16).
	ModeRecover
	// ModeUpgrade opens a websocket alongside an active HTTP transport, to
	// take the connection over from it.
	ModeUpgrade
)

// String returns "clean", "resume", "recover" or "upgrade", and "Mode(N)"
// for a value outside the enum.
func (m Mode) String() string { return enumName(modeNames[:], int(m), "Mode") }

var modeNames = [...]string{"clean", "resume", "recover", "upgrade"}

// Decision is what the connection manager does with a transport that has
// just become viable (the candidate), per the setTransportPending table.
type Decision uint8

const (
	// Proceed: the candidate becomes the pending transport and is activated
	// when it reports connected (the existing behaviour).
	Proceed Decision = iota
	// DiscardCandidate: disconnect the candidate; nothing else changes.
	DiscardCandidate
	// ReplacePending: drop the pending HTTP transport's activation and
	// disconnect it; the candidate then proceeds as with Proceed.
	ReplacePending
)

// String returns "proceed", "discard-candidate" or "replace-pending", and
// "Decision(N)" for a value outside the enum.
func (d Decision) String() string { return enumName(decisionNames[:], int(d), "Decision") }

var decisionNames = [...]string{"proceed", "discard-candidate", "replace-pending"}

// PendingRow is one row of the setTransportPending table: a combination of
// the candidate transport, its mode, the pending and the active transport,
// with the decision, the number of the rule that made it, and whether a
// correct connection manager can meet the combination at all.
type PendingRow struct {
	Candidate TransportKind
	Mode      Mode
	Pending   TransportKind
	Active    TransportKind
	Decision  Decision
	// Rule is the rule that decided: 1–3 the proposal's three special
	// cases, 4 "existing behaviour", and 0 for an invalid candidate
	// (NoTransport), which is discarded.
	Rule int
	// Reachable is false for combinations a correct connection manager
	// never produces: a NoTransport candidate; an HTTP candidate in upgrade
	// mode or while another HTTP transport is pending or active; an
	// upgrade-mode websocket unless HTTP is active and nothing is pending;
	// a second non-upgrade websocket while one is pending; a pending and an
	// active transport together, except an upgrade websocket pending while
	// HTTP is active; and any candidate while a websocket is active, since
	// activating a websocket closes every other transport. They still have
	// the answer the rules give.
	Reachable bool
}

const (
	numTransports = 3
	numModes      = 4
	// PendingTableLen is the number of rows of the setTransportPending
	// table: every candidate × mode × pending × active combination.
	PendingTableLen = numTransports * numModes * numTransports * numTransports
)

// PendingTable returns the setTransportPending decision table, a copy that
// the caller may keep or change. Rows are ordered by candidate, then mode,
// then pending, then active, each in declaration order, so the row of
// (c, m, p, a) is at index ((c×4 + m)×3 + p)×3 + a.
//
// The rules, from the transport-fallback proposal, applied in order to a
// candidate that has just become viable:
//
//  1. The candidate is HTTP and a websocket is pending or active:
//     disconnect the HTTP transport; nothing else changes
//     (DiscardCandidate).
//  2. The candidate is a websocket and an HTTP transport is pending: remove
//     the HTTP transport's activation and disconnect it; the websocket
//     proceeds as normal (ReplacePending).
//  3. The candidate is a websocket whose mode is not upgrade and an HTTP
//     transport is already active: disconnect the websocket, too late for a
//     proper upgrade; the upgrade mechanism upgrades the HTTP connection in
//     due course (DiscardCandidate).
//  4. Anything else: existing behaviour, the candidate becomes pending and
//     activates when connected (Proceed).
//
// A NoTransport candidate is invalid: it is discarded under rule 0.
func PendingTable() [PendingTableLen]PendingRow { return pendingTable }

// DecidePending returns the setTransportPending decision for a candidate
// transport opened in mode that has just become viable, given the pending
// and the active transport (NoTransport for an empty slot), with the number
// of the rule that decided (see PendingTable).
//
// It is total: any argument outside its enum (a TransportKind above HTTP, a
// Mode above ModeUpgrade), like a NoTransport candidate, gives
// (DiscardCandidate, 0), which changes nothing but to drop the candidate.
// It takes constant time, allocates nothing and is safe for concurrent
// use.
func DecidePending(candidate TransportKind, mode Mode, pending, active TransportKind) (Decision, int) {
	if candidate >= numTransports || mode >= numModes || pending >= numTransports || active >= numTransports {
		return DiscardCandidate, 0
	}
	r := &pendingTable[pendingIndex(candidate, mode, pending, active)]
	return r.Decision, r.Rule
}

// pendingIndex is the row of (c, m, p, a) in the table; the arguments must
// be in range.
func pendingIndex(c TransportKind, m Mode, p, a TransportKind) int {
	return ((int(c)*numModes+int(m))*numTransports+int(p))*numTransports + int(a)
}

// pendingTable is the setTransportPending table, row by row.
var pendingTable = [PendingTableLen]PendingRow{
	// candidate  mode          pending      active       decision          rule reachable
	{NoTransport, ModeClean, NoTransport, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, NoTransport, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, NoTransport, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, WebSocket, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, WebSocket, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, WebSocket, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, HTTP, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, HTTP, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeClean, HTTP, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, NoTransport, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, NoTransport, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, NoTransport, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, WebSocket, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, WebSocket, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, WebSocket, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, HTTP, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, HTTP, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeResume, HTTP, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, NoTransport, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, NoTransport, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, NoTransport, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, WebSocket, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, WebSocket, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, WebSocket, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, HTTP, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, HTTP, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeRecover, HTTP, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, NoTransport, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, NoTransport, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, NoTransport, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, WebSocket, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, WebSocket, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, WebSocket, HTTP, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, HTTP, NoTransport, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, HTTP, WebSocket, DiscardCandidate, 0, false},
	{NoTransport, ModeUpgrade, HTTP, HTTP, DiscardCandidate, 0, false},
	{WebSocket, ModeClean, NoTransport, NoTransport, Proceed, 4, true},
	{WebSocket, ModeClean, NoTransport, WebSocket, Proceed, 4, false},
	{WebSocket, ModeClean, NoTransport, HTTP, DiscardCandidate, 3, true},
	{WebSocket, ModeClean, WebSocket, NoTransport, Proceed, 4, false},
	{WebSocket, ModeClean, WebSocket, WebSocket, Proceed, 4, false},
	{WebSocket, ModeClean, WebSocket, HTTP, DiscardCandidate, 3, true},
	{WebSocket, ModeClean, HTTP, NoTransport, ReplacePending, 2, true},
	{WebSocket, ModeClean, HTTP, WebSocket, ReplacePending, 2, false},
	{WebSocket, ModeClean, HTTP, HTTP, ReplacePending, 2, false},
	{WebSocket, ModeResume, NoTransport, NoTransport, Proceed, 4, true},
	{WebSocket, ModeResume, NoTransport, WebSocket, Proceed, 4, false},
	{WebSocket, ModeResume, NoTransport, HTTP, DiscardCandidate, 3, true},
	{WebSocket, ModeResume, WebSocket, NoTransport, Proceed, 4, false},
	{WebSocket, ModeResume, WebSocket, WebSocket, Proceed, 4, false},
	{WebSocket, ModeResume, WebSocket, HTTP, DiscardCandidate, 3, true},
	{WebSocket, ModeResume, HTTP, NoTransport, ReplacePending, 2, true},
	{WebSocket, ModeResume, HTTP, WebSocket, ReplacePending, 2, false},
	{WebSocket, ModeResume, HTTP, HTTP, ReplacePending, 2, false},
	{WebSocket, ModeRecover, NoTransport, NoTransport, Proceed, 4, true},
	{WebSocket, ModeRecover, NoTransport, WebSocket, Proceed, 4, false},
	{WebSocket, ModeRecover, NoTransport, HTTP, DiscardCandidate, 3, true},
	{WebSocket, ModeRecover, WebSocket, NoTransport, Proceed, 4, false},
	{WebSocket, ModeRecover, WebSocket, WebSocket, Proceed, 4, false},
	{WebSocket, ModeRecover, WebSocket, HTTP, DiscardCandidate, 3, true},
	{WebSocket, ModeRecover, HTTP, NoTransport, ReplacePending, 2, true},
	{WebSocket, ModeRecover, HTTP, WebSocket, ReplacePending, 2, false},
	{WebSocket, ModeRecover, HTTP, HTTP, ReplacePending, 2, false},
	{WebSocket, ModeUpgrade, NoTransport, NoTransport, Proceed, 4, false},
	{WebSocket, ModeUpgrade, NoTransport, WebSocket, Proceed, 4, false},
	{WebSocket, ModeUpgrade, NoTransport, HTTP, Proceed, 4, true},
	{WebSocket, ModeUpgrade, WebSocket, NoTransport, Proceed, 4, false},
	{WebSocket, ModeUpgrade, WebSocket, WebSocket, Proceed, 4, false},
	{WebSocket, ModeUpgrade, WebSocket, HTTP, Proceed, 4, false},
	{WebSocket, ModeUpgrade, HTTP, NoTransport, ReplacePending, 2, false},
	{WebSocket, ModeUpgrade, HTTP, WebSocket, ReplacePending, 2, false},
	{WebSocket, ModeUpgrade, HTTP, HTTP, ReplacePending, 2, false},
	{HTTP, ModeClean, NoTransport, NoTransport, Proceed, 4, true},
	{HTTP, ModeClean, NoTransport, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeClean, NoTransport, HTTP, Proceed, 4, false},
	{HTTP, ModeClean, WebSocket, NoTransport, DiscardCandidate, 1, true},
	{HTTP, ModeClean, WebSocket, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeClean, WebSocket, HTTP, DiscardCandidate, 1, false},
	{HTTP, ModeClean, HTTP, NoTransport, Proceed, 4, false},
	{HTTP, ModeClean, HTTP, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeClean, HTTP, HTTP, Proceed, 4, false},
	{HTTP, ModeResume, NoTransport, NoTransport, Proceed, 4, true},
	{HTTP, ModeResume, NoTransport, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeResume, NoTransport, HTTP, Proceed, 4, false},
	{HTTP, ModeResume, WebSocket, NoTransport, DiscardCandidate, 1, true},
	{HTTP, ModeResume, WebSocket, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeResume, WebSocket, HTTP, DiscardCandidate, 1, false},
	{HTTP, ModeResume, HTTP, NoTransport, Proceed, 4, false},
	{HTTP, ModeResume, HTTP, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeResume, HTTP, HTTP, Proceed, 4, false},
	{HTTP, ModeRecover, NoTransport, NoTransport, Proceed, 4, true},
	{HTTP, ModeRecover, NoTransport, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeRecover, NoTransport, HTTP, Proceed, 4, false},
	{HTTP, ModeRecover, WebSocket, NoTransport, DiscardCandidate, 1, true},
	{HTTP, ModeRecover, WebSocket, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeRecover, WebSocket, HTTP, DiscardCandidate, 1, false},
	{HTTP, ModeRecover, HTTP, NoTransport, Proceed, 4, false},
	{HTTP, ModeRecover, HTTP, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeRecover, HTTP, HTTP, Proceed, 4, false},
	{HTTP, ModeUpgrade, NoTransport, NoTransport, Proceed, 4, false},
	{HTTP, ModeUpgrade, NoTransport, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeUpgrade, NoTransport, HTTP, Proceed, 4, false},
	{HTTP, ModeUpgrade, WebSocket, NoTransport, DiscardCandidate, 1, false},
	{HTTP, ModeUpgrade, WebSocket, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeUpgrade, WebSocket, HTTP, DiscardCandidate, 1, false},
	{HTTP, ModeUpgrade, HTTP, NoTransport, Proceed, 4, false},
	{HTTP, ModeUpgrade, HTTP, WebSocket, DiscardCandidate, 1, false},
	{HTTP, ModeUpgrade, HTTP, HTTP, Proceed, 4, false},
}

// DefaultShortCircuit is the proposal's short-circuit timeout: how long the
// first websocket attempt has to itself before the HTTP flow starts too.
// The proposal picked it as a placeholder; engine.Defaults() uses
// engine.DefaultShortCircuit (500 ms) with the adaptive short circuit,
// engine.AblyConfig() this value (docs/short-circuit.md).
const DefaultShortCircuit = 2 * time.Second

// Availability says which transports a client can use at all (for example,
// a browser without websockets, or a runtime with websockets only).
type Availability struct {
	WebSocket bool
	HTTP      bool
}

// FirstStep is the outcome of ChooseTransport: which transport to open
// first, on the primary host, and whether to arm the short-circuit timer.
type FirstStep struct {
	// Transport is the transport to open first: WebSocket or HTTP, or
	// NoTransport when neither is available.
	Transport TransportKind
	// ShortCircuit is how long to wait before starting the HTTP flow too;
	// 0 means arm no timer.
	ShortCircuit time.Duration
}

// ChooseTransport is the proposal's chooseTransport: when a websocket is
// available, open it on the primary host and, when HTTP is available too,
// arm the short-circuit timer for shortCircuit; otherwise open HTTP (with no
// timer). With neither available it returns the zero FirstStep: nothing to
// open.
//
// shortCircuit follows Config.ShortCircuit's rule: 0 means
// DefaultShortCircuit and a negative value is invalid. Config.Validate
// rejects a negative value with a *FieldError; ChooseTransport, which has
// no error to return, treats it as 0.
func ChooseTransport(avail Availability, shortCircuit time.Duration) FirstStep {
	switch {
	case avail.WebSocket && avail.HTTP:
		if shortCircuit <= 0 {
			shortCircuit = DefaultShortCircuit
		}
		return FirstStep{Transport: WebSocket, ShortCircuit: shortCircuit}
	case avail.WebSocket:
		return FirstStep{Transport: WebSocket}
	case avail.HTTP:
		return FirstStep{Transport: HTTP}
	}
	return FirstStep{}
}

// TransportState is what the transport-choice steps look at within one connection
// attempt: whether HTTP is available, whether the HTTP flow was already
// started in this attempt, and what is pending and active.
type TransportState struct {
	HTTPAvailable bool
	HTTPStarted   bool
	Pending       TransportKind
	Active        TransportKind
}

// startHTTP is the shared condition of both HTTP starts: HTTP exists, has
// not been started in this attempt, and nothing is pending or active.
func (a TransportState) startHTTP() bool {
	return a.HTTPAvailable && !a.HTTPStarted && a.Pending == NoTransport && a.Active == NoTransport
}

// HTTPOnWebSocketFailure reports whether to start the HTTP flow now that the
// first websocket attempt has failed. Before the short-circuit timer fires
// this is the proposal's "if called back with an err within 2 s, skip to
// chooseHttpTransport": yes, at once, rather than waiting for the timer
// (outcome 4). After it fired, HTTP has normally started already; if it has
// not (because the websocket was pending then), it starts now, so a
// websocket that fails late never leaves the attempt with nothing in flight.
// The caller cancels the short-circuit timer when this returns true.
func HTTPOnWebSocketFailure(a TransportState) bool { return a.startHTTP() }

// HTTPOnShortCircuit reports whether to start the HTTP flow when the
// short-circuit timer fires: only if nothing is pending or active (the
// proposal's "if after that time is no transport pending or active") and
// HTTP has not been started already.
func HTTPOnShortCircuit(a TransportState) bool { return a.startHTTP() }

// UpgradeAfterActivation is the existing upgrade mechanism: when the
// transport just activated is HTTP and a websocket is available, open a
// websocket in ModeUpgrade on the same host; it returns (WebSocket,
// ModeUpgrade). Otherwise it returns (NoTransport, ModeClean): nothing to
// open. When the upgrade websocket connects, it becomes active and the HTTP
// transport is disposed.
func UpgradeAfterActivation(activated TransportKind, avail Availability) (TransportKind, Mode) {
	if activated == HTTP && avail.WebSocket {
		return WebSocket, ModeUpgrade
	}
	return NoTransport, ModeClean
}

// enumName is the String of every enum of the package: the name at index
// i, or "Type(i)" for a value outside the enum or without a name.
func enumName(names []string, i int, typ string) string {
	if i >= 0 && i < len(names) && names[i] != "" {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}
