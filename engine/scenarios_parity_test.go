package engine

// Scenarios of PolicyWebSocketCheck as ably-js 2.28.0 runs it
// (connectionmanager.ts), of the transport preference, and of the two
// engine-wide rules the spec shares with it (SUSPENDED on time, RTN17f1
// while connected). Written by hand from those rules, like the rest.

// wsCheckStart is a PolicyWebSocketCheck attempt starting at 0 on host:
// the attempt limit, the slow and give-up timers, then the websocket.
func wsCheckStart(host string) scenarioStep {
	return scenarioStep{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
		timerAt("attempt", 20000), timerAt("websocket-slow", 4000), timerAt("websocket-give-up", 10000),
		openWith(1, 0, "websocket", host, "clean"), timerAt("state-ttl", 120000))}
}

// wsCheckConnected is transport T t activating under PolicyWebSocketCheck
// (its connect timeout already ended when it opened): no upgrade follows.
func wsCheckConnected(t int) []string {
	return cat(cancelT(connectT(t)), activateT(t), cancelT("attempt"), cancelT("state-ttl"), stateTo("connecting", "connected", "connected"))
}

const rememberedHTTP = "v1 http 1767225600000 connected" // HTTP, remembered at the scenarios' epoch

func parityScenarios() []scenario {
	wsCheck := scenarioConfig{Policy: "websocket-check", Endpoint: H}
	bf := false
	return []scenario{
		{ID: "websocket-check-ably-js-rejected-websocket", Spec: "transport-fallback",
			Comment: "ably-js 2.28.0: a proxy refuses the websocket on every host; the websocket check fails at once, so HTTP takes over at once, and no upgrade follows",
			Config:  wsCheck,
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), wsCheckC(1))},
				{AtMs: 90, Event: "websocket-check C1 down", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), openWith(2, 90, "http", H, "clean"))},
				{AtMs: 200, Event: "connected T2", Expect: wsCheckConnected(2), ExpectState: "connected"},
			}},
		{ID: "websocket-check-ably-js-blackholed-websocket", Spec: "transport-fallback",
			Comment: "ably-js 2.28.0: a proxy blackholes websockets; the checks start at 4 s (the connectivity check with its own timeout), HTTP takes over at the 10 s give-up, no upgrade follows",
			Config:  wsCheck,
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
				{AtMs: 4100, Event: "connectivity C2 up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: cat(lost(1), openWith(2, 10000, "http", H, "clean"))},
				{AtMs: 10200, Event: "connected T2", Expect: wsCheckConnected(2)},
				{AtMs: 10300, Event: "websocket-check C1 down", Expect: nil, ExpectState: "connected"},
			}},
		{ID: "websocket-check-attempt-limit", Spec: "transport-fallback",
			Comment: "ably-js 2.28.0: the websocket check passed, so the websocket walks on through the fallback hosts, but the attempt ends at 10 s + realtimeRequestTimeout however many hosts remain",
			Config:  scenarioConfig{Policy: "websocket-check"},
			Draws:   []float64{0, 0, 0, 0},
			Steps: []scenarioStep{
				wsCheckStart(P),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
				{AtMs: 4050, Event: "websocket-check C1 up", Expect: nil},
				{AtMs: 4100, Event: "connectivity C2 up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: nil},
				{AtMs: 10000, Event: "timer connect T1", Expect: cat(disposeT(1), checkC(3), timerAt("connectivity-check", 20000))},
				{AtMs: 10050, Event: "connectivity C3 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 10050, "websocket", fbHost("a"), "clean"))},
				{AtMs: 20000, Event: "timer attempt", Expect: cat(lost(2),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "timeout"), timerAt("retry", 35000)), ExpectRetryCount: ip(1)},
			}},
		{ID: "late-check-answer-from-an-ended-attempt-is-ignored", Spec: "engine",
			Comment: "an answer names its check: the attempt limit ends an attempt while its fallback connectivity check C4 hangs; " +
				"in the retry the websocket is refused and fallback check C5 is asked; C4's late down (and an answer naming no check, C0) change nothing, " +
				"and C5's up sends the walk to a fallback host (taken as C5's, the late down would have cost a DISCONNECTED retry)",
			Config: scenarioConfig{Policy: "websocket-check"},
			Draws:  []float64{0, 0, 0, 0, 0, 0, 0},
			Steps: []scenarioStep{
				wsCheckStart(P),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
				{AtMs: 4030, Event: "websocket-check C1 up", Expect: nil},
				{AtMs: 4040, Event: "connectivity C2 up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: nil},
				{AtMs: 10000, Event: "timer connect T1", Expect: cat(disposeT(1), checkC(3), timerAt("connectivity-check", 20000))},
				{AtMs: 10050, Event: "connectivity C3 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 10050, "websocket", fbHost("a"), "clean"))},
				{AtMs: 12000, Event: "failed T2 refused", Expect: cat(lost(2), checkC(4), timerAt("connectivity-check", 22000))},
				{AtMs: 20000, Event: "timer attempt", Expect: cat(cancelT("connectivity-check"),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 35000)), ExpectRetryCount: ip(1)},
				{AtMs: 35000, Event: "timer retry", Expect: cat(stateTo("disconnected", "connecting", "retry"), timerAt("attempt", 55000),
					timerAt("websocket-slow", 39000), timerAt("websocket-give-up", 45000), openWith(3, 35000, "websocket", P, "clean"))},
				{AtMs: 35030, Event: "failed T3 refused", Expect: cat(lost(3), checkC(5), timerAt("connectivity-check", 45030))},
				{AtMs: 35040, Event: "connectivity C4 down", Expect: nil, ExpectState: "connecting"},
				{AtMs: 35050, Event: "connectivity C0 down", Expect: nil, ExpectState: "connecting"},
				{AtMs: 35060, Event: "connectivity C5 up", Expect: cat(cancelT("connectivity-check"), openWith(4, 35060, "websocket", fbHost("a"), "clean"))},
				{AtMs: 35100, Event: "connected T4", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), wsCheckConnected(4)),
					ExpectState: "connected", ExpectRetryCount: ip(0)},
			}},
		{ID: "websocket-check-timers-end-when-the-websocket-opens", Spec: "transport-fallback",
			Comment: "ably-js 2.28.0: a websocket that opens ends the slow and give-up timers and its own connect timeout; if CONNECTED never comes, the attempt limit ends the attempt",
			Config:  wsCheck,
			Draws:   []float64{0},
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 100, Event: "viable T1", Expect: cat(cancelT(connectT(1)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
				{AtMs: 20000, Event: "timer attempt", Expect: cat(disposeT(1),
					stateRetry("connecting", "disconnected", "connect-failed", 15000), timerAt("retry", 35000))},
			}},
		{ID: "websocket-check-websocket-only", Spec: "transport-fallback",
			Comment: "ably-js 2.28.0 with websocket as the only transport: the 4 s checks still run, the give-up timer has nothing to give up to, a failed websocket check stops the walk, and the attempt limit decides",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, HTTP: &bf},
			Draws:   []float64{0},
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
				{AtMs: 4050, Event: "websocket-check C1 down", Expect: nil},
				{AtMs: 4100, Event: "connectivity C2 up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: nil},
				{AtMs: 10000, Event: "timer connect T1", Expect: cat(disposeT(1))},
				{AtMs: 20000, Event: "timer attempt", Expect: cat(
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "timeout"), timerAt("retry", 35000))},
			}},
		{ID: "websocket-check-failed-check-stops-the-walk", Spec: "transport-fallback",
			Comment: "ably-js 2.28.0: after a failed websocket check the websocket walk tries no more hosts; HTTP starts at the give-up point",
			Config:  scenarioConfig{Policy: "websocket-check"},
			Steps: []scenarioStep{
				wsCheckStart(P),
				{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
				{AtMs: 4050, Event: "websocket-check C1 down", Expect: nil},
				{AtMs: 4100, Event: "connectivity C2 up", Expect: cat(cancelT("slow-check"))},
				{AtMs: 5000, Event: "failed T1 refused", Expect: lost(1)},
				{AtMs: 10000, Event: "timer websocket-give-up", Expect: openWith(2, 10000, "http", P, "clean")},
				{AtMs: 10100, Event: "connected T2", Expect: wsCheckConnected(2), ExpectState: "connected"},
			}},
		{ID: "websocket-check-disconnected-503-before-connected-goes-to-a-fallback-host", Spec: "RTN17f1",
			Comment: "ably-js 2.28.0: the websocket opens and the server answers DISCONNECTED 503 before CONNECTED: an immediate reconnect that checks the internet and starts on a fallback host",
			Config:  scenarioConfig{Policy: "websocket-check"},
			Draws:   []float64{0, 0, 0},
			Steps: []scenarioStep{
				wsCheckStart(P),
				{AtMs: 20, Event: "viable T1", Expect: cat(cancelT(connectT(1)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
				{AtMs: 30, Event: "closed T1 disconnected:503", Expect: cat(disposeT(1), cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "dropped", 0), "disconnected:503"), stateTo("disconnected", "connecting", "reconnect"),
					timerAt("attempt", 20030), timerAt("websocket-slow", 4030), timerAt("websocket-give-up", 10030), checkC(1), timerAt("connectivity-check", 10030))},
				{AtMs: 60, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 60, "websocket", fbHost("a"), "clean"))},
				{AtMs: 90, Event: "connected T2", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), wsCheckConnected(2)), ExpectState: "connected"},
			}},
		{ID: "preference-remembered-http-returns-to-websocket", Spec: "transport-preference",
			Comment: "a remembered HTTP starts the attempt on HTTP and checks the websocket in the background; the check passes, so the attempt returns to the websocket (the attempt limit keeps running)",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, Preference: rememberedHTTP},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					timerAt("attempt", 20000), wsCheckC(1), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 25, Event: "websocket-check C1 up", Expect: cat(lost(1), timerAt("websocket-slow", 4025), timerAt("websocket-give-up", 10025),
					openWith(2, 25, "websocket", H, "clean"))},
				{AtMs: 50, Event: "connected T2", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), wsCheckConnected(2)), ExpectState: "connected"},
			}},
		{ID: "preference-remembered-http-websocket-still-blocked", Spec: "transport-preference",
			Comment: "a remembered HTTP starts the attempt on HTTP; the background websocket check fails, so HTTP carries on",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, Preference: rememberedHTTP},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					timerAt("attempt", 20000), wsCheckC(1), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 20, Event: "websocket-check C1 down", Expect: nil},
				{AtMs: 30, Event: "connected T1", Expect: wsCheckConnected(1), ExpectState: "connected"},
			}},
		{ID: "preference-http-remembered-after-a-drop", Spec: "transport-preference",
			Comment: "HTTP connected because the websocket is refused; after a drop the reconnect starts on the remembered HTTP at once, checking the websocket in the background",
			Config:  wsCheck,
			Steps: []scenarioStep{
				wsCheckStart(H),
				{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), wsCheckC(1))},
				{AtMs: 90, Event: "websocket-check C1 down", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), openWith(2, 90, "http", H, "clean"))},
				{AtMs: 200, Event: "connected T2", Expect: wsCheckConnected(2)},
				{AtMs: 30000, Event: "closed T2 unreachable", Expect: cat(disposeT(2),
					withErr(stateRetry("connected", "disconnected", "dropped", 0), "unreachable"), stateTo("disconnected", "connecting", "reconnect"),
					timerAt("attempt", 50000), wsCheckC(2), openWith(3, 30000, "http", H, "resume"), timerAt("state-ttl", 150000))},
				{AtMs: 30030, Event: "connected T3", Expect: wsCheckConnected(3), ExpectState: "connected"},
			}},
		{ID: "preference-remembered-http-under-websocket-first-races-the-websocket", Spec: "transport-preference",
			Comment: "Config.RememberTransport under the websocket-first policy: a remembered HTTP starts alone with the websocket check in the background; " +
				"the check passes, so a websocket opens beside the HTTP still in flight and the first to connect wins (here the websocket)",
			Config: scenarioConfig{Endpoint: H, Preference: rememberedHTTP, RememberTransport: true},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					wsCheckC(1), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 25, Event: "websocket-check C1 up", Expect: openWith(2, 25, "websocket", H, "clean")},
				{AtMs: 60, Event: "connected T2", Expect: cat(becomeConnected(2, false), lost(1)), ExpectState: "connected"},
			}},
		{ID: "preference-forgotten-when-its-transport-fails", Spec: "transport-preference",
			Comment: "the attempt on the remembered HTTP fails to connect while the internet is up: the preference is forgotten, so the retry starts on the websocket",
			Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, Preference: rememberedHTTP},
			Draws:   []float64{0},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					timerAt("attempt", 20000), wsCheckC(1), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
				{AtMs: 20, Event: "websocket-check C1 down", Expect: nil},
				{AtMs: 30, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("attempt"),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15030))},
				{AtMs: 15030, Event: "timer retry", Expect: cat(stateTo("disconnected", "connecting", "retry"), timerAt("attempt", 35030),
					timerAt("websocket-slow", 19030), timerAt("websocket-give-up", 25030), openWith(2, 15030, "websocket", H, "clean"))},
			}},
		{ID: "suspended-the-moment-connection-state-ttl-passes-mid-attempt", Spec: "RTN14e",
			Comment: "connectionStateTtl passes while an attempt is in flight: SUSPENDED at that moment, the attempt's transports closed, not when the attempt ends",
			Config:  scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 30000},
			Draws:   []float64{0},
			Steps: []scenarioStep{
				{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 30000))},
				{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", H, "clean")},
				{AtMs: 10000, Event: "timer connect T1", Expect: cat(disposeT(1))},
				{AtMs: 12000, Event: "timer connect T2", Expect: cat(disposeT(2),
					withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "timeout"), timerAt("retry", 27000))},
				retryStep(27000, 3, H, "clean", "disconnected"),
				{AtMs: 29000, Event: "timer short-circuit", Expect: openWith(4, 29000, "http", H, "clean")},
				{AtMs: 30000, Event: "timer state-ttl", Expect: cat(lost(3), lost(4),
					stateRetry("connecting", "suspended", "state-ttl", 30000), timerAt("retry", 60000)), ExpectState: "suspended", ExpectRetryCount: ip(0)},
			}},
		{ID: "server-disconnected-503-while-connected-goes-to-a-fallback-host", Spec: "RTN17f1",
			Comment: "a connected server sends DISCONNECTED 503: the immediate reconnect checks the internet and starts on a fallback host, not the primary",
			Draws:   []float64{0, 0, 0},
			Steps: []scenarioStep{
				connectAt0(P),
				{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
				{AtMs: 30000, Event: "closed T1 disconnected:503", Expect: cat(disposeT(1),
					withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:503"), stateTo("disconnected", "connecting", "reconnect"),
					checkC(1), timerAt("connectivity-check", 40000), timerAt("state-ttl", 150000))},
				{AtMs: 30050, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), wsFirst(2, 30050, fbHost("a"), "resume"))},
				{AtMs: 30100, Event: "connected T2", Expect: becomeConnected(2, true), ExpectState: "connected"},
			}},
	}
}
