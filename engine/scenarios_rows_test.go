package engine

// rowScenarios: scenarios written so that every row of docs/engine.md
// (rows_test.go) is pinned: HTTP-first and the single-transport
// configurations, connect and network events in every state, the
// websocket-check policy's checks in every order, and the transport
// preference on both sides of its TTL. Written by hand from the rows, like
// the rest.

// Preferences remembered 24 h before the scenarios' epoch (1767225600000,
// 2026-01-01T00:00:00Z), and 1 ms later: the first is no longer in force at
// the epoch (its time plus the 24 h TTL is not after the wall clock), the
// second is.
const (
	expiredHTTP    = "v1 http 1767139200000 connected"
	lastMsOfHTTPIn = "v1 http 1767139200001 connected"
)

func rowScenarios() []scenario {
	bf := false
	wcH := scenarioConfig{Policy: "websocket-check", Endpoint: H}
	return []scenario{
		{ID: "websocket-first-http-only", Spec: "transport-fallback",
			Comment: "websocket-first without websockets: HTTP walks the hosts alone, with no short circuit and no upgrade after it activates",
			Config:  scenarioConfig{Endpoint: H, WebSocket: &bf},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 100, Event: "viable T1", Expect: nil},
				{AtMs: 150, Event: "connected T1", Expect: becomeConnected(1, false), ExpectState: "connected"},
			}},
		{ID: "http-first-host-fallback-then-upgrade-on-that-host", Spec: "RTN17",
			Comment: "HTTP-first: HTTP fails on the primary with a 503, the connectivity check says up, HTTP connects on fallback host c (draws 0.5, 0, 0.9 give c, a, e) " +
				"and the upgrade websocket opens on that host, turns viable (rule 4: an upgrade websocket beside active HTTP proceeds) and takes over",
			Config: scenarioConfig{Policy: "http-first"},
			Draws:  []float64{0.5, 0, 0.9},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 50, Event: "failed T1 http-status:503", Expect: cat(lost(1), "check", timerAt("connectivity-check", 10050))},
				{AtMs: 80, Event: "connectivity up", Expect: cat(cancelT("connectivity-check"), openWith(2, 80, "http", fbHost("c"), "clean"))},
				{AtMs: 150, Event: "viable T2", Expect: nil},
				{AtMs: 200, Event: "connected T2", Expect: cat(becomeConnected(2, false), openWith(3, 200, "websocket", fbHost("c"), "upgrade"))},
				{AtMs: 250, Event: "viable T3", Expect: nil},
				{AtMs: 300, Event: "connected T3", Expect: cat(cancelT(connectT(3)), disposeT(2), activateT(3)), ExpectState: "connected"},
			}},
		{ID: "preference-remembered-http-viable-before-the-check-passes", Spec: "transport-preference",
			Comment: "Config.RememberTransport under websocket-first: HTTP turns viable before the background websocket check passes, so the pass opens nothing; " +
				"the upgrade websocket follows HTTP's activation as usual",
			Config: scenarioConfig{Endpoint: H, Preference: rememberedHTTP, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					"check-websocket", openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 20, Event: "viable T1", Expect: nil},
				{AtMs: 25, Event: "websocket-check up", Expect: nil},
				{AtMs: 40, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(2, 40, "websocket", H, "upgrade"))},
				{AtMs: 60, Event: "connected T2", Expect: cat(cancelT(connectT(2)), disposeT(1), activateT(2)), ExpectState: "connected"},
			}},
		{ID: "preference-in-force-one-millisecond-before-its-ttl", Spec: "transport-preference",
			Comment: "HTTP remembered 24 h − 1 ms before the epoch is still in force at the epoch: the attempt starts on HTTP with the background websocket check; " +
				"the check fails, HTTP carries on and connects",
			Config: scenarioConfig{Policy: "websocket-check", Endpoint: H, Preference: lastMsOfHTTPIn},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					timerAt("attempt", 20000), "check-websocket", openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 20, Event: "websocket-check down", Expect: nil},
				{AtMs: 30, Event: "connected T1", Expect: wsCheckConnected(1), ExpectState: "connected"},
			}},
		{ID: "preference-expired-at-its-ttl", Spec: "transport-preference",
			Comment: "HTTP remembered exactly 24 h before the epoch is no longer in force at the epoch: the policy's own start, the websocket walk",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, Preference: expiredHTTP},
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 50, Event: "connected T1", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), wsCheckConnected(1)), ExpectState: "connected"},
			}},
		{ID: "websocket-check-http-only", Spec: "transport-fallback",
			Comment: "websocket-check without websockets: the attempt limit, then HTTP alone with no slow or give-up timer; a refused HTTP with no fallback host ends the attempt",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, WebSocket: &bf},
			Draws:   []float64{0},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					timerAt("attempt", 20000), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 30, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15030)), ExpectState: "disconnected"},
			}},
		{ID: "connect-now-from-disconnected-and-suspended", Spec: "RTN11c",
			Comment: "a connect while DISCONNECTED or SUSPENDED cancels the retry and connects at once, without restarting the state-TTL timer; " +
				"a connect while CONNECTING is ignored; the retry count goes on (15 s, then 20 s with draws of 0)",
			Config: scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 5000},
			Draws:  []float64{0, 0},
			Steps: cat3(
				[]scenarioStep{{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 5000))}},
				failAttemptOnHost(1, 10, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020)),
				[]scenarioStep{
					{AtMs: 1000, Event: "connect", Expect: cat(cancelT("retry"), stateTo("disconnected", "connecting", "connect-requested"), wsFirst(3, 1000, H, "clean"))},
					{AtMs: 1100, Event: "connect", Expect: nil, ExpectState: "connecting"},
				},
				failAttemptOnHost(3, 1200, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 20000), "refused"), timerAt("retry", 21210)),
				[]scenarioStep{
					{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"),
						withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 35000)), ExpectState: "suspended"},
					{AtMs: 6000, Event: "connect", Expect: cat(cancelT("retry"), stateTo("suspended", "connecting", "connect-requested"), wsFirst(5, 6000, H, "clean"))},
				},
			)},
		{ID: "fatal-and-network-events-ignored-when-closed", Spec: "RTN14b/RTN20",
			Comment: "network events before the first connect and after a close, and a fatal error once CLOSED, change nothing",
			Steps: []scenarioStep{
				{AtMs: 0, Event: "network-up", Expect: nil},
				{AtMs: 10, Event: "network-down", Expect: nil, ExpectState: "initialized"},
				{AtMs: 20, Event: "close", Expect: []string{stateTo("initialized", "closed", "close-requested")}},
				{AtMs: 30, Event: "fatal other", Expect: nil},
				{AtMs: 40, Event: "network-up", Expect: nil},
				{AtMs: 50, Event: "network-down", Expect: nil, ExpectState: "closed"},
			}},
		{ID: "websocket-check-walk-failed-before-the-slow-point", Spec: "transport-fallback",
			Comment: "websocket-check: the websocket is refused on the only host, so the websocket check runs at once; at the slow point only the connectivity check starts " +
				"(one websocket check per walk); it says down: DISCONNECTED, and the late websocket check answer is ignored",
			Config: wcH,
			Draws:  []float64{0},
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), "check-websocket")},
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat("check", timerAt("slow-check", 14000))},
				{AtMs: 4100, Event: "connectivity down", Expect: cat(cancelT("slow-check"), cancelT("websocket-give-up"), cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "connectivity-down", 15000), "refused"), timerAt("retry", 19100)), ExpectState: "disconnected"},
				{AtMs: 4200, Event: "websocket-check up", Expect: nil},
			}},
		{ID: "websocket-check-no-answer-give-up-decides", Spec: "transport-fallback",
			Comment: "websocket-check: the websocket fails on the only host while its check is in flight: nothing until the give-up point, where HTTP starts; " +
				"the check's late pass changes nothing",
			Config: wcH,
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat("check-websocket", "check", timerAt("slow-check", 14000))},
				{AtMs: 4100, Event: "connectivity up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 5000, Event: "failed T1 refused", Expect: lost(1)},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: openWith(2, 10000, "http", H, "clean")},
				{AtMs: 10050, Event: "websocket-check up", Expect: nil},
				{AtMs: 10100, Event: "connected T2", Expect: wsCheckConnected(2), ExpectState: "connected"},
			}},
		{ID: "websocket-check-opened-then-closed-before-connected", Spec: "transport-fallback",
			Comment: "websocket-check: the websocket opens, then the server closes it with DISCONNECTED 400 before CONNECTED: not a fallback case, so DISCONNECTED at once",
			Config:  wcH,
			Draws:   []float64{0},
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 20, Event: "viable T1", Expect: cat(cancelT(connectT(1)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
				{AtMs: 30, Event: "closed T1 disconnected:400", Expect: cat(disposeT(1), cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "disconnected:400"), timerAt("retry", 15030)), ExpectState: "disconnected"},
			}},
		{ID: "network-down-and-up-while-connecting", Spec: "RTN20",
			Comment: "network up while CONNECTING restarts the attempt (no state change); network down while CONNECTING goes DISCONNECTED without restarting the state-TTL timer; " +
				"a second network down is ignored; network up connects at once",
			Draws: []float64{0},
			Steps: []scenarioStep{
				connectAt0(P),
				{AtMs: 500, Event: "network-up", Expect: cat(lost(1), cancelT("short-circuit"), wsFirst(2, 500, P, "clean")), ExpectState: "connecting"},
				{AtMs: 1000, Event: "network-down", Expect: cat(lost(2), cancelT("short-circuit"),
					withErr(stateRetry("connecting", "disconnected", "network-down", 15000), "unreachable"), timerAt("retry", 16000))},
				{AtMs: 1100, Event: "network-down", Expect: nil, ExpectState: "disconnected"},
				{AtMs: 2000, Event: "network-up", Expect: cat(cancelT("retry"), stateTo("disconnected", "connecting", "network-up"), wsFirst(3, 2000, P, "clean"))},
			}},
		{ID: "websocket-check-slow-check-unanswered-ends-the-attempt", Spec: "transport-fallback",
			Comment: "websocket-check: the websocket check fails, HTTP takes over at the give-up point, and the slow connectivity check never answers: " +
				"at its timeout the attempt ends DISCONNECTED (connectivity-down), HTTP in flight or not",
			Config: wcH,
			Draws:  []float64{0},
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat("check-websocket", "check", timerAt("slow-check", 14000))},
				{AtMs: 4050, Event: "websocket-check down", Expect: nil},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: cat(lost(1), openWith(2, 10000, "http", H, "clean"))},
				{AtMs: 14000, Event: "timer slow-check", Expect: cat(lost(2), cancelT("attempt"),
					stateRetry("connecting", "disconnected", "connectivity-down", 15000), timerAt("retry", 29000)), ExpectState: "disconnected"},
			}},
		{ID: "websocket-check-two-checks-answered-in-order", Spec: "transport-fallback",
			Comment: "websocket-check: a fallback connectivity check is in flight when the slow point asks for its own; answers come in the order asked: " +
				"the first is the fallback check's (after the failed websocket check it opens no host), the second the slow check's; HTTP starts at the give-up point, on the primary host",
			Config: scenarioConfig{Policy: "websocket-check"},
			Steps: []scenarioStep{
				wsCheckStart(P),
				{AtMs: 3000, Event: "failed T1 refused", Expect: cat(lost(1), "check", timerAt("connectivity-check", 13000))},
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat("check-websocket", "check", timerAt("slow-check", 14000))},
				{AtMs: 4050, Event: "websocket-check down", Expect: nil},
				{AtMs: 4100, Event: "connectivity up", Expect: cat(cancelT("connectivity-check"))},
				{AtMs: 4150, Event: "connectivity up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: openWith(2, 10000, "http", P, "clean"), ExpectState: "connecting"},
			}},
		{ID: "websocket-check-passed-after-the-walk-failed", Spec: "transport-fallback",
			Comment: "websocket-check: the websocket is refused on the only host, and the websocket check then passes: the websocket works elsewhere, so this attempt ends DISCONNECTED without HTTP",
			Config:  wcH,
			Draws:   []float64{0},
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), "check-websocket")},
				{AtMs: 90, Event: "websocket-check up", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15090)), ExpectState: "disconnected"},
			}},
	}
}
