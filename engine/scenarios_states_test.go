package engine

// stateScenarios: network changes (RTN20), close in every state (RTN12),
// FAILED, the other policies and transports, and bad events.
func stateScenarios() []scenario {
	bf := false
	var out []scenario
	add := func(s scenario) { out = append(out, s) }

	// ---- Network (RTN20) ----

	add(scenario{ID: "network-down-then-up", Spec: "RTN20",
		Comment: "network down while connected goes DISCONNECTED with an RTB1 retry; network up connects at once",
		Draws:   []float64{0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "network-down", Expect: cat(disposeT(1), withErr(stateRetry("connected", "disconnected", "network-down", 15000), "unreachable"),
				timerAt("retry", 20000), timerAt("state-ttl", 125000))},
			{AtMs: 8000, Event: "network-up", Expect: cat(cancelT("retry"), stateTo("disconnected", "connecting", "network-up"), wsFirst(2, 8000, P, "resume"))},
			{AtMs: 8150, Event: "connected T2", Expect: becomeConnected(2, true)},
		}})

	add(scenario{ID: "rule-3-at-activation-resume-websocket", Spec: "transport-fallback",
		Comment: "after a drop the reconnect's resume websocket hangs; HTTP (resume) activates and closes it at once (rule 3 at " +
			"activation: a websocket not in upgrade mode still opening); its late viable finds nothing; the upgrade websocket takes over",
		Draws: []float64{0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "network-down", Expect: cat(disposeT(1), withErr(stateRetry("connected", "disconnected", "network-down", 15000), "unreachable"),
				timerAt("retry", 20000), timerAt("state-ttl", 125000))},
			{AtMs: 8000, Event: "network-up", Expect: cat(cancelT("retry"), stateTo("disconnected", "connecting", "network-up"), wsFirst(2, 8000, P, "resume"))},
			{AtMs: 10000, Event: "timer short-circuit", Expect: openWith(3, 10000, "http", P, "resume")},
			{AtMs: 10150, Event: "viable T3", Expect: nil},
			{AtMs: 10200, Event: "connected T3", Expect: cat(becomeConnected(3, false), lost(2), openWith(4, 10200, "websocket", P, "upgrade"))},
			{AtMs: 10500, Event: "viable T2", Expect: nil, ExpectState: "connected"},
			{AtMs: 10600, Event: "viable T4", Expect: nil},
			{AtMs: 10650, Event: "connected T4", Expect: cat(cancelT(connectT(4)), disposeT(3), activateT(4)), ExpectState: "connected"},
		}})

	add(scenario{ID: "network-up-while-suspended", Spec: "RTN20b",
		Comment: "network up while SUSPENDED connects at once",
		Config:  scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 5000},
		Draws:   []float64{0},
		Steps: cat3(
			[]scenarioStep{{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
				wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 5000))}},
			failAttemptOnHost(1, 10, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020)),
			[]scenarioStep{
				{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 35000))},
				{AtMs: 6000, Event: "network-up", Expect: cat(cancelT("retry"), stateTo("suspended", "connecting", "network-up"), wsFirst(3, 6000, H, "clean"))},
			},
		),
	})

	// ---- Close (RTN12) and FAILED ----

	add(scenario{ID: "close-from-initialized", Spec: "RTN12",
		Comment: "close before connecting", Steps: []scenarioStep{
			{AtMs: 0, Event: "close", Expect: []string{stateTo("initialized", "closed", "close-requested")}, ExpectState: "closed"},
			{AtMs: 10, Event: "close", Expect: nil},
		}})

	add(scenario{ID: "close-from-connecting", Spec: "RTN12",
		Comment: "close while connecting drops the attempt at once", Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 500, Event: "close", Expect: cat(lost(1), cancelT("short-circuit"), cancelT("state-ttl"),
				stateTo("connecting", "closed", "close-requested"))},
			{AtMs: 600, Event: "viable T1", Expect: nil, ExpectState: "closed"},
		}})

	add(scenario{ID: "close-from-connected", Spec: "RTN12",
		Comment: "close while connected: CLOSING until the transport closes", Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 1000, Event: "close", Expect: cat(stateTo("connected", "closing", "close-requested"), timerAt("close", 11000))},
			{AtMs: 1200, Event: "closed T1", Expect: cat(disposeT(1), cancelT("close"), stateTo("closing", "closed", "closed"))},
		}})

	add(scenario{ID: "close-from-connected-times-out", Spec: "RTN12",
		Comment: "the server never confirms the close: CLOSED after realtimeRequestTimeout", Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 1000, Event: "close", Expect: cat(stateTo("connected", "closing", "close-requested"), timerAt("close", 11000))},
			{AtMs: 1500, Event: "close", Expect: nil},
			{AtMs: 11000, Event: "timer close", Expect: cat(disposeT(1), stateTo("closing", "closed", "closed"))},
		}})

	add(scenario{ID: "close-from-disconnected-then-connect-afresh", Spec: "RTN12/RTN11",
		Comment: "close while DISCONNECTED cancels the retry; a later connect starts a clean connection with n from 1",
		Config:  scenarioConfig{Endpoint: H}, Draws: []float64{0, 0},
		Steps: cat3(
			[]scenarioStep{connectAt0(H)},
			failAttemptOnHost(1, 10, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020)),
			[]scenarioStep{
				{AtMs: 1000, Event: "close", Expect: cat(cancelT("retry"), cancelT("state-ttl"), stateTo("disconnected", "closed", "close-requested"))},
				{AtMs: 15020, Event: "timer retry", Expect: nil, ExpectState: "closed"},
				{AtMs: 20000, Event: "connect", Expect: cat(stateTo("closed", "connecting", "connect-requested"), wsFirst(3, 20000, H, "clean"), timerAt("state-ttl", 140000)), ExpectRetryCount: ip(0)},
			},
			failAttemptOnHost(3, 20010, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 35020)),
		),
	})

	add(scenario{ID: "close-from-suspended", Spec: "RTN12",
		Comment: "close while SUSPENDED", Config: scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 5000}, Draws: []float64{0},
		Steps: cat3(
			[]scenarioStep{{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
				wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 5000))}},
			failAttemptOnHost(1, 10, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020)),
			[]scenarioStep{
				{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 35000))},
				{AtMs: 6000, Event: "close", Expect: cat(cancelT("retry"), stateTo("suspended", "closed", "close-requested"))},
			},
		),
	})

	add(scenario{ID: "fatal-error-then-connect", Spec: "RTN14b",
		Comment: "a fatal error goes FAILED and stays there (a close changes nothing) until a connect",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 200, Event: "fatal token:401", Expect: cat(disposeT(1), withErr(stateTo("connected", "failed", "fatal"), "token")), ExpectState: "failed"},
			{AtMs: 300, Event: "network-up", Expect: nil},
			{AtMs: 350, Event: "close", Expect: nil, ExpectState: "failed"},
			{AtMs: 400, Event: "connect", Expect: cat(stateTo("failed", "connecting", "connect-requested"), wsFirst(2, 400, P, "clean"), timerAt("state-ttl", 120400))},
		}})

	// ---- Other configurations ----

	add(scenario{ID: "websocket-only-walks-the-hosts", Spec: "RTN17",
		Comment: "without HTTP the websocket itself walks the hosts: no short circuit",
		Config:  scenarioConfig{HTTP: &bf}, Draws: []float64{0.99, 0, 0},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
				openWith(1, 0, "websocket", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 30, Event: "failed T1 dns", Expect: cat(lost(1), checkC(1), timerAt("connectivity-check", 10030))},
			{AtMs: 60, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 60, "websocket", fbHost("e"), "clean"))},
			{AtMs: 100, Event: "connected T2", Expect: becomeConnected(2, false)},
		}})

	add(scenario{ID: "http-first-policy-upgrades", Spec: "transport-fallback",
		Comment: "the policy the proposal replaced: HTTP first, then an upgrade websocket on the same host",
		Config:  scenarioConfig{Policy: "http-first"},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
				openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 100, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(2, 100, "websocket", P, "upgrade"))},
			{AtMs: 200, Event: "connected T2", Expect: cat(cancelT(connectT(2)), disposeT(1), activateT(2))},
		}})

	add(scenario{ID: "bad-events-are-ignored", Spec: "engine",
		Comment: "events for unknown transports and timers, duplicates and a time earlier than the last change nothing",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "viable T9", Expect: nil},
			{AtMs: 100, Event: "failed T0 refused", Expect: nil},
			{AtMs: 100, Event: "connectivity C1 up", Expect: nil},
			{AtMs: 200, Event: "viable T1", Expect: nil},
			{AtMs: 250, Event: "viable T1", Expect: nil},
			{AtMs: 50, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 300, Event: "connected T1", Expect: nil},
			{AtMs: 400, Event: "connect", Expect: nil, ExpectState: "connected"},
		}})

	return out
}
