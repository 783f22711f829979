package engine

import "fmt"

// rowScenarios: scenarios written so that every row of docs/engine.md
// (internal/rows) is pinned: HTTP-first and the single-transport
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
	out := []scenario{
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
		{ID: "http-first-websocket-only", Spec: "transport-fallback",
			Comment: "HTTP-first without HTTP: the websocket walks the hosts alone and activates; no upgrade",
			Config:  scenarioConfig{Policy: "http-first", Endpoint: H, HTTP: &bf},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					openWith(1, 0, "websocket", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, false), ExpectState: "connected"},
			}},
		{ID: "preference-under-http-first-websocket-replaces-pending-http", Spec: "transport-preference",
			Comment: "Config.RememberTransport under HTTP-first: the background websocket check passes before HTTP is viable, so a websocket opens beside it; " +
				"HTTP turns viable (rule 4), the websocket turns viable and replaces it (rule 2), then is killed: HTTP opens again on the same host, connects, and the upgrade follows",
			Config: scenarioConfig{Policy: "http-first", Endpoint: H, Preference: rememberedHTTP, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					"check-websocket", openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 10, Event: "websocket-check up", Expect: openWith(2, 10, "websocket", H, "clean")},
				{AtMs: 20, Event: "viable T1", Expect: nil},
				{AtMs: 30, Event: "viable T2", Expect: lost(1)},
				{AtMs: 40, Event: "closed T2", Expect: cat(lost(2), openWith(3, 40, "http", H, "clean"))},
				{AtMs: 50, Event: "connected T3", Expect: cat(becomeConnected(3, false), openWith(4, 50, "websocket", H, "upgrade"))},
				{AtMs: 60, Event: "connected T4", Expect: cat(cancelT(connectT(4)), disposeT(3), activateT(4)), ExpectState: "connected"},
			}},
		{ID: "preference-under-http-first-http-discarded", Spec: "transport-preference",
			Comment: "Config.RememberTransport under HTTP-first: the websocket opened after the background check passes is viable first, so HTTP is discarded when it turns viable (rule 1); the websocket connects",
			Config:  scenarioConfig{Policy: "http-first", Endpoint: H, Preference: rememberedHTTP, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					"check-websocket", openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 10, Event: "websocket-check up", Expect: openWith(2, 10, "websocket", H, "clean")},
				{AtMs: 20, Event: "viable T2", Expect: nil},
				{AtMs: 30, Event: "viable T1", Expect: lost(1)},
				{AtMs: 40, Event: "connected T2", Expect: becomeConnected(2, false), ExpectState: "connected"},
			}},
		{ID: "preference-under-http-first-websocket-lost-beside-http", Spec: "transport-preference",
			Comment: "Config.RememberTransport under HTTP-first: the websocket opened beside HTTP is refused while HTTP is in flight: it is disposed and nothing else happens; HTTP connects and the upgrade follows",
			Config:  scenarioConfig{Policy: "http-first", Endpoint: H, Preference: rememberedHTTP, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					"check-websocket", openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 10, Event: "websocket-check up", Expect: openWith(2, 10, "websocket", H, "clean")},
				{AtMs: 20, Event: "failed T2 refused", Expect: lost(2)},
				{AtMs: 30, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(3, 30, "websocket", H, "upgrade")), ExpectState: "connected"},
			}},
		{ID: "preference-under-http-first-viable-before-the-check-passes", Spec: "transport-preference",
			Comment: "Config.RememberTransport under HTTP-first: HTTP turns viable before the background websocket check passes, so the pass opens nothing; the upgrade follows activation",
			Config:  scenarioConfig{Policy: "http-first", Endpoint: H, Preference: rememberedHTTP, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					"check-websocket", openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 20, Event: "viable T1", Expect: nil},
				{AtMs: 25, Event: "websocket-check up", Expect: nil},
				{AtMs: 40, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(2, 40, "websocket", H, "upgrade")), ExpectState: "connected"},
			}},
		{ID: "websocket-check-fallback-check-times-out", Spec: "RTN17j",
			Comment: "websocket-check: the websocket check passed, the websocket is then refused on the primary and the fallback connectivity check never answers: " +
				"at its timeout the attempt ends DISCONNECTED (connectivity-down); the give-up point changed nothing, the check being in flight",
			Config: scenarioConfig{Policy: "websocket-check"},
			Draws:  []float64{0},
			Steps: []scenarioStep{
				wsCheckStart(P),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat("check-websocket", "check", timerAt("slow-check", 14000))},
				{AtMs: 4050, Event: "websocket-check up", Expect: nil},
				{AtMs: 4100, Event: "connectivity up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 5000, Event: "failed T1 refused", Expect: cat(lost(1), "check", timerAt("connectivity-check", 15000))},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: nil},
				{AtMs: 15000, Event: "timer connectivity-check", Expect: cat(cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "connectivity-down", 15000), "refused"), timerAt("retry", 30000)), ExpectState: "disconnected"},
			}},
		{ID: "websocket-check-suspended-mid-attempt", Spec: "RTN14e",
			Comment: "websocket-check, connectionStateTtl 5 s: connectionStateTtl passes after the slow point, with both checks in flight: the websocket disposed, the attempt timers cancelled, SUSPENDED at once; the late check answers are ignored",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, ConnectionStateTTLMs: 5000},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					timerAt("attempt", 20000), timerAt("websocket-slow", 4000), timerAt("websocket-give-up", 10000),
					openWith(1, 0, "websocket", H, "clean"), timerAt("state-ttl", 5000))},
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat("check-websocket", "check", timerAt("slow-check", 14000))},
				{AtMs: 5000, Event: "timer state-ttl", Expect: cat(lost(1), cancelT("websocket-give-up"), cancelT("attempt"), cancelT("slow-check"),
					stateRetry("connecting", "suspended", "state-ttl", 30000), timerAt("retry", 35000)), ExpectState: "suspended"},
				{AtMs: 5100, Event: "websocket-check up", Expect: nil},
				{AtMs: 5200, Event: "connectivity down", Expect: nil, ExpectState: "suspended"},
			}},
		{ID: "http-first-connectivity-check-times-out-then-suspended-mid-attempt", Spec: "RTN17j/RTN14e",
			Comment: "HTTP-first, connectionStateTtl 30 s: HTTP refused on the primary, the connectivity check never answers (down: DISCONNECTED); the retry's HTTP is in flight when connectionStateTtl passes: SUSPENDED at once",
			Config:  scenarioConfig{Policy: "http-first", ConnectionStateTTLMs: 30000},
			Draws:   []float64{0},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 30000))},
				{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), "check", timerAt("connectivity-check", 10010))},
				{AtMs: 10010, Event: "timer connectivity-check", Expect: cat(
					withErr(stateRetry("connecting", "disconnected", "connectivity-down", 15000), "refused"), timerAt("retry", 25010))},
				{AtMs: 25010, Event: "timer retry", Expect: cat(stateTo("disconnected", "connecting", "retry"), openWith(2, 25010, "http", P, "clean"))},
				{AtMs: 30000, Event: "timer state-ttl", Expect: cat(lost(2), stateRetry("connecting", "suspended", "state-ttl", 30000), timerAt("retry", 60000)), ExpectState: "suspended"},
			}},
		{ID: "http-first-failed-attempt-from-suspended-stays-suspended", Spec: "RTN14e",
			Comment: "HTTP-first, connectionStateTtl 5 s: once SUSPENDED, a retry that fails goes back to SUSPENDED with the flat 30 s, not DISCONNECTED",
			Config:  scenarioConfig{Policy: "http-first", Endpoint: H, ConnectionStateTTLMs: 5000},
			Draws:   []float64{0},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 5000))},
				{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15010))},
				{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 35000))},
				{AtMs: 35000, Event: "timer retry", Expect: cat(stateTo("suspended", "connecting", "retry"), openWith(2, 35000, "http", H, "clean"))},
				{AtMs: 35010, Event: "failed T2 refused", Expect: cat(lost(2), withErr(stateRetry("connecting", "suspended", "connect-failed", 30000), "refused"), timerAt("retry", 65010)), ExpectState: "suspended"},
			}},
		{ID: "websocket-check-failed-attempt-from-suspended-stays-suspended", Spec: "RTN14e",
			Comment: "websocket-check, connectionStateTtl 5 s: once SUSPENDED, a retry that fails (websocket refused, websocket check failed, HTTP refused) goes back to SUSPENDED with the flat 30 s",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, ConnectionStateTTLMs: 5000},
			Draws:   []float64{0},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					timerAt("attempt", 20000), timerAt("websocket-slow", 4000), timerAt("websocket-give-up", 10000),
					openWith(1, 0, "websocket", H, "clean"), timerAt("state-ttl", 5000))},
				{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), "check-websocket")},
				{AtMs: 20, Event: "websocket-check down", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), openWith(2, 20, "http", H, "clean"))},
				{AtMs: 30, Event: "failed T2 refused", Expect: cat(lost(2), cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15030))},
				{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 35000))},
				{AtMs: 35000, Event: "timer retry", Expect: cat(stateTo("suspended", "connecting", "retry"), timerAt("attempt", 55000), timerAt("websocket-slow", 39000),
					timerAt("websocket-give-up", 45000), openWith(3, 35000, "websocket", H, "clean"))},
				{AtMs: 35010, Event: "failed T3 refused", Expect: cat(lost(3), "check-websocket")},
				{AtMs: 35020, Event: "websocket-check down", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), openWith(4, 35020, "http", H, "clean"))},
				{AtMs: 35030, Event: "failed T4 refused", Expect: cat(lost(4), cancelT("attempt"),
					withErr(stateRetry("connecting", "suspended", "connect-failed", 30000), "refused"), timerAt("retry", 65030)), ExpectState: "suspended"},
			}},
		{ID: "preference-under-http-first-resume-websocket-too-late", Spec: "transport-preference",
			Comment: "Config.RememberTransport under HTTP-first: HTTP connected and is remembered; after a drop the reconnect starts on HTTP with the background check, " +
				"which passes, so a websocket opens beside HTTP in resume mode; HTTP activates first: the resume websocket, still opening, is disposed at the activation " +
				"(rule 3 applied at activation) and the upgrade websocket opens; the resume websocket's late viable is stale; the upgrade takes over",
			Config: scenarioConfig{Policy: "http-first", Endpoint: H, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 100, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(2, 100, "websocket", H, "upgrade"))},
				{AtMs: 150, Event: "failed T2 refused", Expect: lost(2)},
				{AtMs: 1000, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0), stateTo("disconnected", "connecting", "reconnect"),
					"check-websocket", openWith(3, 1000, "http", H, "resume"), timerAt("state-ttl", 121000))},
				{AtMs: 1010, Event: "websocket-check up", Expect: openWith(4, 1010, "websocket", H, "resume")},
				{AtMs: 1020, Event: "connected T3", Expect: cat(cancelT(connectT(3)), activateT(3), lost(4), cancelT("state-ttl"),
					stateTo("connecting", "connected", "connected"), openWith(5, 1020, "websocket", H, "upgrade"))},
				{AtMs: 1030, Event: "viable T4", Expect: nil},
				{AtMs: 1040, Event: "connected T5", Expect: cat(cancelT(connectT(5)), disposeT(3), activateT(5)), ExpectState: "connected"},
			}},
		flappingUnderHTTPFirst(),
	}
	for _, pol := range []string{"websocket-first", "http-first"} {
		out = append(out, scenario{ID: "preference-check-fails-under-" + pol, Spec: "transport-preference",
			Comment: "Config.RememberTransport under " + pol + ": the background websocket check of a remembered HTTP fails: no action; HTTP connects and the upgrade follows",
			Config:  scenarioConfig{Policy: pol, Endpoint: H, Preference: rememberedHTTP, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					"check-websocket", openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 10, Event: "websocket-check down", Expect: nil},
				{AtMs: 20, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(2, 20, "websocket", H, "upgrade")), ExpectState: "connected"},
			}})
	}
	return out
}

// flappingUnderHTTPFirst: the flapping guard under HTTP-first, where every
// websocket is an upgrade: four upgrade websockets activate and drop within
// 5 minutes; the reconnect after the fourth opens HTTP alone (as HTTP-first
// always does), no upgrade follows its activation, and the flap-hold timer
// opens the upgrade websocket at the hold's end.
func flappingUnderHTTPFirst() scenario {
	steps := []scenarioStep{
		{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
		{AtMs: 100, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(2, 100, "websocket", P, "upgrade"))},
		{AtMs: 200, Event: "connected T2", Expect: cat(cancelT(connectT(2)), disposeT(1), activateT(2))},
	}
	ws := 2
	for i := 1; i <= 4; i++ {
		at := int64(i) * 10000
		h := ws + 1
		steps = append(steps, scenarioStep{AtMs: at, Event: fmt.Sprintf("closed T%d", ws), Expect: cat(disposeT(ws), stateRetry("connected", "disconnected", "dropped", 0),
			stateTo("disconnected", "connecting", "reconnect"), openWith(h, at, "http", P, "resume"), timerAt("state-ttl", at+120000))})
		if i == 4 {
			steps = append(steps, scenarioStep{AtMs: at + 100, Event: fmt.Sprintf("connected T%d", h), Expect: cat(cancelT(connectT(h)), activateT(h), cancelT("state-ttl"),
				stateTo("connecting", "connected", "connected"), timerAt("flap-hold", 640000))})
			steps = append(steps, scenarioStep{AtMs: 640000, Event: "timer flap-hold", Expect: openWith(h+1, 640000, "websocket", P, "upgrade"), ExpectState: "connected"})
			break
		}
		steps = append(steps,
			scenarioStep{AtMs: at + 100, Event: fmt.Sprintf("connected T%d", h), Expect: cat(becomeConnected(h, false), openWith(h+1, at+100, "websocket", P, "upgrade"))},
			scenarioStep{AtMs: at + 200, Event: fmt.Sprintf("connected T%d", h+1), Expect: cat(cancelT(connectT(h+1)), disposeT(h), activateT(h+1))})
		ws = h + 1
	}
	return scenario{ID: "flapping-under-http-first", Spec: "liveness",
		Comment: "the flapping guard under HTTP-first: four upgrade websockets activate and drop within 5 minutes; the fourth drop's reconnect opens HTTP (as always under HTTP-first) " +
			"but its activation opens no upgrade: the flap-hold timer does, 10 minutes after the fourth drop",
		Steps: steps, Config: scenarioConfig{Policy: "http-first"}}
}
