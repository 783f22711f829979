package engine

// Scenarios of the opt-in storm-safe options, written from the rules of
// docs/storm-safe-reconnect.md (the amendment's sentences), not recorded
// from the engine.

func stormSafeScenarios() []scenario {
	return []scenario{
		{ID: "storm-safe-reconnect-window", Spec: "storm-safe/RTN15a",
			Comment: "reconnectWindowMs 2000, draw 0.25: a drop waits 2000 × 0.25 = 500 ms in DISCONNECTED, then reconnects (reason reconnect, retry count 0); " +
				"a second drop within 1 s of the first drop waits an RTB1 delay (draw 0: 15 s, retry count 1)",
			Config: scenarioConfig{ReconnectWindowMs: 2000},
			Draws:  []float64{0.25, 0},
			Steps: []scenarioStep{
				connectAt0(P),
				{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
				{AtMs: 1000, Event: "closed T1 disconnected:400", Expect: cat(disposeT(1),
					withErr(stateRetry("connected", "disconnected", "dropped", 500), "disconnected:400"),
					timerAt("retry", 1500), timerAt("state-ttl", 121000)), ExpectState: "disconnected", ExpectRetryCount: ip(0)},
				{AtMs: 1500, Event: "timer retry", Expect: cat(stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 1500, P, "resume")),
					ExpectRetryCount: ip(0)},
				{AtMs: 1650, Event: "connected T2", Expect: becomeConnected(2, true)},
				{AtMs: 1900, Event: "closed T2", Expect: cat(disposeT(2), stateRetry("connected", "disconnected", "dropped", 15000),
					timerAt("retry", 16900), timerAt("state-ttl", 121900)), ExpectRetryCount: ip(1)},
			}},
		{ID: "storm-safe-retry-spread", Spec: "storm-safe/RTB1",
			Comment: "retrySpread 1: DISCONNECTED retries wait initial × coefficient × (1 − u): draw 0.5 gives 15000 × 1 × 0.5 = 7500 ms, draw 0.25 gives 15000 × 4/3 × 0.75 = 15000 ms",
			Config:  scenarioConfig{Endpoint: H, RetrySpread: 1},
			Draws:   []float64{0.5, 0.25},
			Steps: cat3(
				[]scenarioStep{connectAt0(H)},
				failAttemptOnHost(1, 10, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 7500), "refused"), timerAt("retry", 7520)),
				[]scenarioStep{retryStep(7520, 3, H, "clean", "disconnected")},
				failAttemptOnHost(3, 7530, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 22540)),
			)},
		{ID: "storm-safe-suspended-spread", Spec: "storm-safe/RTN14e",
			Comment: "suspendedSpread 0.5, connectionStateTtl 5 s: SUSPENDED retries wait 30000 × (1 − 0.5u): draw 0.5 at connectionStateTtl gives 22500 ms, " +
				"draw 1 after the next failure 15000 ms; the DISCONNECTED retry before it is plain RTB1 (draw 0: 15 s)",
			Config: scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 5000, SuspendedSpread: 0.5},
			Draws:  []float64{0, 0.5, 1},
			Steps: cat3(
				[]scenarioStep{{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
					wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 5000))}},
				failAttemptOnHost(1, 10, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020)),
				[]scenarioStep{
					{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"),
						withErr(stateRetry("disconnected", "suspended", "state-ttl", 22500), "refused"), timerAt("retry", 27500)),
						ExpectState: "suspended", ExpectRetryCount: ip(0)},
					retryStep(27500, 3, H, "clean", "suspended"),
				},
				failAttemptOnHost(3, 27510, H, "clean", withErr(stateRetry("connecting", "suspended", "connect-failed", 15000), "refused"), timerAt("retry", 42520)),
			)},
		{ID: "storm-safe-reconnect-window-immediate-share", Spec: "storm-safe/RTN15a",
			Comment: "reconnectWindowMs 2000, immediateShare 0.1: draw 0.05 (below 0.1) reconnects at once as RTN15a; a later drop with draw 0.55 waits 2000 × (0.55 − 0.1) / 0.9 = 1000 ms",
			Config:  scenarioConfig{ReconnectWindowMs: 2000, ImmediateShare: 0.1},
			Draws:   []float64{0.05, 0.55},
			Steps: []scenarioStep{
				connectAt0(P),
				{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
				{AtMs: 1000, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
					stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 1000, P, "resume"), timerAt("state-ttl", 121000))},
				{AtMs: 1100, Event: "connected T2", Expect: becomeConnected(2, true)},
				{AtMs: 5000, Event: "closed T2", Expect: cat(disposeT(2), stateRetry("connected", "disconnected", "dropped", 1000),
					timerAt("retry", 6000), timerAt("state-ttl", 125000)), ExpectRetryCount: ip(0)},
				{AtMs: 6000, Event: "timer retry", Expect: cat(stateTo("disconnected", "connecting", "reconnect"), wsFirst(3, 6000, P, "resume"))},
			}},
	}
}
