package rows

// guessPins are the rows pinned by the scenarios of the guesses a port
// has to make (engine/testdata/scenarios/16-guesses.txt; the guesses are
// listed in conformance/guesses.json).
var guessPins = map[string][]string{
	"WF-CONNECTING-lost-first-ws-1": {"endpoint-routing-policy-id-walks-its-own-fallback-hosts"},
	"HF-START-http-1":               {"endpoint-nonprod-walks-the-nonprod-fallback-hosts", "endpoint-production-is-a-routing-policy-id"},
	"WC-START-redirect-3":           {"endpoint-nonprod-redirect-goes-to-a-nonprod-fallback-host"},
	"ALL-CONNECTING-connectivity-1": {"endpoint-routing-policy-id-walks-its-own-fallback-hosts", "endpoint-nonprod-redirect-goes-to-a-nonprod-fallback-host",
		"host-order-draws-outside-the-unit-interval-are-clamped", "host-order-draw-above-one-is-clamped-websocket-only"},
	"WF-START-ws-1":                       {"flapping-hold-over-at-exactly-its-end", "flapping-hold-over-network-up-at-its-end"},
	"WH-CONNECTING-connected-http-hold-3": {"flapping-hold-over-at-exactly-its-end"},
	"WH-CONNECTED-timer-flap-hold-1":      {"flapping-hold-over-at-exactly-its-end"},
	"WC-CONNECTING-lost-pending-503-waits-7": {"storm-safe-reconnect-window-after-state-ttl-waits-in-disconnected",
		"storm-safe-reconnect-window-after-state-ttl-draws-its-wait"},
	"ALL-ANY-check-id-1": {"preference-background-check-counts-after-fatal", "preference-background-check-counts-after-fatal-websocket-check",
		"preference-background-check-ends-at-network-down-while-connected", "preference-background-check-ends-at-network-down-while-connected-websocket-check"},
	"SS-CONNECTED-network-down-window-3": {"preference-background-check-ends-at-network-down-while-connected",
		"preference-background-check-ends-at-network-down-while-connected-websocket-check"},
	"ALL-CONNECTED-network-down-2":               {"flapping-hold-over-network-up-at-its-end"},
	"ALL-CONNECTING-network-down-rate-limited-3": {"flapping-hold-over-network-up-at-its-end"},
	"WH-START-flap-hold-1":                       {"flapping-hold-over-network-up-at-its-end"},
	"ALL-DISCONNECTED-network-up-1":              {"flapping-hold-over-network-up-at-its-end"},
	"ALL-CONNECTING-timer-state-ttl-2": {"storm-safe-reconnect-window-after-state-ttl-waits-in-disconnected",
		"storm-safe-reconnect-window-after-state-ttl-draws-its-wait"},
}

func init() { addPins(guessPins) }
