// Package rows is the engine's behaviour as data: what one Step does, row
// by row. docs/engine.md's tables are generated from this table
// (go test -run Rows ./engine -args -update), the scenario oracle lists the
// rows each scenario pins, Match finds the rows an engine step is an
// instance of, and reconnect explain annotates a timeline with them. It
// is long because it is one table, in document order.
package rows

import "strings"

// Each scenario of fixtures/scenarios.json lists the rows it pins (its
// "rows" field, filled from Pins), and the engine's TestRowsAgainstScenarios
// replays every pinned scenario through the engine and checks that a step
// of it matches the row: same policy, same state before the event, an event
// the row names, and the engine's actions, in the order it emits them,
// matched by the row's action templates.
//
// Templates are the fixture grammar with placeholders: a token <…> matches
// any non-empty text, a|b matches either, a token … at the end of an action
// matches any further tokens (none included), and an action … matches any
// run of actions (none included).

// Row is one row of docs/engine.md.
type Row struct {
	// ID is stable: never reused for another behaviour.
	ID string
	// Table is the docs/engine.md table the row is in.
	Table string
	// Policies lists the policies the row applies to: wf, hf, wc.
	Policies []string
	// States are the states before the event ("any" for every state).
	States []string
	// Events are the event templates that select the row ("any" for every
	// event).
	Events []string
	// When is the condition that selects the row among those with the same
	// policy, state and event.
	When string
	// Actions are the action templates, in the order the engine emits
	// them; empty means no action at all.
	Actions []string
	// Without are action templates of which no action of the step may be
	// an instance.
	Without []string
	// Spec names the spec point or the decision the row follows.
	Spec string
	// Pins are scenarios of fixtures/scenarios.json that pin the row.
	Pins []string
	// OnePath marks a row whose code path does not depend on the policy
	// (the event is dropped before any policy is consulted, or the option
	// acts the same under each): one policy's scenario pins it for all.
	OnePath bool
	// Placeholder marks a row whose behaviour is being decided elsewhere:
	// documented, not yet pinned.
	Placeholder bool
}

var (
	allStates = "initialized|connecting|connected|disconnected|suspended|closing|closed|failed"

	allP = []string{"wf", "hf", "wc"}
	wfhf = []string{"wf", "hf"}
	wfP  = []string{"wf"}
	hfP  = []string{"hf"}
	wcP  = []string{"wc"}
)

// row builds a Row; states and events are written "a|b|c".
func row(id, table string, pol []string, states, events, when, spec string, pins []string, actions ...string) Row {
	return Row{ID: id, Table: table, Policies: pol, States: strings.Split(states, "|"), Events: strings.Split(events, " / "),
		When: when, Actions: actions, Spec: spec, Pins: pins}
}

func pins(ids ...string) []string { return ids }

// Common action templates.
const (
	any_        = "…"
	openConnect = "timer connect T<n> at=<now+connectTimeout>"
	cancelConn  = "cancel connect T<n>"
	disposeTn   = "dispose T<n>"
	retryTimer  = "timer retry at=<now+retryIn>"
	ttlTimer    = "timer state-ttl at=<now+connectionStateTtl>"
	toConnected = "state connecting connected connected"
)

// All is the whole table, in document order: the rows below, then those
// of what the server says (server.go), each with its further pins (the
// maps below and the pins_*.go files).
var All = assemble()

// tableRows are the rows of the transports, timers, checks and requests.
var tableRows = []Row{
	// ---- Starting an attempt: the first transports, by policy ----
	row("WF-START-ws-1", "start", wfP, "any", "any",
		"websocket-first, both transports available, no RTN17f1 redirect pending, no flapping hold, no remembered HTTP in force: the websocket on the attempt's first host with the short circuit",
		"transport-fallback: websocket first", pins("outcome-1-websocket-within-short-circuit", "immediate-reconnect-at-most-once-a-second", "short-circuit-zero-means-default", "short-circuit-zero-means-default-on-reconnect", "http-drops-do-not-count-as-flapping"),
		any_, "state <from> connecting <reason>", "open T<n> websocket <host> <mode>", openConnect, "timer short-circuit at=<now+shortCircuit>", any_),
	row("WF-START-one-transport-2", "start", wfP, "any", "any",
		"websocket-first with one transport available: that transport walks the hosts on its own, no short circuit",
		"transport-fallback; RTN17", pins("websocket-only-walks-the-hosts", "websocket-first-http-only", "websocket-only-connect-has-no-short-circuit", "websocket-only-close-while-connecting", "fallback-order-drawn-once-websocket-only"),
		any_, "state <from> connecting <reason>", "open T<n> <transport> <host> <mode>", openConnect, any_),
	row("HF-START-http-1", "start", hfP, "any", "any",
		"HTTP-first, no RTN17f1 redirect pending, no remembered HTTP to check: HTTP on the attempt's first host (a websocket when HTTP is not available)",
		"transport-fallback: the policy it replaced", pins("http-first-policy-upgrades", "http-first-host-fallback-then-upgrade-on-that-host", "http-first-websocket-only"),
		any_, "state <from> connecting <reason>", "open T<n> http|websocket <host> <mode>", openConnect, any_),
	row("WH-START-redirect-1", "start", wfhf, "any", "any",
		"an RTN17f1 redirect is pending (a DISCONNECTED 500–504 ended the last connection) and there is a fallback host: the connectivity check first; its up opens the first transports on the first fallback host (WH-CONNECTING-connectivity-2)",
		"RTN17f1", pins("server-disconnected-503-while-connected-goes-to-a-fallback-host"),
		any_, "state <from> connecting <reason>", "check C<n>", "timer connectivity-check at=<now+httpRequestTimeout>", any_),
	row("WH-START-remembered-http-1", "start", wfhf, "any", "any",
		"rememberTransport, a remembered HTTP in force at the wall clock, HTTP available: HTTP alone, with the websocket check in the background when websockets are available",
		"transport preference (RememberTransport)", pins("preference-remembered-http-under-websocket-first-races-the-websocket", "preference-remembered-http-viable-before-the-check-passes", "preference-under-http-first-websocket-replaces-pending-http", "preference-check-fails-under-http-first"),
		any_, "state <from> connecting <reason>", "check-websocket C<n>", "open T<n> http <host> <mode>", openConnect, any_),
	row("WH-START-flap-hold-1", "start", wfhf, "any", "any",
		"the flapping guard's hold is in force: HTTP alone (no short circuit, no background websocket check); the guard is checked before the remembered transport",
		"decision: the flapping guard", pins("flapping-websocket-prefers-http-for-a-while", "flapping-http-drop-during-the-hold-stays-on-http", "flapping-under-http-first", "flapping-window-includes-its-end", "flapping-drop-exactly-a-window-old-counts"),
		any_, "state <from> connecting <reason>", "open T<n> http <host> <mode>", openConnect, any_),
	row("WC-START-ws-1", "start", wcP, "any", "any",
		"websocket-check, websockets available, no RTN17f1 redirect, no remembered HTTP in force: the attempt limit, the slow and give-up timers (before the websocket opens), then the websocket on the primary host",
		"ably-js 2.28.0 connectionmanager", pins("websocket-check-ably-js-rejected-websocket", "preference-forgotten-when-its-transport-fails", "websocket-check-drop-with-599-reconnects-on-the-primary"),
		any_, "state <from> connecting <reason>", "timer attempt at=<now+giveUp+connectTimeout>", "timer websocket-slow at=<now+slow>",
		"timer websocket-give-up at=<now+giveUp>", "open T<n> websocket <host> <mode>", openConnect, any_),
	row("WC-START-remembered-http-2", "start", wcP, "any", "any",
		"websocket-check with a remembered HTTP in force at the wall clock: the attempt limit, the websocket check in the background (when websockets are available), HTTP; no slow or give-up timer",
		"transport preference; ably-js 2.28.0", pins("preference-remembered-http-returns-to-websocket", "preference-http-remembered-after-a-drop", "preference-in-force-one-millisecond-before-its-ttl"),
		any_, "state <from> connecting <reason>", "timer attempt at=<now+giveUp+connectTimeout>", "check-websocket C<n>", "open T<n> http <host> <mode>", openConnect, any_),
	row("WC-START-redirect-3", "start", wcP, "any", "any",
		"websocket-check with an RTN17f1 redirect pending and a fallback host: the attempt limit, the slow and give-up timers, then the connectivity check; its up opens the websocket on the first fallback host (ALL-CONNECTING-connectivity-1)",
		"RTN17f1; ably-js 2.28.0", pins("websocket-check-disconnected-503-before-connected-goes-to-a-fallback-host", "websocket-check-504-before-connected-goes-to-a-fallback-host"),
		any_, "state <from> connecting <reason>", "timer attempt at=<now+giveUp+connectTimeout>", "timer websocket-slow at=<now+slow>",
		"timer websocket-give-up at=<now+giveUp>", "check C<n>", "timer connectivity-check at=<now+httpRequestTimeout>", any_),
	row("WC-START-http-only-4", "start", wcP, "any", "any",
		"websocket-check without websockets: the attempt limit, then HTTP walks the hosts as under the other policies (no slow or give-up timer)",
		"ably-js 2.28.0", pins("websocket-check-http-only"),
		any_, "state <from> connecting <reason>", "timer attempt at=<now+giveUp+connectTimeout>", "open T<n> http <host> <mode>", openConnect, any_),
	row("WC-START-expired-preference-5", "start", wcP, "any", "any",
		"a remembered transport whose time plus preferenceTtl (24 h) is not after the wall clock is not in force: the policy's own start (WC-START-ws-1)",
		"transport preference: in force", pins("preference-expired-at-its-ttl"),
		any_, "state <from> connecting <reason>", "timer attempt at=<now+giveUp+connectTimeout>", "timer websocket-slow at=<now+slow>", any_),

	row("ALL-START-mode-clean-1", "start", allP, "any", "any",
		"the connection has not been CONNECTED since the last connect from INITIALIZED, CLOSED, FAILED or CLOSING: every transport of the attempt opens in mode clean (retries and connect-now included)",
		"RTN11; decision: reconnects use resume", pins("close-from-disconnected-then-connect-afresh", "connect-now-from-disconnected-and-suspended", "tour-life-websocket-first", "tour-life-http-first", "tour-life-websocket-check"),
		any_, "state <from> connecting <reason>", any_, "open T<n> <transport> <host> clean", any_),
	row("ALL-START-mode-resume-2", "start", allP, "any", "any",
		"the connection has been CONNECTED since the last connect from INITIALIZED, CLOSED, FAILED or CLOSING: every transport of the attempt (the immediate reconnect, a retry, network-up, connect-now, from DISCONNECTED or SUSPENDED) opens in mode resume",
		"RTN15c, RTN14h", pins("immediate-reconnect-at-most-once-a-second", "tour-life-websocket-first", "tour-life-http-first", "tour-life-websocket-check"),
		any_, "state <from> connecting <reason>", any_, "open T<n> <transport> <host> resume", any_),

	// ---- Connect, close, fatal ----
	row("ALL-INITIALIZED-connect-1", "requests", allP, "initialized|closed|failed", "connect",
		"a fresh connection: the retry count, the error, the resume state (mode clean) and whether connectionStateTtl has passed are forgotten; a pending RTN17f1 redirect is dropped; the attempt starts (START rows), then the connectionStateTtl timer",
		"RTN11, RTN11d", pins("outcome-1-websocket-within-short-circuit", "close-from-disconnected-then-connect-afresh", "fatal-error-then-connect", "fresh-connect-forgets-that-state-ttl-passed", "fresh-connect-forgets-a-pending-redirect", "fatal-then-connect-counts-from-one", "close-then-connect-counts-from-one-http-first"),
		"state <from> connecting connect-requested", any_, ttlTimer),
	row("ALL-DISCONNECTED-connect-1", "requests", allP, "disconnected|suspended", "connect",
		"connect now: the retry timer is cancelled and the attempt starts (START rows); the state-TTL timer is not restarted",
		"RTN11c", pins("connect-now-from-disconnected-and-suspended"),
		"cancel retry", "state <from> connecting connect-requested", any_),
	row("ALL-CONNECTING-connect-1", "requests", allP, "connecting|connected", "connect",
		"ignored", "RTN11e", pins("bad-events-are-ignored", "connect-now-from-disconnected-and-suspended")),
	row("ALL-CLOSING-connect-1", "requests", allP, "closing", "connect",
		"a new connection with new transports (RTN11b): every transport disposed (the closing connection's active transport, or the transports in flight of an attempt a close interrupted) and every timer cancelled (close included), so that the old connection's CLOSED, or any late event of its transports, changes nothing; then as from CLOSED (ALL-INITIALIZED-connect-1): a fresh connection, mode clean, the state-TTL timer last; what the closing connection's server said is forgotten with it (its connectionStateTtl no longer holds: the configured one times this connection, as after a connect from CLOSED)",
		"RTN11b", pins("tour-life-websocket-first", "tour-life-http-first", "tour-life-websocket-check"),
		any_, "state closing connecting connect-requested", any_, ttlTimer),
	row("ALL-CONNECTED-close-1", "requests", allP, "connected", "close",
		"every transport but the active one is disposed, the attempt timers and the flap-hold timer are cancelled, CLOSING, then the close timer; entering CLOSING is the SDK's cue to send CLOSE",
		"RTN12, RTN12a", pins("close-from-connected", "flapping-close-cancels-the-hold"),
		any_, "state connected closing close-requested", "timer close at=<now+closingTimeout>"),
	row("ALL-DISCONNECTED-close-1", "requests", allP, "initialized|disconnected|suspended", "close",
		"no transport is active or in flight: everything stops (every timer cancelled, the retry included), CLOSED at once; from INITIALIZED too (the spec names no state for it; nothing is open)",
		"RTN12d", pins("close-from-initialized", "close-from-disconnected-then-connect-afresh", "close-from-suspended", "close-then-connect-counts-from-one-http-first", "websocket-check-close-in-every-state"),
		any_, "state <from> closed close-requested"),
	row("WH-CONNECTING-close-1", "requests", wfhf, "connecting", "close",
		"a transport of the attempt is in flight: every timer but the transports' connect timers cancelled (the attempt starts nothing more: no other transport, no other host, the connectivity check forgotten), CLOSING at once; the transports in flight go on (WH-CLOSING-connected-1, WH-CLOSING-lost-1, WH-CLOSING-lost-last-2)",
		"RTN12f", pins("close-from-connecting", "close-while-connecting-the-other-transport-connects", "close-while-connecting-http-first-both-transports-lost", "websocket-only-close-while-connecting", "preference-background-check-counts-after-close"),
		any_, "state connecting closing close-requested"),
	row("WH-CONNECTING-close-nothing-left-2", "requests", wfhf, "connecting", "close",
		"no transport of the attempt is in flight (a fallback or RTN17f1 connectivity check is): every timer cancelled, CLOSING, then CLOSED in the same step (the attempt cannot succeed); the check's answer is ignored",
		"RTN12f", pins("close-while-connecting-with-nothing-in-flight", "close-while-connecting-with-nothing-in-flight-http-first"),
		any_, "state connecting closing close-requested", "state closing closed closed"),
	row("WC-CONNECTING-close-1", "requests", wcP, "connecting", "close",
		"websocket-check: the attempt ends at once, as ably-js's closeImpl does: every transport disposed, every timer cancelled, CLOSING, then CLOSED in the same step",
		"RTN12f; ably-js 2.28.0", pins("tour-life-websocket-check"),
		any_, "state connecting closing close-requested", "state closing closed closed"),
	row("ALL-CLOSING-close-1", "requests", allP, "closing|closed|failed", "close",
		"ignored (FAILED stays until a connect: RTN27h)", "RTN12; RTN27h", pins("close-from-connected-times-out", "close-from-initialized", "fatal-error-then-connect", "websocket-check-close-in-every-state")),
	row("ALL-CLOSING-closed-1", "requests", allP, "closing", "closed T<n> … / failed T<n> …",
		"the active transport (also one activated while CLOSING: WH-CLOSING-connected-1) closes or fails: every transport disposed, the close timer cancelled, CLOSED",
		"RTN12, RTN12c", pins("close-from-connected", "flapping-close-cancels-the-hold", "close-from-connecting"),
		disposeTn, any_, "cancel close", "state closing closed closed"),
	row("ALL-CLOSING-timer-close-1", "requests", allP, "closing", "timer close",
		"closingTimeout (realtimeRequestTimeout unless set) without the close completing: every transport disposed, CLOSED",
		"RTN12b", pins("close-from-connected-times-out", "close-while-connecting-the-other-transport-connects"),
		disposeTn, any_, "state closing closed closed"),
	row("WH-CLOSING-connected-1", "requests", wfhf, "closing", "connected T<n>",
		"a transport of the attempt a close interrupted receives CONNECTED (RTN12f: \"then do as specified in RTN12a\"): its connect timer cancelled, it becomes the active transport (ActionActivateTransport while CLOSING: the SDK sends CLOSE on it), every other transport disposed, the close timer; no state change, no upgrade, the transport preference unchanged. A transport still opening is viable first (its decision may dispose a pending transport before it activates, or discard it: then nothing more)",
		"RTN12f, RTN12a", pins("close-from-connecting", "close-while-connecting-the-other-transport-connects", "tour-life-websocket-first", "tour-life-http-first"),
		any_, cancelConn, "activate T<n>", any_, "timer close at=<now+closingTimeout>"),
	row("WH-CLOSING-lost-1", "requests", wfhf, "closing", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"a transport of the attempt a close interrupted is lost (or discarded by the setTransportPending rules) while another is still in flight: it is disposed, nothing else",
		"RTN12f", pins("close-while-connecting-the-other-transport-connects", "close-while-connecting-http-first-both-transports-lost"),
		any_, disposeTn),
	row("WH-CLOSING-lost-last-2", "requests", wfhf, "closing", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"the last transport of the attempt a close interrupted is lost: the attempt did not succeed, CLOSED (no failure)",
		"RTN12f", pins("websocket-only-close-while-connecting", "close-while-connecting-http-first-both-transports-lost", "preference-background-check-counts-after-close", "tour-life-websocket-first", "tour-life-http-first"),
		any_, disposeTn, "state closing closed closed"),
	row("ALL-ANY-fatal-1", "requests", allP, "initialized|connecting|connected|disconnected|suspended|closing", "fatal <failure>",
		"everything stops, FAILED carrying the fatal failure",
		"RTN14b, RTN4f", pins("fatal-error-then-connect", "fatal-then-connect-counts-from-one"),
		any_, "state <from> failed fatal error=<failure>"),
	row("ALL-FAILED-fatal-1", "requests", allP, "closed|failed", "fatal <failure>",
		"ignored", "RTN14b", pins("fatal-and-network-events-ignored-when-closed")),

	// ---- Transports turning viable ----
	row("WH-CONNECTING-viable-proceed-1", "transports", wfhf, "connecting|connected|closing", "viable T<n>",
		"rule 4: nothing pending or active stands in the way (or an upgrade websocket beside active HTTP): the transport becomes pending, no action; so too while CLOSING, for a transport of the attempt a close interrupted (RTN12f)",
		"setTransportPending rule 4", pins("outcome-1-websocket-within-short-circuit", "outcome-3-late-websocket-discarded-then-upgrade", "preference-under-http-first-websocket-replaces-pending-http", "http-first-host-fallback-then-upgrade-on-that-host", "close-from-connecting", "close-while-connecting-the-other-transport-connects", "tour-life-http-first")),
	row("WH-CONNECTING-viable-http-2", "transports", wfhf, "connecting|closing", "viable T<n>",
		"rule 1: HTTP turns viable while a websocket is pending: HTTP is disposed and nothing else changes (a displaced flow transport is noted: if that websocket is lost, HTTP opens again on its host)",
		"setTransportPending rule 1", pins("outcome-2-http-discarded-while-websocket-pending", "liveness-websocket-killed-after-http-discarded", "preference-under-http-first-http-discarded"),
		cancelConn, disposeTn),
	row("WH-CONNECTING-viable-ws-3", "transports", wfhf, "connecting|closing", "viable T<n>",
		"rule 2: a websocket turns viable while HTTP is pending: the pending HTTP is disposed (noted as displaced), the websocket becomes pending",
		"setTransportPending rule 2", pins("outcome-2-websocket-replaces-pending-http", "liveness-websocket-killed-after-displacing-pending-http", "preference-under-http-first-websocket-replaces-pending-http"),
		cancelConn, disposeTn),
	row("WC-CONNECTING-viable-1", "transports", wcP, "connecting", "viable T<n>",
		"websocket-check: a transport that opens ends its own connect timer and the slow and give-up timers (those still running), then the setTransportPending rules as above",
		"ably-js 2.28.0", pins("websocket-check-timers-end-when-the-websocket-opens", "websocket-check-disconnected-503-before-connected-goes-to-a-fallback-host"),
		cancelConn, "cancel websocket-slow", "cancel websocket-give-up"),
	row("WC-CONNECTING-viable-http-2", "transports", wcP, "connecting", "viable T<n>",
		"websocket-check: HTTP turns viable with neither the slow nor the give-up timer running (after the give-up point or a failed websocket check, on a remembered HTTP, without websockets): its connect timer cancelled, nothing else (WC-CONNECTING-viable-1 with no watch timer left to cancel)",
		"ably-js 2.28.0", nil,
		cancelConn),

	// ---- Transports connecting (activation) ----
	row("ALL-CONNECTING-connected-1", "transports", allP, "connecting", "connected T<n>",
		"a pending transport (or an opening one: treated as viable first) activates and no upgrade follows (a websocket; or HTTP under websocket-check or without websockets): its connect timer cancelled, activate, the attempt timers cancelled, a websocket disposes every other transport, the state-TTL timer cancelled (it does not run after SUSPENDED), CONNECTED; the retry count resets",
		"RTN14, RTN15; activating a websocket closes the rest", pins("outcome-1-websocket-within-short-circuit", "outcome-2-http-still-opening-when-websocket-activates", "websocket-check-ably-js-rejected-websocket", "field-no-retry-spam-when-a-proxy-drops-every-connection", "http-first-websocket-only", "preference-under-http-first-http-discarded", "immediate-reconnect-exactly-one-second-later-http-first"),
		any_, "activate T<n>", any_, toConnected),
	row("WH-CONNECTING-connected-http-2", "transports", wfhf, "connecting", "connected T<n>",
		"HTTP activates, websockets available, no flapping hold: as above (a websocket not in upgrade mode still opening is disposed: WH-CONNECTING-opening-ws-at-http-activation-1), then the upgrade websocket on HTTP's host",
		"transport-fallback: the upgrade", pins("outcome-3-late-websocket-discarded-then-upgrade", "http-first-policy-upgrades", "outcome-4-websocket-fails-immediately", "preference-under-http-first-websocket-replaces-pending-http", "http-drops-do-not-count-as-flapping-failed"),
		any_, "activate T<n>", any_, toConnected, "open T<n> websocket <host> upgrade", openConnect),
	row("WH-CONNECTING-connected-http-hold-3", "transports", wfhf, "connecting", "connected T<n>",
		"HTTP activates during the flapping hold: no upgrade; the flap-hold timer starts, due at the hold's end, unless it is running already; the remembered transport (HTTP, websocket-unstable, at the drop that started the hold) is not overwritten by this activation",
		"decision: the flapping guard", pins("flapping-websocket-prefers-http-for-a-while", "flapping-close-cancels-the-hold", "flapping-under-http-first", "flapping-hold-keeps-the-remembered-websocket-unstable", "flapping-drop-exactly-a-window-old-counts"),
		any_, "activate T<n>", any_, toConnected, "timer flap-hold at=<hold-end>"),
	row("WH-CONNECTED-connected-upgrade-1", "transports", wfhf, "connected", "connected T<n> …",
		"the upgrade websocket activates: its connect timer cancelled, the active HTTP disposed (its idle timer cancelled), activate (and any other transport disposed), then an update (reason transport, carrying the CONNECTED message's error if any: RTN4h) instead of a state change, then the new transport's idle timer (ALL-CONNECTING-connected-idle-2)",
		"transport-fallback: the upgrade; RTN4h", pins("outcome-3-late-websocket-discarded-then-upgrade", "http-first-policy-upgrades", "preference-under-http-first-websocket-replaces-pending-http", "server-upgrade-is-an-update"),
		cancelConn, disposeTn, any_, "activate T<n>", any_, "update transport …", any_),
	row("ALL-CONNECTED-connected-duplicate-1", "transports", allP, "connected", "connected T<n> / viable T<n>",
		"the active transport again (a duplicate): ignored", "decision: duplicates", pins("bad-events-are-ignored")),
	row("ALL-ANY-transport-stale-1", "transports", allP, allStates, "viable T<n> / connected T<n> / failed T<n> <failure> / closed T<n> …",
		"a transport the engine never opened (T0 included), has disposed, or (viable) that is already pending or active: ignored",
		"decision: stale events and duplicates", pins("bad-events-are-ignored", "close-from-connecting", "connectivity-down-closes-what-is-still-open", "field-no-retry-spam-when-a-proxy-drops-every-connection")),
	row("WH-CONNECTING-opening-ws-at-http-activation-1", "transports", wfhf, "connecting", "connected T<n>",
		"HTTP activates while a websocket not in upgrade mode (clean, resume or recover) is still opening: that websocket's connect timer is cancelled and it is disposed right after the activation, before the state change; it could only ever be discarded by rule 3 when it turned viable, and the upgrade websocket opened in the same step tries the same host",
		"setTransportPending rule 3, applied at activation (decision)", pins("outcome-3-late-websocket-discarded-then-upgrade", "outcome-5-websocket-never-connects", "rule-3-at-activation-resume-websocket", "preference-under-http-first-resume-websocket-too-late"),
		any_, "activate T<n>", cancelConn, disposeTn, any_, toConnected, "open T<n> websocket <host> upgrade", openConnect),

	// ---- Transports lost before CONNECTED ----
	row("WF-CONNECTING-lost-first-ws-1", "losses", wfP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"the short-circuit websocket is lost while HTTP has not started and nothing is pending or active: HTTP starts at once on the attempt's first host (the short-circuit timer cancelled first if it still runs; it has fired already when the websocket turned viable before it and was lost after)",
		"transport-fallback outcome 4", pins("outcome-4-websocket-fails-immediately", "fallback-order-through-every-step", "short-circuit-websocket-lost-after-the-short-circuit-fired-starts-http"),
		any_, disposeTn, any_, "open T<n> http <host> <mode>", openConnect),
	row("WH-CONNECTING-lost-first-ws-2", "losses", wfhf, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"the websocket that displaced the flow's HTTP (rules 1, 2) is lost before CONNECTED: HTTP opens again on the host where it was displaced",
		"decision: liveness", pins("liveness-websocket-killed-after-displacing-pending-http", "liveness-http-reopened-on-its-fallback-host", "preference-under-http-first-websocket-replaces-pending-http"),
		any_, disposeTn, "open T<n> http <host> <mode>", openConnect),
	row("ALL-CONNECTING-lost-flow-fallback-1", "losses", allP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"the flow transport fails with a qualifying failure (RSC15l: dns, unreachable, refused, timeout, 500–504, CloudFront ≥ 400; DISCONNECTED 500–504) and a fallback host remains (every fallback host under websocket-first and HTTP-first, RTN17j; at most httpMaxRetryCount under websocket-check, as ably-js): the connectivity check, whatever else is still in flight (a short-circuit websocket still opening included); under websocket-check HTTP is the flow after the switch and walks the hosts so, even after a failed websocket check",
		"RTN17, RSC15l, RTN17j", pins("fallback-order-through-every-step", "fallback-cloudfront-4xx-qualifies", "websocket-only-walks-the-hosts", "websocket-check-attempt-limit", "http-first-host-fallback-then-upgrade-on-that-host", "websocket-check-http-walks-the-hosts-after-a-failed-check", "fallback-order-drawn-once-http-first", "websocket-check-walks-at-most-three-fallback-hosts"),
		any_, disposeTn, "check C<n>", "timer connectivity-check at=<now+httpRequestTimeout>"),
	row("WH-CONNECTING-lost-in-flight-2", "losses", wfhf, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"something else of the attempt is still in flight (a transport, a fallback or RTN17f1 connectivity check, the short-circuit timer) and no row above applies (the flow's qualifying failure with a host left asks for the check even while the short-circuit websocket is still opening: ALL-CONNECTING-lost-flow-fallback-1 comes first): the transport is disposed, nothing else",
		"transport-fallback", pins("connect-timeout", "suspended-the-moment-connection-state-ttl-passes-mid-attempt", "preference-under-http-first-websocket-lost-beside-http"),
		any_, disposeTn),
	row("ALL-CONNECTING-lost-end-3", "losses", allP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"nothing is left in flight (no live transport, no fallback or RTN17f1 connectivity check, no short-circuit timer; the slow check and a background websocket check do not count) and no fallback host qualifies (or none remains): DISCONNECTED with an RTB1 retry, carrying the attempt's last transport failure (under websocket-check with the websocket flow, WC-CONNECTING-lost-walk-over-passed-6 says when, with the same actions)",
		"RTN14d, RTB1, RSC15l", pins("first-retry-not-after-a-failed-first-connect", "fallback-not-for-a-4xx", "connect-timeout", "fallback-order-through-every-step", "fallback-order-drawn-once-http-first", "websocket-check-walks-at-most-three-fallback-hosts", "errors-the-last-failure-of-the-attempt", "websocket-check-slow-check-does-not-hold-the-attempt", "websocket-only-connect-has-no-short-circuit", "clean-close-keeps-the-attempts-failure", "clean-close-keeps-the-attempts-failure-websocket-check"),
		any_, disposeTn, any_, "state connecting disconnected connect-failed retryIn=<retryIn> …", retryTimer),
	row("ALL-CONNECTING-lost-suspended-4", "losses", allP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"as ALL-CONNECTING-lost-end-3 once connectionStateTtl has passed without a connection: SUSPENDED with suspendedRetryTimeout, carrying that failure or timeout when none failed (RTN14e: SUSPENDED always carries a reason)",
		"RTN14e", pins("retry-sequence-15-20-25-30-then-suspended-flat", "http-first-failed-attempt-from-suspended-stays-suspended", "websocket-check-failed-attempt-from-suspended-stays-suspended"),
		any_, disposeTn, any_, "state connecting suspended connect-failed retryIn=<suspendedRetryTimeout> …", retryTimer),
	row("WC-CONNECTING-lost-walk-over-1", "losses", wcP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"websocket-check: the websocket walk is over — the websocket failed on the last host, or with a failure that does not qualify while hosts remain (no other host will be tried) — with nothing else in flight, HTTP available and no websocket check asked yet in this walk: the websocket check, at once",
		"ably-js 2.28.0", pins("websocket-check-ably-js-rejected-websocket", "websocket-check-walk-failed-before-the-slow-point", "websocket-check-failed-attempt-from-suspended-stays-suspended", "websocket-check-failure-that-does-not-qualify-ends-the-walk"),
		any_, disposeTn, "check-websocket C<n>"),
	row("WC-CONNECTING-lost-walk-over-2", "losses", wcP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"websocket-check with HTTP available: the websocket walk is over while the walk's websocket check is in flight: nothing more; the give-up timer decides (without HTTP: WC-CONNECTING-lost-walk-over-passed-6)",
		"ably-js 2.28.0", pins("websocket-check-no-answer-give-up-decides"),
		any_, disposeTn),
	row("WC-CONNECTING-lost-after-failed-check-3", "losses", wcP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"websocket-check: the websocket check failed earlier, so the walk tries no other host: the transport is disposed, the give-up timer decides (HTTP now), or without HTTP the attempt timer (WC-CONNECTING-timer-attempt-1): nothing ends the attempt at once",
		"ably-js 2.28.0", pins("websocket-check-failed-check-stops-the-walk"),
		any_, disposeTn),
	row("WC-CONNECTING-lost-pending-503-4", "losses", wcP, "connecting", "closed T<n> … / failed T<n> <failure>",
		"websocket-check: a transport that opened closes before CONNECTED with DISCONNECTED 500–504 and a fallback host exists: everything disposed, the attempt timers cancelled, the immediate reconnect (ALL-CONNECTED-drop-1's rate limit applies) on a fallback host (WC-START-redirect-3); the state-TTL timer keeps running",
		"RTN17f1; ably-js 2.28.0", pins("websocket-check-disconnected-503-before-connected-goes-to-a-fallback-host", "websocket-check-redirect-before-connected-is-rate-limited", "websocket-check-504-before-connected-goes-to-a-fallback-host"),
		any_, "cancel attempt", any_, "state connecting disconnected dropped retryIn=0 …", "state disconnected connecting reconnect", any_),
	row("WC-CONNECTING-lost-pending-5", "losses", wcP, "connecting", "closed T<n> … / failed T<n> <failure>",
		"websocket-check: a transport that opened closes before CONNECTED for any other failure: everything disposed, DISCONNECTED (connect-failed)",
		"ably-js 2.28.0", pins("websocket-check-opened-then-closed-before-connected"),
		any_, disposeTn, any_, "state connecting disconnected connect-failed retryIn=<retryIn> …", retryTimer),
	row("WC-CONNECTING-lost-walk-over-passed-6", "losses", wcP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"websocket-check: the websocket walk is over (as WC-CONNECTING-lost-walk-over-1) after the walk's websocket check passed, or without HTTP when the check was not asked, is in flight or passed (a failed one: WC-CONNECTING-lost-after-failed-check-3): the attempt timers cancelled, DISCONNECTED (connect-failed) at once, not at the give-up point",
		"ably-js 2.28.0", pins("websocket-check-walk-over-after-the-check-passed", "websocket-check-without-http-walk-over-ends-at-once"),
		any_, disposeTn, any_, "state connecting disconnected connect-failed retryIn=<retryIn> …", retryTimer),
	row("WC-CONNECTING-lost-pending-503-waits-7", "losses", wcP, "connecting", "closed T<n> … / failed T<n> <failure>",
		"as WC-CONNECTING-lost-pending-503-4 when the immediate reconnect waits: within 1 s of the last immediate reconnect (ALL-CONNECTED-drop-rate-limited-2: an RTB1 retry, one draw; once connectionStateTtl has passed, SUSPENDED with suspendedRetryTimeout, as every attempt that ends then), or with reconnectWindowMs and a draw u > immediateShare (the window's wait; its retry timer reconnects with reason reconnect unless SUSPENDED replaces it); the RTN17f1 redirect stays pending for the next attempt",
		"RTN17f1, RTN15a; storm-safe: reconnect window", pins("websocket-check-redirect-before-connected-is-rate-limited", "storm-safe-reconnect-window-replaced-at-suspended-retries", "websocket-check-rate-limited-redirect-after-suspended-stays-suspended"),
		any_, "cancel attempt", any_, "state connecting disconnected|suspended dropped retryIn=<retryIn> …", retryTimer),
	row("WH-CONNECTED-lost-other-1", "losses", wfhf, "connected", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"a transport that is not active is lost outside CONNECTING (an upgrade websocket, a late first websocket): it is disposed, nothing else",
		"transport-fallback", pins("outcome-4-websocket-fails-immediately", "outcome-5-websocket-never-connects"),
		any_, disposeTn),

	// ---- The active transport dropping ----
	row("ALL-CONNECTED-drop-1", "drops", allP, "connected", "closed T<n> … / failed T<n> <failure>",
		"the active transport drops and the last immediate reconnect was at least 1 s ago (or there was none): every transport disposed (in slot order, lowest first, the active one not first on its own), DISCONNECTED with retryIn 0 carrying the drop's failure, the immediate reconnect (START rows, reason reconnect, mode resume, no retry number), then the state-TTL timer",
		"RTN15a; decision: at most one a second", pins("immediate-reconnect-at-most-once-a-second", "field-no-sticky-websocket-failure", "immediate-reconnect-exactly-one-second-later", "immediate-reconnect-exactly-one-second-later-http-first", "short-circuit-zero-means-default-on-reconnect", "http-drops-do-not-count-as-flapping", "http-drops-do-not-count-as-flapping-failed", "drop-with-505-reconnects-on-the-primary", "websocket-check-drop-with-599-reconnects-on-the-primary"),
		any_, disposeTn, any_, "state connected disconnected dropped retryIn=0 …", "state disconnected connecting reconnect", any_, ttlTimer),
	row("ALL-CONNECTED-drop-rate-limited-2", "drops", allP, "connected", "closed T<n> … / failed T<n> <failure>",
		"the active transport drops within 1 s of the last immediate reconnect: DISCONNECTED with an RTB1 retry (one draw), then the state-TTL timer",
		"RTN15a, RTB1; decision: at most one a second", pins("immediate-reconnect-at-most-once-a-second", "field-no-retry-spam-when-a-proxy-drops-every-connection", "first-retry-not-after-a-rate-limited-drop"),
		any_, disposeTn, any_, "state connected disconnected dropped retryIn=<retryIn> …", retryTimer, ttlTimer),
	row("ALL-CONNECTED-drop-503-3", "drops", allP, "connected", "closed T<n> … / failed T<n> <failure>",
		"the drop is DISCONNECTED 500–504 and a fallback host exists (RTN17f1): the remembered transport is forgotten and the reconnect starts with the connectivity check, then a fallback host",
		"RTN17f1", pins("server-disconnected-503-while-connected-goes-to-a-fallback-host", "drop-with-504-goes-to-a-fallback-host"),
		disposeTn, any_, "state connected disconnected dropped retryIn=0 error=disconnected:<status>", "state disconnected connecting reconnect", any_, "check C<n>", "timer connectivity-check at=<now+httpRequestTimeout>", ttlTimer),
	row("ALL-CONNECTED-network-down-2", "drops", allP, "connected", "network-down",
		"the OS says the network is gone and the last immediate reconnect was at least 1 s ago (or there was none): as a drop (ALL-CONNECTED-drop-1) with reason network-down and error unreachable: every transport disposed, DISCONNECTED with retryIn 0, the immediate reconnect (START rows, reason reconnect, no retry number), then the state-TTL timer; not counted by the flapping guard; the reconnect is made although the OS says the network is down (docs/decisions.md)",
		"RTN20a, RTN15a", pins("network-down-then-up", "rule-3-at-activation-resume-websocket", "network-down-repeated-while-connected", "network-down-repeated-while-connected-http-first"),
		disposeTn, any_, "state connected disconnected network-down retryIn=0 error=unreachable", "state disconnected connecting reconnect", any_, ttlTimer),
	row("ALL-CONNECTED-network-down-rate-limited-3", "drops", allP, "connected", "network-down",
		"within 1 s of the last immediate reconnect: DISCONNECTED (network-down, error unreachable) with an RTB1 retry (one draw), then the state-TTL timer",
		"RTN20a, RTN15a, RTB1; decision: at most one a second", pins("tour-life-websocket-first", "tour-life-http-first", "tour-life-websocket-check"),
		disposeTn, any_, "state connected disconnected network-down retryIn=<retryIn> error=unreachable", retryTimer, ttlTimer),
	row("ALL-CONNECTING-network-down-2", "drops", allP, "connecting", "network-down",
		"connectionStateTtl has not passed and the last immediate reconnect was at least 1 s ago (or there was none): every transport disposed, the attempt timers cancelled, DISCONNECTED (network-down, error unreachable) with retryIn 0, then the immediate reconnect (START rows, reason reconnect, no retry number); the state-TTL timer keeps running",
		"RTN20a, RTN15a", pins("network-down-and-up-while-connecting", "tour-life-websocket-first", "tour-life-http-first", "tour-life-websocket-check"),
		any_, "state connecting disconnected network-down retryIn=0 error=unreachable", "state disconnected connecting reconnect", any_),
	row("ALL-CONNECTING-network-down-rate-limited-3", "drops", allP, "connecting", "network-down",
		"within 1 s of the last immediate reconnect: every transport disposed, the attempt timers cancelled, DISCONNECTED (network-down, error unreachable) with an RTB1 retry (block 7); the state-TTL timer keeps running",
		"RTN20a, RTN15a, RTB1; decision: at most one a second", pins("network-down-and-up-while-connecting", "network-down-repeated-while-connected", "network-down-repeated-while-connected-http-first", "tour-life-websocket-first", "tour-life-http-first", "tour-life-websocket-check"),
		any_, "state connecting disconnected network-down retryIn=<retryIn> error=unreachable", retryTimer),
	row("ALL-CONNECTING-network-down-suspended-4", "drops", allP, "connecting", "network-down",
		"once connectionStateTtl has passed without a connection: every transport disposed, the attempt timers cancelled, SUSPENDED (network-down, error unreachable) with suspendedRetryTimeout, no reconnect (block 7)",
		"RTN20a, RTN14e", pins("network-down-while-connecting-after-state-ttl-goes-suspended", "network-down-while-connecting-after-state-ttl-goes-suspended-http-first", "network-down-while-connecting-after-state-ttl-goes-suspended-websocket-check"),
		any_, "state connecting suspended network-down retryIn=<suspendedRetryTimeout> error=unreachable", retryTimer),

	// ---- Timers ----
	row("WF-CONNECTING-timer-short-circuit-1", "timers", wfP, "connecting", "timer short-circuit",
		"HTTP not started, nothing pending or active: HTTP starts on the attempt's first host",
		"transport-fallback", pins("outcome-2-websocket-replaces-pending-http", "outcome-5-websocket-never-connects", "short-circuit-zero-means-default", "short-circuit-zero-means-default-on-reconnect"),
		"open T<n> http <host> <mode>", openConnect),
	row("WF-CONNECTING-timer-short-circuit-2", "timers", wfP, "connecting", "timer short-circuit",
		"the websocket is pending: nothing", "transport-fallback: only if no transport is pending or active",
		pins("short-circuit-with-a-pending-websocket-starts-nothing")),
	row("ALL-DISCONNECTED-timer-retry-1", "timers", allP, "disconnected|suspended", "timer retry",
		"the retry: the attempt starts (START rows) with reason retry, or reconnect when it is the reconnect window's timer; the state-TTL timer is not restarted",
		"RTN14d, RTN14e", pins("retry-sequence-15-20-25-30-then-suspended-flat", "recovery-to-connected-resets-n", "storm-safe-reconnect-window", "storm-safe-reconnect-window-replaced-at-suspended-retries"),
		"state <from> connecting retry|reconnect", any_),
	row("ALL-DISCONNECTED-timer-state-ttl-1", "timers", allP, "disconnected", "timer state-ttl",
		"connectionStateTtl passed without a connection: the retry timer cancelled, SUSPENDED carrying the failure of the DISCONNECTED it leaves, or timeout when that carried none (RTN14e: emitted with the reason), the retry count reset",
		"RTN14e", pins("retry-sequence-15-20-25-30-then-suspended-flat", "network-up-while-suspended", "http-first-failed-attempt-from-suspended-stays-suspended", "websocket-check-failed-attempt-from-suspended-stays-suspended", "suspended-carries-a-timeout-when-disconnected-had-no-failure"),
		"cancel retry", "state disconnected suspended state-ttl retryIn=<suspendedRetryTimeout> …", retryTimer),
	row("ALL-CONNECTING-timer-state-ttl-2", "timers", allP, "connecting", "timer state-ttl",
		"connectionStateTtl passes mid-attempt: every transport disposed, the attempt timers cancelled, SUSPENDED at that moment, carrying the attempt's last transport failure, or timeout when none failed (RTN14e: emitted with the reason)",
		"RTN14e", pins("suspended-the-moment-connection-state-ttl-passes-mid-attempt", "websocket-check-suspended-mid-attempt", "http-first-connectivity-check-times-out-then-suspended-mid-attempt", "websocket-check-rate-limited-redirect-after-suspended-stays-suspended"),
		any_, "state connecting suspended state-ttl retryIn=<suspendedRetryTimeout> error=<failure>", retryTimer),
	row("ALL-CONNECTING-timer-connectivity-check-1", "timers", allP, "connecting", "timer connectivity-check",
		"no answer within httpRequestTimeout: the check counts as down (ALL-CONNECTING-connectivity-3); under websocket-check a fallback check of the websocket walk after a failed websocket check just ends (WC-CONNECTING-connectivity-after-failed-check-3)",
		"RTN17j", pins("connectivity-check-timeout-counts-as-down", "websocket-check-fallback-check-times-out", "http-first-connectivity-check-times-out-then-suspended-mid-attempt"),
		any_, "state connecting disconnected connectivity-down retryIn=<retryIn> …", retryTimer),
	row("WC-CONNECTING-timer-websocket-slow-1", "timers", wcP, "connecting", "timer websocket-slow",
		"the websocket walks the hosts: the websocket check (once per walk) and a connectivity check of its own with the slow-check timer",
		"ably-js 2.28.0", pins("websocket-check-ably-js-blackholed-websocket", "websocket-check-attempt-limit"),
		"check-websocket C<n>", "check C<n>", "timer slow-check at=<now+httpRequestTimeout>"),
	row("WC-CONNECTING-timer-websocket-slow-2", "timers", wcP, "connecting", "timer websocket-slow",
		"the websocket check was asked for already in this walk: the connectivity check alone",
		"ably-js 2.28.0", pins("websocket-check-walk-failed-before-the-slow-point"),
		"check C<n>", "timer slow-check at=<now+httpRequestTimeout>"),
	row("WC-CONNECTING-timer-websocket-give-up-1", "timers", wcP, "connecting", "timer websocket-give-up",
		"the websocket check has not passed and HTTP is available: every transport disposed, the slow timer and a fallback connectivity check in flight cancelled (the slow connectivity check goes on), HTTP becomes the flow on the attempt's first host (the primary) and walks the fallback hosts from there, the host order kept if drawn",
		"ably-js 2.28.0", pins("websocket-check-ably-js-blackholed-websocket", "websocket-check-no-answer-give-up-decides", "websocket-check-http-walks-the-hosts-after-a-failed-check", "websocket-check-give-up-cancels-the-fallback-check"),
		any_, "open T<n> http <host> <mode>", openConnect),
	row("WC-CONNECTING-timer-websocket-give-up-2", "timers", wcP, "connecting", "timer websocket-give-up",
		"the websocket check passed, or HTTP is not available: nothing while the walk goes on (the attempt limit decides)",
		"ably-js 2.28.0", pins("websocket-check-attempt-limit", "websocket-check-websocket-only", "websocket-check-fallback-check-times-out")),
	row("WC-CONNECTING-timer-attempt-1", "timers", wcP, "connecting", "timer attempt",
		"the attempt limit: every transport disposed, DISCONNECTED (connect-failed) however many hosts remain",
		"ably-js 2.28.0", pins("websocket-check-attempt-limit", "websocket-check-timers-end-when-the-websocket-opens"),
		any_, "state connecting disconnected connect-failed retryIn=<retryIn> …", retryTimer),
	row("WC-CONNECTING-timer-attempt-suspended-2", "timers", wcP, "connecting", "timer attempt",
		"as WC-CONNECTING-timer-attempt-1 once connectionStateTtl has passed without a connection: SUSPENDED with suspendedRetryTimeout, carrying the attempt's last failure or timeout when none failed (RTN14e)",
		"ably-js 2.28.0, RTN14e", pins("suspended-at-the-attempt-limit-carries-a-timeout-websocket-check"),
		any_, "state connecting suspended connect-failed retryIn=<suspendedRetryTimeout> …", retryTimer),
	row("WC-CONNECTING-timer-slow-check-1", "timers", wcP, "connecting", "timer slow-check",
		"the slow connectivity check did not answer: down, also after the switch to HTTP: every transport disposed, DISCONNECTED (connectivity-down)",
		"ably-js 2.28.0", pins("websocket-check-slow-check-unanswered-ends-the-attempt"),
		any_, "state connecting disconnected connectivity-down retryIn=<retryIn> …", retryTimer),
	row("WH-CONNECTED-timer-flap-hold-1", "timers", wfhf, "connected", "timer flap-hold",
		"the hold is over, HTTP active and no upgrade in flight: the upgrade websocket",
		"decision: the flapping guard", pins("flapping-websocket-prefers-http-for-a-while", "flapping-http-drop-during-the-hold-stays-on-http", "flapping-under-http-first"),
		"open T<n> websocket <host> upgrade", openConnect),
	row("ALL-ANY-timer-stale-1", "timers", allP, allStates, "timer <timer> …",
		"a timer that was cancelled, has fired already or was never started: ignored",
		"decision: stale events", pins("close-from-disconnected-then-connect-afresh")),

	// ---- Connectivity and websocket checks ----
	row("ALL-CONNECTING-connectivity-1", "checks", allP, "connecting", "connectivity C<n> up",
		"the fallback check says up: the connectivity-check timer cancelled, the host order drawn if not drawn yet in this attempt, the flow transport on the next host of the order",
		"RTN17, RTN17j", pins("fallback-order-through-every-step", "websocket-check-disconnected-503-before-connected-goes-to-a-fallback-host", "unknown-check-answer-is-ignored", "fallback-order-drawn-once-http-first", "fallback-order-drawn-once-websocket-only"),
		"cancel connectivity-check", "open T<n> <transport> <host> <mode>", openConnect),
	row("WH-CONNECTING-connectivity-2", "checks", wfhf, "connecting", "connectivity C<n> up",
		"the RTN17f1 check says up: the host order drawn, the policy's first transports (START rows) on the first fallback host",
		"RTN17f1", pins("server-disconnected-503-while-connected-goes-to-a-fallback-host", "redirected-attempt-never-returns-to-the-primary", "drop-with-504-goes-to-a-fallback-host"),
		"cancel connectivity-check", "open T<n> <transport> <host> <mode>", openConnect, any_),
	row("ALL-CONNECTING-connectivity-3", "checks", allP, "connecting", "connectivity C<n> down",
		"the check says down: no fallback host; every transport disposed, DISCONNECTED (connectivity-down) carrying the attempt's last failure",
		"RTN17j", pins("field-no-fallback-after-connectivity-down", "connectivity-down-closes-what-is-still-open", "unknown-check-answer-is-ignored-http-first"),
		"cancel connectivity-check", any_, "state connecting disconnected connectivity-down retryIn=<retryIn> …", retryTimer),
	row("ALL-CONNECTING-connectivity-suspended-4", "checks", allP, "connecting", "connectivity C<n> down",
		"as ALL-CONNECTING-connectivity-3 once connectionStateTtl has passed without a connection: SUSPENDED with suspendedRetryTimeout, carrying that failure or timeout when there is none (RTN14e)",
		"RTN17j, RTN14e", pins("uts-rtn14f-suspended-retries-until-connected", "suspended-after-connectivity-down-http-first", "suspended-after-connectivity-down-websocket-check"),
		"cancel connectivity-check", any_, "state connecting suspended connectivity-down retryIn=<suspendedRetryTimeout> …", retryTimer),
	row("WC-CONNECTING-connectivity-slow-up-1", "checks", wcP, "connecting", "connectivity C<n> up",
		"the answer names the slow check, in flight while its slow-check timer runs: up changes nothing (activation cancels slow-check, so after CONNECTED the answer is ignored: ALL-ANY-check-id-1)",
		"ably-js 2.28.0; decision: checks carry IDs", pins("websocket-check-ably-js-blackholed-websocket", "websocket-check-two-checks-answered-in-order"),
		"cancel slow-check"),
	row("WC-CONNECTING-connectivity-slow-down-2", "checks", wcP, "connecting", "connectivity C<n> down",
		"the slow check says down: every transport disposed, DISCONNECTED (connectivity-down)",
		"ably-js 2.28.0", pins("websocket-check-walk-failed-before-the-slow-point"),
		"cancel slow-check", any_, "state connecting disconnected connectivity-down retryIn=<retryIn> …", retryTimer),
	row("WC-CONNECTING-connectivity-slow-down-suspended-4", "checks", wcP, "connecting", "connectivity C<n> down",
		"as WC-CONNECTING-connectivity-slow-down-2 once connectionStateTtl has passed without a connection: SUSPENDED with suspendedRetryTimeout, carrying the attempt's last failure or timeout when none failed (RTN14e)",
		"ably-js 2.28.0, RTN14e", pins("suspended-at-connectivity-down-carries-a-timeout-websocket-check"),
		"cancel slow-check", any_, "state connecting suspended connectivity-down retryIn=<suspendedRetryTimeout> …", retryTimer),
	row("WC-CONNECTING-connectivity-after-failed-check-3", "checks", wcP, "connecting", "connectivity C<n> up / connectivity C<n> down",
		"a fallback check of the websocket walk (the RTN17f1 check of an attempt after a redirect included) answers, up or down, after a websocket check of the attempt failed: the walk tries no other host and the attempt does not end (its timer firing does nothing either); the give-up timer decides, switching to HTTP on the primary",
		"ably-js 2.28.0", pins("websocket-check-two-checks-answered-in-order", "websocket-check-fallback-check-down-after-a-failed-check"),
		"cancel connectivity-check"),
	row("ALL-ANY-connectivity-stale-1", "checks", allP, allStates, "connectivity C<n> up / connectivity C<n> down",
		"no check in flight: ignored", "decision: stale events", pins("field-no-fallback-after-connectivity-down", "bad-events-are-ignored", "websocket-check-suspended-mid-attempt")),
	row("WC-CONNECTING-websocket-check-down-1", "checks", wcP, "connecting", "websocket-check C<n> down",
		"the walk's check fails with nothing in flight (no live transport and no fallback connectivity check: the websocket walk is over): HTTP now on the primary host, as at the give-up point, also when the walk started on a fallback host after an RTN17f1 redirect (the slow timer if still running and the give-up timer cancelled)",
		"ably-js 2.28.0", pins("websocket-check-ably-js-rejected-websocket", "preference-http-remembered-after-a-drop", "clean-close-keeps-the-attempts-failure-websocket-check"),
		any_, "cancel websocket-give-up", "open T<n> http <host> <mode>", openConnect),
	row("WC-CONNECTING-websocket-check-2", "checks", wcP, "connecting", "websocket-check C<n> up / websocket-check C<n> down",
		"the walk's check answers while the walk goes on (or after the switch to HTTP): recorded (passed or failed), no action",
		"ably-js 2.28.0", pins("websocket-check-attempt-limit", "websocket-check-failed-check-stops-the-walk", "websocket-check-no-answer-give-up-decides")),
	row("WC-CONNECTING-websocket-check-up-3", "checks", wcP, "connecting", "websocket-check C<n> up",
		"the walk's check passes with nothing in flight: DISCONNECTED (connect-failed)",
		"ably-js 2.28.0", pins("websocket-check-passed-after-the-walk-failed"),
		any_, "state connecting disconnected connect-failed retryIn=<retryIn> …", retryTimer),
	row("WC-CONNECTING-preference-check-up-1", "checks", wcP, "connecting", "websocket-check C<n> up",
		"the background check of a remembered HTTP passes while connecting on HTTP: the preference is forgotten, every transport disposed, a fallback connectivity check in flight cancelled, the host order forgotten, the websocket walk starts on the primary host (the attempt limit keeps running); the walk asks its own websocket check at the slow point",
		"transport preference; ably-js 2.28.0", pins("preference-remembered-http-returns-to-websocket", "preference-check-passes-while-a-fallback-check-is-in-flight"),
		any_, "timer websocket-slow at=<now+slow>", "timer websocket-give-up at=<now+giveUp>", "open T<n> websocket <host> <mode>", openConnect),
	row("WH-CONNECTING-preference-check-up-2", "checks", wfhf, "connecting", "websocket-check C<n> up",
		"rememberTransport: the background check passes while connecting on HTTP with no transport pending or active (HTTP still opening, or failed with a fallback check in flight): the preference is forgotten and a websocket opens on the flow's current host beside whatever is in flight; the setTransportPending rules let the first win",
		"transport preference", pins("preference-remembered-http-under-websocket-first-races-the-websocket", "preference-under-http-first-websocket-replaces-pending-http", "preference-under-http-first-http-discarded", "preference-under-http-first-websocket-lost-beside-http", "preference-check-passes-after-http-failed"),
		"open T<n> websocket <host> <mode>", openConnect),
	row("WH-CONNECTING-preference-check-up-3", "checks", wfhf, "connecting", "websocket-check C<n> up",
		"rememberTransport: the background check passes after HTTP turned viable: the preference is forgotten, no action (the upgrade follows activation)",
		"transport preference", pins("preference-remembered-http-viable-before-the-check-passes", "preference-under-http-first-viable-before-the-check-passes")),
	row("ALL-CONNECTING-preference-check-down-1", "checks", allP, "connecting|connected", "websocket-check C<n> down",
		"the background check of a remembered HTTP fails: no action; HTTP carries on",
		"transport preference", pins("preference-remembered-http-websocket-still-blocked", "preference-check-fails-under-websocket-first", "preference-check-fails-under-http-first")),
	row("ALL-ANY-websocket-check-stale-1", "checks", allP, "initialized|connected|disconnected|suspended|closing|closed|failed", "websocket-check C<n> up / websocket-check C<n> down",
		"no websocket check in flight: ignored", "decision: stale events", pins("websocket-check-ably-js-blackholed-websocket", "websocket-check-suspended-mid-attempt", "websocket-check-walk-failed-before-the-slow-point")),
	row("ALL-ANY-check-id-1", "checks", allP, allStates, "connectivity C<n> up / connectivity C<n> down / websocket-check C<n> up / websocket-check C<n> down",
		"the answer names a check that is not in flight — its attempt ended, its timer fired, it was answered already or a newer check replaced it — or names C0: ignored under every policy. One exception: the background websocket check of a remembered HTTP stays in flight after CONNECTED, close and fatal (its up then only forgets the remembered transport, so the next attempt starts as the policy would); it ends when the next attempt starts, when an attempt ends (DISCONNECTED or SUSPENDED, whatever ended it), and when the connection is lost (the active transport drops, or network-down while CONNECTED). Checks are numbered C1, C2, … in the order asked, connectivity checks, websocket checks and token renewals together (ALL-CONNECTING-token-renew-1); answers may come in any order",
		"decision: checks carry IDs", pins("late-check-answer-from-an-ended-attempt-is-ignored", "preference-background-check-up-after-connected-forgets-http", "preference-background-check-counts-after-close", "unknown-check-answer-is-ignored", "unknown-check-answer-is-ignored-http-first")),

	// ---- Network ----
	row("ALL-DISCONNECTED-network-up-1", "network", allP, "disconnected|suspended", "network-up",
		"the retry timer cancelled, the attempt starts at once (START rows, reason network-up)",
		"RTN20b", pins("network-down-then-up", "network-up-while-suspended"),
		"cancel retry", "state <from> connecting network-up", any_),
	row("ALL-CONNECTING-network-up-2", "network", allP, "connecting", "network-up",
		"the attempt restarts as a new attempt: every transport disposed, the attempt timers cancelled, every per-attempt record reset (the host order is drawn again when needed), the first transports again (no state change; the connect timers and the attempt limit start afresh). A token renewal in flight is an attempt timer: cancelled, and the new attempt opens transports (a renewal a token error while CONNECTED owed the attempt was asked already and is not asked again)",
		"RTN20c", pins("network-down-and-up-while-connecting", "network-up-while-connecting-draws-the-host-order-again"),
		any_, "open T<n> <transport> <host> <mode>", openConnect, any_),
	row("ALL-ANY-network-ignored-1", "network", allP, "initialized|connected|closing|closed|failed", "network-up",
		"ignored", "RTN20", pins("fatal-error-then-connect", "fatal-and-network-events-ignored-when-closed")),
	row("ALL-ANY-network-ignored-2", "network", allP, "initialized|disconnected|suspended|closing|closed|failed", "network-down",
		"ignored", "RTN20", pins("fatal-and-network-events-ignored-when-closed")),

	// ---- Storm-safe options (opt-in) ----
	row("SS-CONNECTED-drop-window-1", "storm", allP, "connected", "closed T<n> … / failed T<n> <failure>",
		"reconnectWindowMs W > 0 and one draw u > immediateShare s: DISCONNECTED with retryIn W × (u − s)/(1 − s) (no retry number), then the state-TTL timer; the reconnect comes when that retry timer fires (ALL-DISCONNECTED-timer-retry-1, reason reconnect)",
		"storm-safe: reconnect window", pins("storm-safe-reconnect-window", "storm-safe-reconnect-window-immediate-share", "storm-safe-reconnect-window-fractional-milliseconds"),
		disposeTn, any_, "state connected disconnected dropped retryIn=<wait> …", retryTimer, ttlTimer),
	row("SS-CONNECTED-network-down-window-3", "storm", allP, "connected|connecting", "network-down",
		"reconnectWindowMs W > 0: network-down that would reconnect at once is windowed like a drop (SS-CONNECTED-drop-window-1, one draw): DISCONNECTED (network-down, error unreachable) with retryIn W × (u − s)/(1 − s), then (from CONNECTED) the state-TTL timer; u ≤ s reconnects at once (ALL-CONNECTED-network-down-2)",
		"storm-safe: reconnect window; RTN20a", pins("storm-safe-reconnect-window-network-down"),
		any_, "state connected|connecting disconnected network-down retryIn=<wait> error=unreachable", retryTimer, any_),
	row("SS-CONNECTED-drop-window-immediate-2", "storm", allP, "connected", "closed T<n> … / failed T<n> <failure>",
		"reconnectWindowMs > 0 and the draw u ≤ immediateShare s (u = s makes the wait 0, which is the immediate reconnect): as ALL-CONNECTED-drop-1",
		"storm-safe: immediate share", pins("storm-safe-reconnect-window-immediate-share", "storm-safe-reconnect-window-draw-equal-to-the-share-reconnects-at-once"),
		disposeTn, any_, "state connected disconnected dropped retryIn=0 …", "state disconnected connecting reconnect", any_, ttlTimer),
	row("SS-CONNECTING-retry-spread-1", "storm", allP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"retrySpread s > 0: every DISCONNECTED retry waits disconnectedRetryTimeout × min((n+2)/3, 2) × (1 − s·u)",
		"storm-safe: retry spread", pins("storm-safe-retry-spread", "storm-safe-retry-spread-fractional-milliseconds"),
		any_, "state connecting disconnected connect-failed retryIn=<retryIn> …", retryTimer),
	row("SS-DISCONNECTED-suspended-spread-1", "storm", allP, "disconnected|connecting", "timer state-ttl / failed T<n> <failure>",
		"suspendedSpread s > 0: every SUSPENDED retry waits suspendedRetryTimeout × (1 − s·u), one draw each",
		"storm-safe: suspended spread", pins("storm-safe-suspended-spread", "storm-safe-suspended-spread-fractional-milliseconds"),
		any_, "state <from> suspended <reason> retryIn=<retryIn> …", retryTimer),

	// ---- Retry policies and the immediate reconnect (opt-in; docs/retry-policies.md) ----
	row("SS-CONNECTING-retry-policy-1", "storm", allP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"retryFamily other than rtb1: every DISCONNECTED retry waits that family's delay for retry number n and one draw u (fullJitter, equalJitter, grpc, decorrelated of retry.json, with retryBaseMs, retryCapMs, retryMultiplier, retryJitter; decorrelated jitter's previous delay is the last DISCONNECTED retry's), gRPC's first retry drawing too",
		"retry policy", pins("retry-policy-full-jitter", "retry-policy-grpc", "retry-policy-decorrelated-jitter", "first-retry-does-not-apply-to-another-retry-family"),
		any_, "state connecting disconnected connect-failed retryIn=<retryIn> …", retryTimer),
	row("SS-CONNECTED-drop-immediate-off-1", "storm", allP, "connected", "closed T<n> … / failed T<n> <failure>",
		"immediateReconnect off: the drop never reconnects at once; as ALL-CONNECTED-drop-rate-limited-2, DISCONNECTED with the next retry number's delay (one draw), then the state-TTL timer",
		"retry policy: immediate reconnect off", pins("immediate-reconnect-off"),
		disposeTn, any_, "state connected disconnected dropped retryIn=<retryIn> …", retryTimer, ttlTimer),
	row("SS-CONNECTED-drop-immediate-limited-2", "storm", allP, "connected", "closed T<n> … / failed T<n> <failure>",
		"immediateReconnect limited to immediateReconnectIntervalMs I: a drop less than I after the last immediate reconnect is rate-limited as ALL-CONNECTED-drop-rate-limited-2; one at least I after it (or with none before) reconnects at once as ALL-CONNECTED-drop-1",
		"retry policy: immediate reconnect limited", pins("immediate-reconnect-limited"),
		disposeTn, any_, "state connected disconnected dropped retryIn=<retryIn> …", retryTimer, ttlTimer),
	row("SS-CONNECTING-first-retry-3", "storm", allP, "connecting", "failed T<n> <failure> / closed T<n> … / timer connect T<n>",
		"firstRetryMs P > 0, retryFamily rtb1 (another family governs its own delays from the first retry), and the attempt that ends follows an immediate reconnect (after a drop or network-down) by less than disconnectedRetryTimeout: DISCONNECTED with retryIn P × u for the first such retry (one draw) and P for each later one (no draw), no retry number taken; once disconnectedRetryTimeout has passed, RTB1 from retry 1; CONNECTED, SUSPENDED and a connect from initialized, closed or failed end the rule until the next immediate reconnect",
		"first retry (docs/storms.md)", pins("first-retry-after-a-failed-immediate-reconnect", "first-retry-starts-again-after-connected"),
		any_, "state connecting disconnected connect-failed retryIn=<wait> …", retryTimer),

	// ---- Time ----
	row("ALL-ANY-time-backwards-1", "time", allP, "any", "any",
		"an event stamped earlier than the latest time seen happens at that latest time: every due time is computed from it",
		"decision: time never goes backwards", pins("a-time-earlier-than-the-last-counts-as-the-last"),
		any_),
}

// tourPins are the tours (engine/testdata/scenarios/10-tours.txt) that pin
// rows too, each checked like any pin: one tour per policy makes the rows
// shared by the policies pinned under each of them.
var tourPins = map[string][]string{
	"WF-START-ws-1":                        {"tour-hosts-websocket-first", "tour-life-websocket-first"},
	"HF-START-http-1":                      {"tour-hosts-http-first", "tour-life-http-first"},
	"WH-START-redirect-1":                  {"tour-hosts-http-first", "tour-hosts-websocket-first"},
	"WC-START-ws-1":                        {"tour-hosts-websocket-check", "tour-life-websocket-check"},
	"WC-START-redirect-3":                  {"tour-hosts-websocket-check"},
	"ALL-INITIALIZED-connect-1":            {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-DISCONNECTED-connect-1":           {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CONNECTING-connect-1":             {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CONNECTED-close-1":                {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"WH-CONNECTING-close-1":                {"tour-life-http-first", "tour-life-websocket-first"},
	"ALL-CLOSING-close-1":                  {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CLOSING-closed-1":                 {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CLOSING-timer-close-1":            {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-ANY-fatal-1":                      {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-FAILED-fatal-1":                   {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CONNECTING-connected-1":           {"tour-hosts-websocket-check", "tour-hosts-websocket-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"WH-CONNECTING-connected-http-2":       {"tour-hosts-http-first", "tour-hosts-websocket-first", "tour-life-http-first"},
	"ALL-CONNECTED-connected-duplicate-1":  {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"WF-CONNECTING-lost-first-ws-1":        {"tour-hosts-websocket-first", "tour-life-websocket-first"},
	"ALL-CONNECTING-lost-flow-fallback-1":  {"tour-hosts-http-first", "tour-hosts-websocket-check", "tour-hosts-websocket-first"},
	"ALL-CONNECTING-lost-end-3":            {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"WC-CONNECTING-lost-walk-over-1":       {"tour-life-websocket-check"},
	"WH-CONNECTED-lost-other-1":            {"tour-life-http-first"},
	"ALL-CONNECTED-drop-1":                 {"tour-hosts-http-first", "tour-hosts-websocket-check", "tour-hosts-websocket-first", "tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CONNECTED-drop-rate-limited-2":    {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CONNECTED-drop-503-3":             {"tour-hosts-http-first", "tour-hosts-websocket-check", "tour-hosts-websocket-first"},
	"ALL-CONNECTED-network-down-2":         {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-DISCONNECTED-timer-retry-1":       {"tour-hosts-http-first", "tour-hosts-websocket-check", "tour-hosts-websocket-first", "tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-DISCONNECTED-timer-state-ttl-1":   {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-ANY-timer-stale-1":                {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CONNECTING-connectivity-1":        {"tour-hosts-http-first", "tour-hosts-websocket-check", "tour-hosts-websocket-first"},
	"WH-CONNECTING-connectivity-2":         {"tour-hosts-http-first", "tour-hosts-websocket-first"},
	"ALL-CONNECTING-connectivity-3":        {"tour-hosts-http-first", "tour-hosts-websocket-check", "tour-hosts-websocket-first"},
	"WC-CONNECTING-websocket-check-down-1": {"tour-life-websocket-check"},
	"ALL-DISCONNECTED-network-up-1":        {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-CONNECTING-network-up-2":          {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-ANY-network-ignored-1":            {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
	"ALL-ANY-network-ignored-2":            {"tour-life-http-first", "tour-life-websocket-check", "tour-life-websocket-first"},
}

// edgePins are the rows pinned by the scenarios of the edges a single
// scenario used to catch: fractional delays, DISCONNECTED 500, answers
// naming C0 for every kind of check, the rate limit's 1000 ms under
// websocket-check, and network-down again and again while connected.
var edgePins = map[string][]string{
	"ALL-CONNECTING-lost-end-3":               {"retry-delays-with-fractional-milliseconds", "http-first-disconnected-500-qualifies-499-does-not"},
	"WH-CONNECTING-lost-in-flight-2":          {"retry-delays-with-fractional-milliseconds"},
	"ALL-DISCONNECTED-timer-retry-1":          {"network-down-repeated-while-connected-http-first"},
	"ALL-CONNECTED-drop-503-3":                {"http-first-rtn17f1-is-500-to-504-both-ends"},
	"ALL-CONNECTED-drop-1":                    {"http-first-rtn17f1-is-500-to-504-both-ends", "immediate-reconnect-exactly-one-second-later-websocket-check"},
	"ALL-CONNECTED-drop-rate-limited-2":       {"immediate-reconnect-exactly-one-second-later-websocket-check"},
	"WH-START-redirect-1":                     {"http-first-rtn17f1-is-500-to-504-both-ends", "check-zero-names-no-check-http-first"},
	"WH-CONNECTING-connectivity-2":            {"http-first-rtn17f1-is-500-to-504-both-ends", "check-zero-names-no-check-http-first"},
	"WH-CONNECTED-connected-upgrade-1":        {"http-first-rtn17f1-is-500-to-504-both-ends"},
	"ALL-CONNECTING-lost-flow-fallback-1":     {"http-first-disconnected-500-qualifies-499-does-not", "websocket-check-500-before-connected-goes-to-a-fallback-host"},
	"WC-CONNECTING-lost-pending-503-4":        {"websocket-check-500-before-connected-goes-to-a-fallback-host"},
	"WC-START-redirect-3":                     {"websocket-check-500-before-connected-goes-to-a-fallback-host"},
	"ALL-ANY-check-id-1":                      {"check-zero-names-no-check-http-first", "check-zero-names-no-check-websocket-check", "check-zero-names-no-check-remembered-http-first", "check-zero-names-no-check-remembered-http-websocket-check"},
	"ALL-CONNECTING-connectivity-1":           {"check-zero-names-no-check-http-first"},
	"WC-CONNECTING-timer-websocket-slow-1":    {"check-zero-names-no-check-websocket-check"},
	"WC-CONNECTING-connectivity-slow-up-1":    {"check-zero-names-no-check-websocket-check"},
	"WC-CONNECTING-timer-websocket-give-up-1": {"check-zero-names-no-check-websocket-check"},
	"ALL-CONNECTING-connectivity-3":           {"check-zero-names-no-check-websocket-check"},
	"WH-START-remembered-http-1":              {"check-zero-names-no-check-remembered-http-first"},
	"WH-CONNECTING-preference-check-up-2":     {"check-zero-names-no-check-remembered-http-first"},
	"WC-CONNECTING-preference-check-up-1":     {"check-zero-names-no-check-remembered-http-websocket-check"},
	"ALL-ANY-network-ignored-2":               {"network-down-repeated-while-connected", "network-down-repeated-while-connected-http-first"},
	"ALL-DISCONNECTED-network-up-1":           {"network-down-repeated-while-connected", "network-down-repeated-while-connected-http-first"},
	"ALL-ANY-transport-stale-1":               {"network-down-repeated-while-connected-http-first"},
}

// onePath lists the rows whose code path does not depend on the policy.
var onePath = map[string]bool{
	"ALL-ANY-transport-stale-1": true, "ALL-ANY-connectivity-stale-1": true, "ALL-ANY-check-id-1": true, "ALL-ANY-websocket-check-stale-1": true,
	"ALL-ANY-time-backwards-1": true, "SS-CONNECTED-drop-window-1": true, "SS-CONNECTED-drop-window-immediate-2": true,
	"SS-CONNECTED-network-down-window-3": true,
	"SS-CONNECTING-retry-spread-1":       true, "SS-DISCONNECTED-suspended-spread-1": true,
	"SS-CONNECTING-retry-policy-1": true, "SS-CONNECTED-drop-immediate-off-1": true, "SS-CONNECTED-drop-immediate-limited-2": true, "SS-CONNECTING-first-retry-3": true, // enterDisconnected, whatever the policy
}

// KnownGaps are the policies a row applies to but no scenario pins it
// under, with the reason; the test fails if one gets pinned (then delete
// it here).
var KnownGaps = map[string]string{}

// without lists, per row, actions that must not appear in the step.
var without = map[string][]string{
	"WF-START-one-transport-2":      {"timer short-circuit at=<t>"},
	"WH-START-flap-hold-1":          {"timer short-circuit at=<t>", "check-websocket C<n>", "open T<n> websocket <host> <mode>"},
	"WC-START-expired-preference-5": {"check-websocket C<n>"},
	"ALL-CONNECTING-connected-1":    {"open T<n> websocket <host> upgrade", "timer flap-hold at=<t>"},
}

// assemble builds All: tableRows with their Without and OnePath, then
// serverRows and authorizeRows, each marked OnePath, then adaptiveRows. It runs
// when the package's variables are initialised, before any init function,
// so that the pins_*.go files' addPins see every row.
func assemble() []Row {
	all := make([]Row, 0, len(tableRows)+len(serverRows)+len(authorizeRows)+len(adaptiveRows))
	for _, r := range tableRows {
		r.Without = without[r.ID]
		r.OnePath = onePath[r.ID]
		all = append(all, r)
	}
	for _, r := range append(serverRows[:len(serverRows):len(serverRows)], authorizeRows...) {
		r.OnePath = true
		all = append(all, r)
	}
	return append(all, adaptiveRows...)
}

// The tours' and the edges' pins come after those of the pins_*.go files
// (init functions run in the order of the files' names).
func init() {
	addPins(tourPins)
	addPins(edgePins)
}

// For returns the IDs of the rows that list scenario id among their pins,
// in table order.
func For(id string) []string {
	out := []string{}
	for _, r := range All {
		for _, p := range r.Pins {
			if p == id {
				out = append(out, r.ID)
				break
			}
		}
	}
	return out
}
