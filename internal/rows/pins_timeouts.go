package rows

// timeoutPins are the rows pinned by the scenarios of the timeouts by job
// and the client-side idle limit
// (engine/testdata/scenarios/28-timeouts-by-job.txt).
var timeoutPins = map[string][]string{
	"WF-START-one-transport-2":           {"timeouts-connect-timeout-per-transport"},
	"ALL-CONNECTING-lost-end-3":          {"timeouts-connect-timeout-per-transport"},
	"WC-START-ws-1":                      {"timeouts-connect-timeout-in-the-attempt-limit"},
	"ALL-CONNECTED-close-1":              {"timeouts-closing-timeout"},
	"ALL-CLOSING-timer-close-1":          {"timeouts-closing-timeout", "timeouts-closing-timeout-while-connecting"},
	"WH-CLOSING-connected-1":             {"timeouts-closing-timeout-while-connecting"},
	"ALL-CONNECTING-token-renew-1":       {"timeouts-renewal-timeout"},
	"ALL-CONNECTING-timer-renew-token-1": {"timeouts-renewal-timeout"},
	"ALL-CONNECTING-connected-idle-2":    {"timeouts-idle-slack", "idle-limit-server-max-idle-interval-wins"},
	"ALL-CONNECTED-details-1":            {"idle-limit-server-max-idle-interval-wins"},
	"ALL-CONNECTED-timer-idle-1":         {"timeouts-idle-slack", "idle-limit-without-max-idle-interval", "idle-limit-server-max-idle-interval-wins"},
	"ALL-CONNECTED-timer-idle-2":         {"timeouts-idle-slack", "idle-limit-without-max-idle-interval"},
}

func init() { addPins(timeoutPins) }
