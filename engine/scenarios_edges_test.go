package engine

// errorScenarios: every state change carries the failure that caused it.
func errorScenarios() []scenario {
	var out []scenario
	add := func(s scenario) { out = append(out, s) }

	// ---- Errors: every state change carries the failure that caused it ----

	add(scenario{ID: "errors-the-last-failure-of-the-attempt", Spec: "RTN4f",
		Comment: "the websocket's host does not resolve, then HTTP fails with a failure of kind other (which does not qualify): " +
			"DISCONNECTED carries other, not the earlier dns; the retry's CONNECTING and the CONNECTED that follows carry none",
		Config: scenarioConfig{Endpoint: H},
		Draws:  []float64{0},
		Steps: []scenarioStep{
			connectAt0(H),
			{AtMs: 30, Event: "failed T1 dns", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 30, "http", H, "clean"))},
			{AtMs: 60, Event: "failed T2 other", Expect: cat(lost(2),
				withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "other"), timerAt("retry", 15060))},
			retryStep(15060, 3, H, "clean", "disconnected"),
			{AtMs: 15100, Event: "connected T3", Expect: becomeConnected(3, true), ExpectState: "connected"},
		}})

	return out
}

// edgeScenarios: three bugs that once passed every other test — transports
// left open after the connectivity check says down, a time earlier than
// the last not treated as the last, HTTP started at the short circuit
// while the websocket is pending.
func edgeScenarios() []scenario {
	var out []scenario
	add := func(s scenario) { out = append(out, s) }

	add(scenario{ID: "connectivity-down-closes-what-is-still-open", Spec: "RTN17j",
		Comment: "the websocket is still opening when HTTP fails and the connectivity check says down: the attempt ends and the websocket is closed too, not left open in DISCONNECTED",
		Draws:   []float64{0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2100, Event: "failed T2 dns", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 12100))},
			{AtMs: 2150, Event: "connectivity C1 down", Expect: cat(cancelT("connectivity-check"), lost(1),
				withErr(stateRetry("connecting", "disconnected", "connectivity-down", 15000), "dns"), timerAt("retry", 17150)),
				ExpectState: "disconnected"},
			{AtMs: 2200, Event: "viable T1", Expect: nil},
		}})

	add(scenario{ID: "a-time-earlier-than-the-last-counts-as-the-last", Spec: "engine",
		Comment: "an event stamped 1 s before the last one happens, for the engine, at the last time: the connectivity check's timeout is 10 s after 2 s, not after 1 s; " +
			"the check's answer, stamped earlier still, opens the fallback host's connect timeout 10 s after 2 s too",
		Draws: []float64{0, 0, 0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 1000, Event: "failed T2 dns", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 12000))},
			{AtMs: 500, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 2000, "http", fbHost("a"), "clean"))},
		}})

	add(scenario{ID: "short-circuit-with-a-pending-websocket-starts-nothing", Spec: "transport-fallback",
		Comment: "the websocket is pending when the short circuit fires: HTTP does not start (the proposal: only if no transport is pending or active)",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 1000, Event: "viable T1", Expect: nil},
			{AtMs: 2000, Event: "timer short-circuit", Expect: nil, ExpectState: "connecting"},
			{AtMs: 2100, Event: "connected T1", Expect: becomeConnected(1, false), ExpectState: "connected"},
		}})

	add(scenario{ID: "flapping-close-cancels-the-hold", Spec: "RTN12",
		Comment: "a close while connected on HTTP during the flapping guard's hold cancels the flap-hold timer: CLOSED leaves no timer running",
		Steps: append(fourWebSocketDrops(),
			scenarioStep{AtMs: 40000, Event: "closed T4", Expect: cat(disposeT(4), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), openWith(5, 40000, "http", P, "resume"), timerAt("state-ttl", 160000))},
			scenarioStep{AtMs: 40100, Event: "connected T5", Expect: cat(cancelT(connectT(5)), activateT(5), cancelT("state-ttl"),
				stateTo("connecting", "connected", "connected"), timerAt("flap-hold", 640000))},
			scenarioStep{AtMs: 50000, Event: "close", Expect: cat(cancelT("flap-hold"), stateTo("connected", "closing", "close-requested"), timerAt("close", 60000))},
			scenarioStep{AtMs: 50100, Event: "closed T5", Expect: cat(disposeT(5), cancelT("close"), stateTo("closing", "closed", "closed")), ExpectState: "closed"},
		)})

	return out
}
