package rows

// utsPins are the rows pinned by the scenarios that translate the tests of
// the Ably specification's Universal Test Specifications
// (engine/testdata/scenarios/*-uts-*.txt; docs/conformance.md counts them).
var utsPins = map[string][]string{
	"ALL-ANY-fatal-1":                    {"uts-proxy-rtn14a-fatal-error-while-connecting-fails", "uts-proxy-rtn15j-fatal-error-while-connected-fails", "uts-rsa4d-callback-403-on-reauth-fails", "uts-rsa4d-callback-403-while-connecting-fails", "uts-rtc8a2-failed-reauth-fails", "uts-rtc8c-authorize-connects-from-failed", "uts-rtn14a-fatal-error-while-connecting-fails", "uts-rtn14g-error-while-connecting-fails", "uts-rtn15c4-fatal-error-on-resume-fails", "uts-rtn15j-error-while-connected-fails"},
	"ALL-CONNECTED-close-1":              {"uts-integration-connect-close-connect", "uts-rtc8c-authorize-connects-from-closed"},
	"ALL-CONNECTED-details-1":            {"uts-proxy-rtn22-server-auth-stays-connected", "uts-rtc8a-authorize-while-connected-is-an-update", "uts-rtn22-server-reauth-is-an-update", "uts-rtn24-connected-while-connected-is-an-update", "uts-rtn24-three-connected-three-updates", "uts-rtn24-update-carries-the-error"},
	"ALL-CONNECTED-drop-1":               {"uts-proxy-rtn15a-drop-resumes", "uts-proxy-rtn15a-tcp-close-resumes", "uts-proxy-rtn15h3-non-token-disconnect-resumes", "uts-rtn15a-unexpected-disconnect-resumes", "uts-rtn16k-recover-then-resume"},
	"ALL-CONNECTED-drop-503-3":           {"uts-rtn15h3-non-token-disconnect-resumes"},
	"ALL-CONNECTED-network-down-2":       {"uts-rtn20a-network-lost-while-connected-reconnects"},
	"ALL-CONNECTED-timer-idle-1":         {"uts-rtn23-idle-timeout-reconnects"},
	"ALL-CONNECTED-timer-idle-2":         {"uts-rtn23-any-message-resets-the-idle-timer", "uts-rtn23-heartbeat-resets-the-idle-timer", "uts-rtn23b-steady-pings-keep-the-connection"},
	"ALL-CONNECTED-token-renew-4":        {"uts-integration-rsa4b-token-expiry-renews", "uts-rtn15h2-token-error-renewed-resumes", "uts-rtn22a-forced-disconnect-on-reauth-failure"},
	"ALL-CONNECTED-token-unrenewable-6":  {"uts-proxy-rtn15h1-token-error-without-renewal-fails", "uts-rtn15h1-token-error-without-renewal-fails"},
	"ALL-CONNECTING-connected-1":         {"uts-rsa4c3-callback-error-while-connected-stays-connected", "uts-rtc8c-authorize-connects-from-initialized"},
	"ALL-CONNECTING-connected-error-3":   {"uts-proxy-rtn15c7-failed-resume-connected-with-error", "uts-proxy-rtn16l-failed-recovery-connected-with-error", "uts-rtn15c7-failed-resume-connected-with-error"},
	"ALL-CONNECTING-connectivity-1":      {"uts-rtn17f-unresolvable-primary-uses-a-fallback-host", "uts-rtn17f1-disconnected-5xx-uses-a-fallback-host", "uts-rtn17i-fallback-then-primary-first-again", "uts-rtn17j-fallback-random-order-a", "uts-rtn17j-fallback-random-order-b", "uts-rtn17j-timeout-then-check-then-fallback"},
	"ALL-CONNECTING-connectivity-3":      {"uts-rtb1-disconnected-retry-delay", "uts-rtn14c-connect-timeout-disconnected", "uts-rtn14d-refused-retries-after-the-delay"},
	"ALL-CONNECTING-lost-end-3":          {"uts-proxy-rtn14c-connect-timeout", "uts-rsa4c2-callback-error-while-connecting-disconnected", "uts-rsa4c2-callback-timeout-while-connecting-disconnected", "uts-rtn17g-no-fallback-hosts-disconnected"},
	"ALL-CONNECTING-network-down-2":      {"uts-rtn20a-network-lost-while-connecting-reconnects"},
	"ALL-CONNECTING-network-up-2":        {"uts-rtn20c-network-available-while-connecting-restarts"},
	"ALL-CONNECTING-token-failed-2":      {"uts-rtn14b-token-renewal-fails-disconnected", "uts-rtn15h2-token-renewal-fails-disconnected"},
	"ALL-CONNECTING-token-renew-1":       {"uts-proxy-rtn14b-token-error-renewed-reconnects", "uts-rtn14b-token-error-renewed-connects", "uts-rtn15c5-token-error-on-resume-renews"},
	"ALL-CONNECTING-token-unrenewable-3": {"uts-rsa4a-token-error-without-renewal-fails"},
	"ALL-DISCONNECTED-network-up-1":      {"uts-rtn20b-network-available-while-disconnected-connects"},
	"ALL-DISCONNECTED-timer-retry-1":     {"uts-proxy-rtn14d-refused-retries", "uts-rtc7-disconnected-retry-timeout"},
	"ALL-DISCONNECTED-timer-state-ttl-1": {"uts-proxy-rtn15g-state-ttl-passes-then-resumes", "uts-rtn14e-disconnected-to-suspended", "uts-rtn15g-state-ttl-passes-then-resumes"},
}

// The server's rows join All in server.go's init, which runs after this
// one: their pins go on serverRows.
func init() {
	addPins(utsPins)
	for i := range serverRows {
		serverRows[i].Pins = append(serverRows[i].Pins, utsPins[serverRows[i].ID]...)
	}
}
