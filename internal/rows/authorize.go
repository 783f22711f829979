package rows

// The rows of Auth#authorize (docs/engine.md: Authorize), in document
// order after those of server.go. Like the token rows, each code path is
// the same under each policy (the attempts it starts differ, and the
// START rows say how): each row is pinned under one policy or more and
// marked "(one path)".

var authorizeRows = []Row{
	row("ALL-CONNECTING-authorize-1", "authorize", allP, "connecting", "authorize",
		"every connection attempt halted: every transport disposed, the attempt timers cancelled (a renewal in flight among them: its answer is then stale) and its checks forgotten; then the renewal asked with its timer, with no state change. Renewed (ALL-CONNECTING-token-renewed-1): a new attempt at once with the new token; failed: DISCONNECTED (ALL-CONNECTING-token-failed-2) or, refused with 403, FAILED (ALL-CONNECTING-token-refused-3). Whatever canRenewToken says",
		"RTC8b, RTC8b1", pins("uts-rtc8b-authorize-while-connecting-halts-the-attempt", "uts-rtc8b1-authorize-while-connecting-fails-on-failed", "authorize-while-connecting-renewal-fails-disconnected", "authorize-while-connecting-renewal-refused-fails", "authorize-twice-while-connecting-asks-again", "authorize-while-connecting-with-http-halts-both-transports"),
		any_, renewAsk, renewTimer),
	row("ALL-INITIALIZED-authorize-2", "authorize", allP, "initialized|disconnected|suspended|closed|failed", "authorize",
		"the connection connects as on connect (ALL-INITIALIZED-connect-1, ALL-DISCONNECTED-connect-1: the retry timer cancelled; from INITIALIZED, CLOSED or FAILED a fresh connection with the state-TTL timer last), its attempt starting with the renewal before any transport (ALL-START-renew-token-1); the transports open when the token is renewed. Whatever canRenewToken says",
		"RTC8c, RTC8", pins("authorize-from-initialized-connects-with-the-renewal-first", "authorize-from-disconnected-connects-now", "authorize-from-failed-connects-afresh", "authorize-while-connected-or-closing-does-nothing"),
		any_, "state <from> connecting connect-requested", renewAsk, renewTimer, any_),
	row("ALL-CONNECTED-authorize-3", "authorize", allP, "connected|closing", "authorize",
		"CONNECTED: nothing (the SDK obtains the token and sends AUTH on the active transport; the server's CONNECTED is details T<n>, its ERROR fatal); CLOSING: nothing, the close asked for stands",
		"RTC8a; decision: authorize while CLOSING", pins("authorize-while-connected-or-closing-does-nothing")),
	row("ALL-CONNECTING-token-renewed-redirect-4", "authorize", allP, "connecting", "token C<n> renewed",
		"the renewal of an attempt that started with it (authorize from DISCONNECTED or SUSPENDED) succeeded with an RTN17f1 redirect pending: its timer cancelled, then the attempt opens with the RTN17f1 check (WH-START-redirect-1, WC-START-redirect-3): a pending redirect waits for the attempt that opens transports",
		"RTC8c, RTN17f1", pins("authorize-from-disconnected-keeps-a-pending-redirect"),
		"cancel renew-token", any_, "check C<n>", "timer connectivity-check at=<now+httpRequestTimeout>", any_),
}
