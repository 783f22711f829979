package rows

// The rows of the adaptive short circuit (docs/engine.md: The adaptive
// short circuit), in document order after those of authorize.go.

var adaptiveRows = []Row{
	row("WF-CONNECTING-dialed-1", "adaptive", wfP, "connecting", "dialed T<n> rtt=<ms>",
		"with adaptiveMultiple k > 0: the first report of the attempt's first websocket, not yet viable, while the short-circuit timer runs, and the websocket's open + clamp(k × rtt, adaptiveFloorMs, shortCircuitMs) is earlier than the timer's due time: the short-circuit timer is cancelled and started again at that time, or at the report's own time if that has passed",
		"decision: the adaptive short circuit (RFC 8305's connection attempt delay)",
		pins("adaptive-short-circuit-floor-brings-http-forward", "adaptive-short-circuit-multiple-of-the-round-trip", "adaptive-short-circuit-on-the-reconnect", "adaptive-short-circuit-never-before-the-report", "adaptive-short-circuit-second-report-ignored"),
		"cancel short-circuit", "timer short-circuit at=<t>"),
	row("ALL-ANY-dialed-2", "adaptive", allP, allStates, "dialed T<n> rtt=<ms>",
		"any other report: nothing. Under http-first and websocket-check always (websocket-check keeps ably-js 2.28.0's timers); under websocket-first with the rule off (adaptiveMultiple 0), for another transport than the attempt's first websocket or a websocket already viable, a second report, no short-circuit timer running (it fired, or HTTP started), or a time not earlier than the timer's (k × rtt beyond shortCircuitMs, or adaptiveFloorMs at or above it)",
		"decision: the adaptive short circuit",
		pins("adaptive-short-circuit-off-by-default", "adaptive-short-circuit-ceiling-keeps-the-timer", "adaptive-short-circuit-after-the-handshake-changes-nothing", "adaptive-short-circuit-second-report-ignored", "adaptive-short-circuit-http-first-ignores-it", "adaptive-short-circuit-websocket-check-ignores-it")),
}
