package rows

// differentialPins are the rows pinned by the scenarios of what the engine
// differential found (engine/testdata/scenarios/15-differential.txt): the
// text of a DISCONNECTED without a status, the background websocket
// check's lifetime, the RTN17f1 check after a failed websocket check, and
// the host order of the walk a passing background check starts.
var differentialPins = map[string][]string{
	"ALL-ANY-fatal-1":      {"disconnected-without-status-is-status-0"},
	"ALL-CONNECTED-drop-1": {"disconnected-without-status-drop-is-not-a-redirect"},
	"ALL-ANY-check-id-1": {"preference-background-check-ends-with-its-attempt", "preference-background-check-ends-at-network-down-while-connecting",
		"preference-background-check-ends-at-suspended", "preference-background-check-ends-at-the-idle-drop",
		"preference-background-check-ends-at-a-token-drop"},
	"ALL-CONNECTED-timer-idle-1":         {"preference-background-check-ends-at-the-idle-drop"},
	"ALL-CONNECTED-token-rate-limited-5": {"preference-background-check-ends-at-a-token-drop"},
	"ALL-CONNECTING-token-renewed-1":     {"preference-background-check-ends-at-a-token-drop"},
	"ALL-CONNECTING-connectivity-3":      {"preference-background-check-ends-with-its-attempt"},
	"SS-CONNECTED-network-down-window-3": {"preference-background-check-ends-at-network-down-while-connecting"},
	"ALL-CONNECTING-timer-state-ttl-2":   {"preference-background-check-ends-at-suspended"},
	"WC-START-redirect-3":                {"websocket-check-redirect-check-up-after-a-failed-websocket-check"},
	"WC-CONNECTING-connectivity-after-failed-check-3": {"websocket-check-redirect-check-up-after-a-failed-websocket-check",
		"websocket-check-redirect-check-down-after-a-failed-websocket-check"},
	"WC-CONNECTING-timer-websocket-give-up-1": {"websocket-check-redirect-check-up-after-a-failed-websocket-check",
		"websocket-check-redirect-check-down-after-a-failed-websocket-check"},
	"WC-CONNECTING-preference-check-up-1": {"preference-check-passes-after-the-http-walk-drew-the-host-order",
		"preference-check-passes-while-http-walks-a-fallback-host"},
	"ALL-CONNECTING-connectivity-1": {"preference-check-passes-after-the-http-walk-drew-the-host-order"},
}

func init() { addPins(differentialPins) }
