package rows

// escapePins are the rows pinned by the scenarios of
// engine/testdata/scenarios/18-escapes.txt: each of them catches a wrong
// engine of conformance/wrong/independent-engine-2.json on the step of the
// rows named here.
var escapePins = map[string][]string{
	"ALL-ANY-activity-1":                      {"activity-at-an-earlier-time-sets-the-idle-deadline", "http-first-activity-at-an-earlier-time-sets-the-idle-deadline", "activity-earlier-than-the-recorded-one-changes-nothing", "http-first-activity-earlier-than-the-recorded-one-changes-nothing"},
	"ALL-ANY-check-id-1":                      {"websocket-check-answer-naming-c0-is-ignored-after-the-check-ended", "websocket-check-answer-naming-c0-is-ignored-while-connected"},
	"ALL-ANY-details-stale-1":                 {"http-first-details-for-the-upgrade-websocket-are-ignored", "details-for-a-viable-upgrade-websocket-are-ignored"},
	"ALL-ANY-fatal-1":                         {"fatal-while-closing-after-connected-fails", "http-first-fatal-while-closing-before-connected-fails"},
	"ALL-ANY-time-backwards-1":                {"time-going-backwards-keeps-the-latest-time-on-a-drop", "http-first-time-going-backwards-keeps-the-latest-time-on-a-connectivity-answer"},
	"ALL-CLOSING-timer-idle-3":                {"close-while-connected-keeps-the-idle-timer-which-does-nothing"},
	"ALL-CONNECTED-close-1":                   {"http-first-close-while-connected-keeps-the-idle-timer", "close-while-connected-keeps-the-idle-timer-which-does-nothing"},
	"ALL-CONNECTED-details-1":                 {"websocket-check-details-with-idle-zero-cancels-the-idle-timer", "details-leaving-idle-out-cancels-the-idle-timer", "server-connection-state-ttl-kept-by-details-leaving-it-out", "http-first-server-connection-state-ttl-kept-by-details-saying-zero", "http-first-details-update-carries-its-error", "details-update-carries-its-error-and-restarts-idle"},
	"ALL-CONNECTED-drop-1":                    {"connected-http-status-503-is-an-ordinary-drop", "http-first-connected-http-status-500-is-an-ordinary-drop", "time-going-backwards-keeps-the-latest-time-on-a-drop", "websocket-check-answer-naming-c0-is-ignored-while-connected", "flap-hold-runs-on-through-an-http-drop", "http-first-server-connection-state-ttl-sets-the-state-ttl-at-a-drop", "server-connection-state-ttl-kept-by-details-leaving-it-out", "server-connection-state-ttl-forgotten-by-connect-after-failed"},
	"ALL-CONNECTED-drop-503-3":                {"custom-fallback-host-after-a-redirect"},
	"ALL-CONNECTED-network-down-2":            {"server-connection-state-ttl-sets-the-state-ttl-at-network-down", "http-first-server-connection-state-ttl-kept-by-details-saying-zero", "http-first-server-connection-state-ttl-forgotten-by-connect-after-closed"},
	"ALL-CONNECTED-timer-idle-1":              {"flap-hold-runs-on-through-an-idle-drop"},
	"ALL-CONNECTED-timer-idle-2":              {"activity-at-an-earlier-time-sets-the-idle-deadline", "http-first-activity-at-an-earlier-time-sets-the-idle-deadline", "activity-earlier-than-the-recorded-one-changes-nothing", "http-first-activity-earlier-than-the-recorded-one-changes-nothing"},
	"ALL-CONNECTED-token-renew-4":             {"token-renewal-refused-with-403-after-a-drop-is-failed"},
	"ALL-CONNECTING-connected-details-1":      {"server-connection-state-ttl-sets-the-state-ttl-at-network-down", "http-first-server-connection-state-ttl-sets-the-state-ttl-at-a-drop"},
	"ALL-CONNECTING-connectivity-1":           {"http-first-custom-fallback-hosts-are-walked", "http-first-time-going-backwards-keeps-the-latest-time-on-a-connectivity-answer", "websocket-check-http-only-draws-only-the-hosts-it-walks", "websocket-check-websocket-walk-draws-only-the-hosts-it-walks"},
	"ALL-CONNECTING-connectivity-3":           {"remembered-http-kept-after-connectivity-down"},
	"ALL-CONNECTING-lost-end-3":               {"websocket-check-http-only-draws-only-the-hosts-it-walks", "remembered-http-forgotten-after-a-failed-attempt", "http-first-remembered-http-forgotten-after-a-failed-attempt"},
	"ALL-CONNECTING-network-down-suspended-4": {"remembered-http-kept-after-network-down-once-state-ttl-passed"},
	"ALL-CONNECTING-timer-state-ttl-2":        {"state-ttl-mid-attempt-carries-the-last-transport-failure", "http-first-state-ttl-mid-attempt-carries-the-last-transport-failure"},
	"ALL-CONNECTING-token-again-2":            {"token-error-after-a-renewal-is-connect-failed", "http-first-token-error-after-a-renewal-is-connect-failed"},
	"ALL-CONNECTING-token-failed-2":           {"token-renewal-failed-with-401-is-connect-failed"},
	"ALL-CONNECTING-token-refused-3":          {"token-renewal-refused-with-403-after-a-drop-is-failed"},
	"ALL-CONNECTING-token-renew-1":            {"http-first-token-renewal-shares-the-check-count", "remembered-http-token-renewal-after-the-websocket-check"},
	"ALL-DISCONNECTED-timer-retry-1":          {"storm-safe-window-retry-after-network-down-replaced-at-suspended", "storm-safe-window-retry-of-a-reconnect-replaced-at-suspended", "remembered-http-forgotten-after-a-failed-attempt"},
	"ALL-DISCONNECTED-timer-state-ttl-1":      {"storm-safe-window-retry-after-network-down-replaced-at-suspended", "storm-safe-window-retry-of-a-reconnect-replaced-at-suspended"},
	"ALL-INITIALIZED-connect-1":               {"connect-after-close-drops-a-pending-redirect", "http-first-connect-after-failed-drops-a-pending-redirect", "server-connection-state-ttl-forgotten-by-connect-after-failed", "http-first-server-connection-state-ttl-forgotten-by-connect-after-closed"},
	"HF-START-http-1":                         {"http-first-remembered-http-forgotten-after-a-failed-attempt"},
	"SS-CONNECTED-network-down-window-3":      {"storm-safe-window-retry-of-a-reconnect-replaced-at-suspended"},
	"WC-CONNECTING-close-1":                   {"websocket-check-close-while-connecting-closes-at-once", "websocket-check-close-during-a-reconnect-closes-at-once"},
	"WC-CONNECTING-lost-walk-over-1":          {"websocket-check-walk-check-up-with-nothing-in-flight-is-connect-failed"},
	"WC-CONNECTING-lost-walk-over-2":          {"websocket-check-walk-over-during-the-slow-check-asks-no-second-check", "websocket-check-walk-over-after-the-slow-check-asks-no-second-check"},
	"WC-CONNECTING-timer-websocket-give-up-1": {"websocket-check-redirect-give-up-opens-http-on-the-primary", "websocket-check-redirect-walk-then-give-up-opens-http-on-the-primary", "websocket-check-websocket-walk-draws-only-the-hosts-it-walks", "websocket-check-give-up-cancels-the-redirect-check", "websocket-check-give-up-cancels-the-timeout-fallback-check"},
	"WC-CONNECTING-websocket-check-up-3":      {"websocket-check-walk-check-up-with-nothing-in-flight-is-connect-failed", "websocket-check-walk-over-during-the-slow-check-asks-no-second-check"},
	"WF-CONNECTING-lost-first-ws-1":           {"redirected-short-circuit-websocket-lost-starts-http-on-the-fallback-host", "routing-policy-redirected-short-circuit-websocket-refused-starts-http-on-the-fallback-host"},
	"WF-CONNECTING-timer-short-circuit-2":     {"reconnect-short-circuit-with-the-websocket-pending-does-nothing", "long-short-circuit-with-the-websocket-pending-does-nothing"},
	"WH-CLOSING-connected-1":                  {"closing-activation-disposes-the-other-transport", "closing-activation-during-a-reconnect-disposes-the-other-transport"},
	"WH-CONNECTING-connected-http-hold-3":     {"flap-hold-timer-not-restarted-by-a-second-http-activation", "flap-hold-runs-on-through-an-http-drop"},
	"WH-CONNECTING-connectivity-2":            {"custom-fallback-host-after-a-redirect"},
	"WH-CONNECTING-lost-first-ws-2":           {"displaced-http-opens-again-when-the-websocket-times-out", "reconnect-displaced-http-opens-again-when-the-websocket-fails"},
	"WH-CONNECTING-lost-in-flight-2":          {"short-circuit-websocket-lost-after-http-started-asks-no-check", "reconnect-short-circuit-websocket-timeout-asks-no-check"},
	"WH-CONNECTING-viable-http-2":             {"displaced-http-opens-again-when-the-websocket-times-out", "reconnect-displaced-http-opens-again-when-the-websocket-fails"},
	"WH-START-remembered-http-1":              {"remembered-http-kept-after-connectivity-down", "remembered-http-kept-after-network-down-once-state-ttl-passed"},
}

func init() { addPins(escapePins) }
