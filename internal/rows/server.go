package rows

// The rows of what the server says (docs/engine.md: The server speaks,
// Liveness, Token errors), in document order after the table of rows.go.
// Every code path here is the same under each policy (the attempts they
// start differ, and the START rows say how), so each row is pinned under
// one policy or more and marked "(one path)".

const (
	idleTimer   = "timer idle at=<now+maxIdleInterval+idleSlack>"
	renewAsk    = "renew-token C<n>"
	renewTimer  = "timer renew-token at=<now+renewalTimeout>"
	tokenEvents = "failed T<n> token / closed T<n> token"
)

var serverRows = []Row{
	// ---- The server speaks: connection details and updates ----
	row("ALL-CONNECTING-connected-details-1", "server", allP, "connecting", "connected T<n> <detail> …",
		"a transport activates with a CONNECTED message that carries connectionDetails or an error: as the activation rows above; a connectionStateTtl above 0 becomes the connection's, for the state-TTL timer started when the connection is lost (in place of the configured one), until a connect from INITIALIZED, CLOSED or FAILED; a later CONNECTED that leaves it out keeps it",
		"RTN21, CD2f", pins("server-connection-state-ttl-replaces-the-option", "server-connection-state-ttl-forgotten-by-a-fresh-connect", "idle-no-timer-without-max-idle-interval"),
		any_, "activate T<n>", any_, "state connecting connected connected …", any_),
	row("ALL-CONNECTING-connected-idle-2", "server", allP, "connecting", "connected T<n> <detail> …",
		"its maxIdleInterval m is above 0: right after the state change (or the update of an upgrade), the idle timer, due m + idleSlack (realtimeRequestTimeout unless set) later, whatever idleLimit says (RTN21: the server's value wins); 0 or left out: the client-side limit (ALL-CONNECTING-connected-idle-limit-4), else no idle timer",
		"RTN23a, CD2h", pins("idle-silence-reconnects", "idle-activity-pushes-the-deadline-back", "server-connected-while-connected-is-an-update", "idle-timer-goes-with-its-transport"),
		any_, "activate T<n>", any_, "state connecting connected connected", idleTimer, any_),
	row("ALL-CONNECTING-connected-idle-limit-4", "server", allP, "connecting", "connected T<n> …",
		"the CONNECTED message has no maxIdleInterval (0 or left out) and idleLimit, the client-side idle limit, is above 0: right after the state change (or the update of an upgrade), the idle timer, due idleLimit later (a whole limit: no slack added)",
		"RTN23a, RTN21; decision: the client-side idle limit", pins("idle-limit-without-max-idle-interval"),
		any_, "activate T<n>", any_, "state connecting connected connected", "timer idle at=<now+idleLimit>", any_),
	row("ALL-CONNECTING-connected-error-3", "server", allP, "connecting", "connected T<n> <detail> …",
		"the CONNECTED message carries an error (a resume or a recovery that failed: a new connection id): CONNECTED carries it, and it becomes LastError (errorReason)",
		"RTN15c7, RTN16l, RTN4f", pins("server-connected-carries-the-failed-resume-error", "server-connected-carries-the-failed-recovery-error"),
		any_, "activate T<n>", any_, "state connecting connected connected error=<failure>", any_),
	row("ALL-CONNECTED-details-1", "server", allP, "connected", "details T<n> …",
		"a later CONNECTED message on the active transport (a reauthorisation, say): an update (reason details) carrying its error, which becomes LastError; its connectionStateTtl (above 0) replaces the connection's; then the idle timer starts again from now with its maxIdleInterval (plus idleSlack), or, when that is 0 or left out, with idleLimit, the client-side limit, or is cancelled when there is none",
		"RTN24, RTN4h, RTN21", pins("server-connected-while-connected-is-an-update", "server-update-carries-the-messages-error"),
		"update details …", any_),
	row("ALL-ANY-details-stale-1", "server", allP, allStates, "details T<n> …",
		"details for a transport that is not the active one (opening, pending, disposed, never opened), or outside CONNECTED: ignored",
		"decision: stale events", pins("server-connected-while-connected-is-an-update")),

	// ---- Liveness: the idle timer ----
	row("ALL-ANY-activity-1", "idle", allP, allStates, "activity T<n> …",
		"activity of the active transport: its time is recorded (the step's time, or at= when earlier; an earlier time than the one recorded changes nothing); of any other transport: ignored. Never an action: the idle timer is not restarted by it",
		"RTN23a; decision: activity is a time", pins("idle-activity-pushes-the-deadline-back", "idle-activity-reported-when-the-timer-fires", "idle-steady-pings-keep-the-connection")),
	row("ALL-CONNECTED-timer-idle-1", "idle", allP, "connected", "timer idle",
		"no activity for the idle limit, maxIdleInterval + idleSlack or, without a maxIdleInterval, idleLimit (the deadline reached counts): the transport is lost as a drop with failure timeout (ALL-CONNECTED-drop-1, with its rate limit and the reconnect window)",
		"RTN23a, RTN15", pins("idle-silence-reconnects", "idle-activity-pushes-the-deadline-back", "idle-activity-reported-when-the-timer-fires"),
		disposeTn, any_, "state connected disconnected dropped retryIn=<retryIn> error=timeout", any_),
	row("ALL-CONNECTED-timer-idle-2", "idle", allP, "connected", "timer idle",
		"activity since the timer started: the timer again, due the idle limit (maxIdleInterval + idleSlack, or idleLimit) after the last activity",
		"RTN23a; decision: activity is a time", pins("idle-activity-pushes-the-deadline-back", "idle-activity-reported-when-the-timer-fires", "idle-steady-pings-keep-the-connection"),
		"timer idle at=<last-activity+limit>"),
	row("ALL-CLOSING-timer-idle-3", "idle", allP, "closing", "timer idle",
		"the idle timer fires while CLOSING: nothing (the close timer bounds CLOSING; CLOSED disposes the transport)",
		"RTN12, RTN23a", pins("idle-timer-in-closing-does-nothing")),

	// ---- Token errors ----
	row("ALL-CONNECTING-token-renew-1", "tokens", allP, "connecting", tokenEvents,
		"canRenewToken, and the attempt did not follow a renewal: the attempt is abandoned (every transport disposed, the attempt timers cancelled), the renewal asked with its timer",
		"RTN14b, RTN15c5", pins("token-error-while-connecting-renewed-connects", "token-error-while-connecting-renewal-fails", "token-error-on-the-resume-renews-once", "token-error-abandons-the-whole-attempt", "token-error-websocket-check"),
		any_, renewAsk, renewTimer),
	row("ALL-CONNECTING-token-again-2", "tokens", allP, "connecting", tokenEvents,
		"canRenewToken, and the attempt followed a renewal: the attempt ends (every live transport disposed in slot order, lowest first, the failing one in its place and not first on its own; the attempt timers cancelled), DISCONNECTED (connect-failed) at once carrying the token error, with an RTB1 retry, or SUSPENDED once connectionStateTtl has passed; no second renewal",
		"RTN14b, RTN15h2", pins("token-error-again-after-the-renewal"),
		any_, "state connecting disconnected|suspended connect-failed retryIn=<retryIn> error=token", retryTimer),
	row("ALL-CONNECTING-token-unrenewable-3", "tokens", allP, "connecting", tokenEvents,
		"without canRenewToken (no means to renew the token): everything stops (every live transport disposed in slot order, lowest first, the failing one in its place and not first on its own; every timer cancelled), FAILED carrying the token error",
		"RSA4a2, RTN14b", pins("token-error-while-connecting-cannot-renew"),
		any_, "state connecting failed fatal error=token"),
	row("ALL-CONNECTED-token-renew-4", "tokens", allP, "connected", tokenEvents,
		"canRenewToken, the active transport: the drop of ALL-CONNECTED-drop-1 (through DISCONNECTED), whose attempt starts with the renewal instead of transports (ALL-START-renew-token-1); the state-TTL timer last",
		"RTN15h2, RTN15h2i", pins("token-error-while-connected-renewed-resumes", "token-error-while-connected-renewal-fails"),
		any_, disposeTn, any_, "state connected disconnected dropped retryIn=0 error=token", "state disconnected connecting reconnect", renewAsk, renewTimer, ttlTimer),
	row("ALL-CONNECTED-token-rate-limited-5", "tokens", allP, "connected", tokenEvents,
		"canRenewToken, within 1 s of the last immediate reconnect (or with the reconnect window's wait): DISCONNECTED with the retry (ALL-CONNECTED-drop-rate-limited-2); the next attempt, whatever starts it, starts with the renewal",
		"RTN15h2, RTN15a", pins("token-error-while-connected-rate-limited"),
		any_, disposeTn, any_, "state connected disconnected dropped retryIn=<retryIn> error=token", retryTimer, ttlTimer),
	row("ALL-CONNECTED-token-unrenewable-6", "tokens", allP, "connected", tokenEvents,
		"without canRenewToken, the active transport: everything stops (every transport disposed in slot order, the failing one not first on its own), FAILED carrying the token error, no reconnect",
		"RTN15h1", pins("token-error-while-connected-cannot-renew"),
		any_, disposeTn, any_, "state connected failed fatal error=token"),
	row("ALL-START-renew-token-1", "tokens", allP, "any", "any",
		"the attempt that follows a token error while CONNECTED (the immediate reconnect, or the retry or connect that follows a rate-limited one): the renewal before any transport; its transports open when the token is renewed",
		"RTN15h2", pins("token-error-while-connected-renewed-resumes", "token-error-while-connected-rate-limited"),
		any_, "state <from> connecting <reason>", renewAsk, renewTimer, any_),
	row("ALL-CONNECTING-token-renewed-1", "tokens", allP, "connecting", "token C<n> renewed",
		"the renewal in flight succeeded: its timer cancelled, then a new attempt at once with no state change (the START rows; mode resume once the connection has been CONNECTED): the one retry of RTN14b",
		"RTN14b, RTN15h2", pins("token-error-while-connecting-renewed-connects", "token-error-while-connected-renewed-resumes", "token-error-on-the-resume-renews-once", "token-error-abandons-the-whole-attempt", "token-error-websocket-check"),
		"cancel renew-token", any_, "open T<n> <transport> <host> <mode>", openConnect, any_),
	row("ALL-CONNECTING-token-failed-2", "tokens", allP, "connecting", "token C<n> failed <failure>",
		"the renewal failed (with anything but a 403): its timer cancelled, DISCONNECTED (connect-failed) carrying the renewal's failure with an RTB1 retry, or SUSPENDED once connectionStateTtl has passed",
		"RTN14b, RTN15h2, RSA4c2", pins("token-error-while-connecting-renewal-fails", "token-error-while-connected-renewal-fails"),
		"cancel renew-token", "state connecting disconnected|suspended connect-failed retryIn=<retryIn> error=<failure>", retryTimer),
	row("ALL-CONNECTING-token-refused-3", "tokens", allP, "connecting", "token C<n> failed http-status:403",
		"the renewal was refused with status 403 (the auth server, or the token request): its timer cancelled, everything stops, FAILED carrying it",
		"RSA4d", pins("token-renewal-refused-with-403-fails"),
		"cancel renew-token", any_, "state connecting failed fatal error=http-status:403"),
	row("ALL-CONNECTING-timer-renew-token-1", "tokens", allP, "connecting", "timer renew-token",
		"no answer within renewalTimeout (realtimeRequestTimeout unless set): the renewal failed with a timeout (ALL-CONNECTING-token-failed-2)",
		"RSA4c", pins("token-renewal-times-out"),
		any_, "state connecting disconnected|suspended connect-failed retryIn=<retryIn> error=timeout", retryTimer),
	row("ALL-ANY-token-stale-1", "tokens", allP, allStates, "token C<n> renewed / token C<n> failed <failure>",
		"the answer names no renewal in flight (answered, timed out, its attempt ended, or C0): ignored",
		"decision: checks carry IDs", pins("token-renewal-times-out")),
}
