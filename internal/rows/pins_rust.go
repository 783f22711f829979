package rows

// rustPortPins are the rows pinned by the scenarios of the Rust port's
// guesses that no scenario pinned before (engine/testdata/scenarios/
// 24-rust-port.txt; conformance/rust/ENGINE-GUESSES.md 26 to 28): a token
// renewal owed across a fresh connect, a renewal's failure and the
// remembered transport, and the background websocket check of an attempt
// abandoned for a renewal.
var rustPortPins = map[string][]string{
	"ALL-CONNECTED-token-rate-limited-5": {"token-renewal-owed-survives-a-close-and-a-fresh-connect",
		"token-renewal-owed-survives-failed-and-a-fresh-connect"},
	"ALL-CONNECTING-token-renew-1": {"token-renewal-failure-keeps-the-remembered-http",
		"token-renewal-timeout-keeps-the-remembered-http-websocket-check",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal-websocket-first"},
	"ALL-CONNECTING-token-renewed-1": {"flapping-guard-counts-a-token-drop", "token-renewal-owed-survives-a-close-and-a-fresh-connect",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal-websocket-first"},
	"ALL-CONNECTING-token-failed-2": {"token-renewal-owed-survives-failed-and-a-fresh-connect",
		"token-renewal-failure-keeps-the-remembered-http"},
	"ALL-CONNECTING-timer-renew-token-1": {"token-renewal-timeout-keeps-the-remembered-http-websocket-check"},
	"ALL-ANY-check-id-1": {"websocket-check-close-ends-the-walks-check", "background-check-ends-when-the-attempt-is-abandoned-for-a-renewal",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal-websocket-first"},
	"ALL-INITIALIZED-connect-1": {"token-renewal-owed-survives-a-close-and-a-fresh-connect",
		"token-renewal-owed-survives-failed-and-a-fresh-connect"},
	"ALL-CONNECTED-drop-1":                 {"drop-disposes-every-transport-in-slot-order"},
	"ALL-CONNECTED-token-unrenewable-6":    {"token-error-cannot-renew-disposes-in-slot-order"},
	"WC-CONNECTING-websocket-check-down-1": {"websocket-check-failed-check-after-a-redirect-opens-http-on-the-primary"},
	"ALL-CONNECTED-timer-idle-1":           {"flapping-guard-counts-an-idle-drop"},
	"WH-START-flap-hold-1":                 {"flapping-guard-counts-an-idle-drop"},
	"ALL-CONNECTED-token-renew-4":          {"flapping-guard-counts-a-token-drop"},
	"WH-CONNECTED-connected-upgrade-1":     {"preference-recorded-when-the-upgrade-activates"},
	"ALL-CONNECTING-network-up-2":          {"network-up-during-a-renewal-starts-with-transports", "network-up-during-the-owed-renewal-starts-with-transports"},
	"WH-CLOSING-connected-1":               {"connected-while-closing-is-viable-first"},
	"ALL-DISCONNECTED-timer-retry-1":       {"timer-fired-before-its-due-time-still-fires"},
	"WC-CONNECTING-timer-websocket-slow-1": {"websocket-check-close-ends-the-walks-check"},
	"ALL-CONNECTING-connectivity-1":        {"websocket-check-without-websockets-redirect-opens-the-first-fallback-host"},
	"SS-CONNECTED-drop-window-1":           {"storm-safe-window-draw-above-one-is-clamped"},
	"SS-DISCONNECTED-suspended-spread-1":   {"storm-safe-suspended-draw-below-zero-is-clamped"},
}

// rustAuthorizePins are the rows pinned by the scenarios of the Rust port's
// authorize guesses that only its differential had settled (engine/testdata/
// scenarios/25-rust-authorize.txt; conformance/rust/ENGINE-GUESSES.md 29 to
// 33): the attempt authorize halts ends there, a pending redirect waits for
// the attempt that opens transports, the attempt after authorize's renewal
// follows a renewal, and a token error ends the websocket walk's check.
var rustAuthorizePins = map[string][]string{
	"ALL-CONNECTING-authorize-1": {"authorize-halted-attempt-leaves-no-last-failure", "authorize-halted-walk-leaves-no-last-failure",
		"authorize-ends-the-background-check", "authorize-ends-the-background-check-websocket-first",
		"authorize-renewal-failure-keeps-the-remembered-http", "authorize-renewal-timeout-keeps-the-remembered-http-websocket-first",
		"authorize-while-connecting-then-token-error-goes-disconnected"},
	"ALL-INITIALIZED-authorize-2": {"authorize-from-disconnected-keeps-a-pending-redirect", "authorize-renewal-failure-keeps-a-pending-redirect",
		"authorize-from-initialized-then-token-error-goes-disconnected"},
	"ALL-CONNECTING-timer-state-ttl-2": {"authorize-halted-attempt-leaves-no-last-failure", "authorize-halted-walk-leaves-no-last-failure"},
	"ALL-ANY-check-id-1": {"authorize-halted-walk-leaves-no-last-failure", "authorize-ends-the-background-check",
		"authorize-ends-the-background-check-websocket-first", "token-error-ends-the-walks-websocket-check",
		"token-error-ends-the-walks-websocket-check-down"},
	"ALL-CONNECTING-token-renewed-1": {"authorize-ends-the-background-check", "authorize-ends-the-background-check-websocket-first",
		"authorize-from-initialized-then-token-error-goes-disconnected", "authorize-while-connecting-then-token-error-goes-disconnected",
		"token-error-ends-the-walks-websocket-check", "token-error-ends-the-walks-websocket-check-down"},
	"ALL-CONNECTING-token-failed-2":      {"authorize-renewal-failure-keeps-the-remembered-http", "authorize-renewal-failure-keeps-a-pending-redirect"},
	"ALL-CONNECTING-timer-renew-token-1": {"authorize-renewal-timeout-keeps-the-remembered-http-websocket-first"},
	"ALL-DISCONNECTED-timer-retry-1": {"authorize-renewal-failure-keeps-the-remembered-http",
		"authorize-renewal-timeout-keeps-the-remembered-http-websocket-first", "authorize-renewal-failure-keeps-a-pending-redirect"},
	"WH-START-redirect-1":               {"authorize-renewal-failure-keeps-a-pending-redirect"},
	"ALL-CONNECTING-token-again-2":      {"authorize-from-initialized-then-token-error-goes-disconnected", "authorize-while-connecting-then-token-error-goes-disconnected"},
	"ALL-CONNECTING-token-renew-1":      {"token-error-ends-the-walks-websocket-check", "token-error-ends-the-walks-websocket-check-down"},
	"ALL-CONNECTED-drop-rate-limited-2": {"authorize-from-disconnected-keeps-a-pending-redirect", "authorize-renewal-failure-keeps-a-pending-redirect"},
}

func init() {
	addPins(rustPortPins)
	addPins(rustAuthorizePins)
}
