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
	"ALL-CONNECTING-token-renewed-1": {"token-renewal-owed-survives-a-close-and-a-fresh-connect",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal-websocket-first"},
	"ALL-CONNECTING-token-failed-2": {"token-renewal-owed-survives-failed-and-a-fresh-connect",
		"token-renewal-failure-keeps-the-remembered-http"},
	"ALL-CONNECTING-timer-renew-token-1": {"token-renewal-timeout-keeps-the-remembered-http-websocket-check"},
	"ALL-ANY-check-id-1": {"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal",
		"background-check-ends-when-the-attempt-is-abandoned-for-a-renewal-websocket-first"},
	"ALL-INITIALIZED-connect-1": {"token-renewal-owed-survives-a-close-and-a-fresh-connect",
		"token-renewal-owed-survives-failed-and-a-fresh-connect"},
}

func init() { addPins(rustPortPins) }
