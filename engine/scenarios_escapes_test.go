package engine

import "fmt"

// boundaryScenarios pin rules at their edges, where an engine written from
// docs/engine.md with one comparison, reset or condition slightly off
// passes every other scenario: the retry count a fresh connect forgets, the
// rate limit's exact second, the short circuit only with both transports
// (and 0 meaning its default), check IDs, the host order drawn once, the
// flapping window's end and its websocket-only count, the RTN17f1 range
// 500–504 at both ends, and the attempt's last failure kept through a
// clean close. Each comes in two timelines, so that each rule is pinned
// twice.
func boundaryScenarios() []scenario {
	var out []scenario
	add := func(s scenario) { out = append(out, s) }
	bf := false
	zero := int64(0)
	wc := scenarioConfig{Policy: "websocket-check"}
	wcH := scenarioConfig{Policy: "websocket-check", Endpoint: H}
	hf := scenarioConfig{Policy: "http-first"}
	hfH := scenarioConfig{Policy: "http-first", Endpoint: H}

	// ---- A fresh connect counts retries from one again ----

	add(scenario{ID: "fatal-then-connect-counts-from-one", Spec: "RTN11, RTB1",
		Comment: "an attempt fails (retry number 1: 15000 ms), a fatal error, then connect: the fresh connect forgets the retry count, so its failed attempt is retry number 1 again (15000 ms), not 2 (20000 ms)",
		Config:  scenarioConfig{Endpoint: H},
		Draws:   []float64{0, 0},
		Steps: cat3(
			[]scenarioStep{connectAt0(H)},
			failAttemptOnHost(1, 40, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15050)),
			[]scenarioStep{
				{AtMs: 100, Event: "fatal token", Expect: cat(cancelT("retry"), cancelT("state-ttl"), withErr(stateTo("disconnected", "failed", "fatal"), "token")), ExpectState: "failed"},
				{AtMs: 200, Event: "connect", Expect: cat(stateTo("failed", "connecting", "connect-requested"), wsFirst(3, 200, H, "clean"), timerAt("state-ttl", 120200)),
					ExpectRetryCount: ip(0)},
			},
			failAttemptOnHost(3, 240, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15250)),
		)})

	add(scenario{ID: "close-then-connect-counts-from-one-http-first", Spec: "RTN11, RTB1",
		Comment: "HTTP-first: HTTP refused on the only host twice (15000 ms, then 20000 ms), close, connect: the fresh connect forgets the retry count, so its failed attempt waits 15000 ms again",
		Config:  hfH,
		Draws:   []float64{0, 0, 0},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15010))},
			{AtMs: 15010, Event: "timer retry", Expect: cat(stateTo("disconnected", "connecting", "retry"), openWith(2, 15010, "http", H, "clean"))},
			{AtMs: 15020, Event: "failed T2 refused", Expect: cat(lost(2), withErr(stateRetry("connecting", "disconnected", "connect-failed", 20000), "refused"), timerAt("retry", 35020)),
				ExpectRetryCount: ip(2)},
			{AtMs: 16000, Event: "close", Expect: cat(cancelT("retry"), cancelT("state-ttl"), stateTo("disconnected", "closed", "close-requested"))},
			{AtMs: 17000, Event: "connect", Expect: cat(stateTo("closed", "connecting", "connect-requested"), openWith(3, 17000, "http", H, "clean"), timerAt("state-ttl", 137000))},
			{AtMs: 17010, Event: "failed T3 refused", Expect: cat(lost(3), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 32010)),
				ExpectState: "disconnected", ExpectRetryCount: ip(1)},
		}})

	// ---- The rate limit counts only under 1000 ms ----

	add(scenario{ID: "immediate-reconnect-exactly-one-second-later", Spec: "RTN15a; decision: at most one a second",
		Comment: "the second drop comes exactly 1000 ms after the last immediate reconnect: the limit is less than 1000 ms, so it reconnects at once again (no retry number, no draw)",
		Config:  scenarioConfig{Endpoint: H},
		Steps: []scenarioStep{
			connectAt0(H),
			{AtMs: 10, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 1000, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 1000, H, "resume"), timerAt("state-ttl", 121000))},
			{AtMs: 1500, Event: "connected T2", Expect: becomeConnected(2, true)},
			{AtMs: 2000, Event: "closed T2", Expect: cat(disposeT(2), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(3, 2000, H, "resume"), timerAt("state-ttl", 122000)),
				ExpectState: "connecting", ExpectRetryCount: ip(0)},
		}})

	add(scenario{ID: "immediate-reconnect-exactly-one-second-later-http-first", Spec: "RTN15a; decision: at most one a second",
		Comment: "HTTP-first without websockets: HTTP drops exactly 1000 ms after the last immediate reconnect, with a failure: it reconnects at once again",
		Config:  scenarioConfig{Policy: "http-first", Endpoint: H, WebSocket: &bf},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "http", H, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 10, Event: "connected T1", Expect: becomeConnected(1, false)},
			{AtMs: 3000, Event: "failed T1 unreachable", Expect: cat(disposeT(1), withErr(stateRetry("connected", "disconnected", "dropped", 0), "unreachable"),
				stateTo("disconnected", "connecting", "reconnect"), openWith(2, 3000, "http", H, "resume"), timerAt("state-ttl", 123000))},
			{AtMs: 3200, Event: "connected T2", Expect: becomeConnected(2, false)},
			{AtMs: 4000, Event: "failed T2 unreachable", Expect: cat(disposeT(2), withErr(stateRetry("connected", "disconnected", "dropped", 0), "unreachable"),
				stateTo("disconnected", "connecting", "reconnect"), openWith(3, 4000, "http", H, "resume"), timerAt("state-ttl", 124000)),
				ExpectState: "connecting", ExpectRetryCount: ip(0)},
		}})

	// ---- The short circuit: only with both transports; 0 means 2000 ms ----

	add(scenario{ID: "websocket-only-connect-has-no-short-circuit", Spec: "transport-fallback",
		Comment: "websocket-first without HTTP: the websocket alone, no short-circuit timer (there is nothing to fall back to); it fails on the only host and the attempt ends at once",
		Config:  scenarioConfig{Endpoint: H, HTTP: &bf},
		Draws:   []float64{0},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "websocket", H, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 100, Event: "failed T1 refused", Expect: cat(lost(1), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15100)),
				ExpectState: "disconnected"},
		}})

	add(scenario{ID: "websocket-only-close-while-connecting", Spec: "transport-fallback, RTN12",
		Comment: "websocket-first without HTTP: a close while CONNECTING disposes the websocket and cancels state-ttl; no short-circuit timer runs to cancel",
		Config:  scenarioConfig{Endpoint: H, HTTP: &bf},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "websocket", H, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 500, Event: "close", Expect: cat(lost(1), cancelT("state-ttl"), stateTo("connecting", "closed", "close-requested")), ExpectState: "closed"},
		}})

	add(scenario{ID: "short-circuit-zero-means-default", Spec: "transport-fallback; decision: a short circuit ≤ 0 means 2000 ms",
		Comment: "config shortCircuitMs 0: the default 2000 ms, so the short circuit is due at 2000 and HTTP starts then",
		Config:  scenarioConfig{ShortCircuitMs: &zero},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
		}})

	add(scenario{ID: "short-circuit-zero-means-default-on-reconnect", Spec: "transport-fallback, RTN15a; decision: a short circuit ≤ 0 means 2000 ms",
		Comment: "config shortCircuitMs 0: the immediate reconnect after a drop arms the short circuit 2000 ms after the drop too",
		Config:  scenarioConfig{Endpoint: H, ShortCircuitMs: &zero},
		Steps: []scenarioStep{
			connectAt0(H),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 5000, H, "resume"), timerAt("state-ttl", 125000))},
			{AtMs: 7000, Event: "timer short-circuit", Expect: openWith(3, 7000, "http", H, "resume")},
		}})

	// ---- An answer names its check ----

	add(scenario{ID: "unknown-check-answer-is-ignored", Spec: "RTN17j; decision: checks carry IDs",
		Comment: "the websocket and HTTP refused on the primary, check C1 asked: an answer naming C9, a check never asked, changes nothing; C1's up then opens HTTP on the first fallback host",
		Draws:   []float64{0, 0, 0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 10, "http", P, "clean"))},
			{AtMs: 20, Event: "failed T2 refused", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 10020))},
			{AtMs: 30, Event: "connectivity C9 down", Expect: nil, ExpectState: "connecting"},
			{AtMs: 40, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 40, "http", fbHost("a"), "clean"))},
		}})

	add(scenario{ID: "unknown-check-answer-is-ignored-http-first", Spec: "RTN17j; decision: checks carry IDs",
		Comment: "HTTP-first: HTTP refused on the primary, check C1 asked: an up naming C2, the number the next check would get, changes nothing; C1's down ends the attempt",
		Config:  hf,
		Draws:   []float64{0},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), checkC(1), timerAt("connectivity-check", 10010))},
			{AtMs: 20, Event: "connectivity C2 up", Expect: nil, ExpectState: "connecting"},
			{AtMs: 30, Event: "connectivity C1 down", Expect: cat(cancelT("connectivity-check"),
				withErr(stateRetry("connecting", "disconnected", "connectivity-down", 15000), "refused"), timerAt("retry", 15030)), ExpectState: "disconnected"},
		}})

	// ---- The host order is drawn once per attempt ----

	// Draws 0.9, 0, 0.5 over the five fallback hosts a–e: ⌊0.9·5⌋ = 4 is
	// e, then ⌊0·4⌋ = 0 of a, b, c, d is a, then ⌊0.5·3⌋ = 1 of b, c, d is
	// c: the order e, a, c.
	orderDraws := []float64{0.9, 0, 0.5}

	add(scenario{ID: "fallback-order-drawn-once-http-first", Spec: "RTN17, RSC15",
		Comment: "HTTP-first: HTTP refused on the primary and on each fallback host: the order e, a, c is drawn at the first up and walked; the later ups draw nothing",
		Config:  hf,
		Draws:   orderDraws,
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), checkC(1), timerAt("connectivity-check", 10010))},
			{AtMs: 20, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 20, "http", fbHost("e"), "clean"))},
			{AtMs: 30, Event: "failed T2 refused", Expect: cat(lost(2), checkC(2), timerAt("connectivity-check", 10030))},
			{AtMs: 40, Event: "connectivity C2 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 40, "http", fbHost("a"), "clean"))},
			{AtMs: 50, Event: "failed T3 refused", Expect: cat(lost(3), checkC(3), timerAt("connectivity-check", 10050))},
			{AtMs: 60, Event: "connectivity C3 up", Expect: cat(cancelT("connectivity-check"), openWith(4, 60, "http", fbHost("c"), "clean"))},
		}})

	add(scenario{ID: "fallback-order-drawn-once-websocket-only", Spec: "RTN17, RSC15",
		Comment: "websocket-first without HTTP: the websocket is the flow and walks the hosts: refused on the primary and on the first fallback host, it opens on the second host of the order e, a, c drawn once",
		Config:  scenarioConfig{HTTP: &bf},
		Draws:   orderDraws,
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), openWith(1, 0, "websocket", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), checkC(1), timerAt("connectivity-check", 10010))},
			{AtMs: 20, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 20, "websocket", fbHost("e"), "clean"))},
			{AtMs: 30, Event: "failed T2 refused", Expect: cat(lost(2), checkC(2), timerAt("connectivity-check", 10030))},
			{AtMs: 40, Event: "connectivity C2 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 40, "websocket", fbHost("a"), "clean"))},
		}})

	// ---- The flapping window includes its end; only websocket drops count ----

	add(scenario{ID: "flapping-drop-exactly-a-window-old-counts", Spec: "decision: the flapping guard",
		Comment: "websocket drops at 10 s, 20 s, 30 s and 310 s: the first is exactly flapWindowMs (300 s) before the fourth, so it still counts; the reconnect opens HTTP alone and HTTP's activation starts the flap-hold timer (310 s + 600 s)",
		Steps: func() []scenarioStep {
			steps := []scenarioStep{connectAt0(P), {AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)}}
			for i, at := range []int64{10000, 20000, 30000} {
				t := i + 1
				steps = append(steps,
					scenarioStep{AtMs: at, Event: fmt.Sprintf("closed T%d", t), Expect: cat(disposeT(t), stateRetry("connected", "disconnected", "dropped", 0),
						stateTo("disconnected", "connecting", "reconnect"), wsFirst(t+1, at, P, "resume"), timerAt("state-ttl", at+120000))},
					scenarioStep{AtMs: at + 100, Event: fmt.Sprintf("connected T%d", t+1), Expect: becomeConnected(t+1, true)})
			}
			return append(steps,
				scenarioStep{AtMs: 310000, Event: "closed T4", Expect: cat(disposeT(4), stateRetry("connected", "disconnected", "dropped", 0),
					stateTo("disconnected", "connecting", "reconnect"), openWith(5, 310000, "http", P, "resume"), timerAt("state-ttl", 430000))},
				scenarioStep{AtMs: 310100, Event: "connected T5", Expect: cat(cancelT(connectT(5)), activateT(5), cancelT("state-ttl"),
					stateTo("connecting", "connected", "connected"), timerAt("flap-hold", 910000)), ExpectState: "connected"})
		}(),
	})

	// httpDrops is four rounds, 10 s apart, on host H: the short-circuit
	// websocket refused, HTTP opening and activating (its upgrade websocket
	// opening), then the active HTTP dropping with event drop(t) and the
	// failure the state change carries; each drop reconnects at once.
	httpDrops := func(rounds []scenarioStep, first scenarioStep, drop func(t int) string, fail string) []scenarioStep {
		steps := []scenarioStep{first}
		mode := "clean"
		for i := 0; i < 4; i++ {
			b := int64(i) * 10000
			ws, http, up := 1+3*i, 2+3*i, 3+3*i
			state := stateRetry("connected", "disconnected", "dropped", 0)
			if fail != "" {
				state = withErr(state, fail)
			}
			steps = append(steps,
				scenarioStep{AtMs: b + 10, Event: fmt.Sprintf("failed T%d refused", ws), Expect: cat(lost(ws), cancelT("short-circuit"), openWith(http, b+10, "http", H, mode))},
				scenarioStep{AtMs: b + 20, Event: fmt.Sprintf("connected T%d", http), Expect: cat(becomeConnected(http, false), openWith(up, b+20, "websocket", H, "upgrade"))},
				scenarioStep{AtMs: b + 10000, Event: drop(http), Expect: cat(disposeT(http), lost(up), state,
					stateTo("disconnected", "connecting", "reconnect"), wsFirst(up+1, b+10000, H, "resume"), timerAt("state-ttl", b+130000))})
			mode = "resume"
		}
		return append(steps, rounds...)
	}

	add(scenario{ID: "http-drops-do-not-count-as-flapping", Spec: "decision: the flapping guard",
		Comment: "four times within 40 s the websocket is refused, HTTP activates and the active HTTP closes: the flapping guard counts websocket drops only, so every reconnect, the fifth included, opens the short-circuit websocket",
		Config:  scenarioConfig{Endpoint: H},
		Steps: httpDrops([]scenarioStep{
			{AtMs: 40100, Event: "connected T13", Expect: becomeConnected(13, true), ExpectState: "connected"},
		}, connectAt0(H), func(t int) string { return fmt.Sprintf("closed T%d", t) }, ""),
	})

	add(scenario{ID: "http-drops-do-not-count-as-flapping-failed", Spec: "decision: the flapping guard",
		Comment: "as http-drops-do-not-count-as-flapping with the active HTTP failing with timeout each time: still no flapping hold, so the fifth attempt's websocket is refused and HTTP activates with the upgrade websocket, not the flap-hold timer",
		Config:  scenarioConfig{Endpoint: H},
		Steps: httpDrops([]scenarioStep{
			{AtMs: 40010, Event: "failed T13 refused", Expect: cat(lost(13), cancelT("short-circuit"), openWith(14, 40010, "http", H, "resume"))},
			{AtMs: 40020, Event: "connected T14", Expect: cat(becomeConnected(14, false), openWith(15, 40020, "websocket", H, "upgrade")), ExpectState: "connected"},
		}, connectAt0(H), func(t int) string { return fmt.Sprintf("failed T%d timeout", t) }, "timeout"),
	})

	// ---- RTN17f1 is DISCONNECTED 500–504, both ends included ----

	add(scenario{ID: "drop-with-505-reconnects-on-the-primary", Spec: "RTN17f1, RTN15a",
		Comment: "the active websocket closes with DISCONNECTED 505, outside 500–504: no RTN17f1 redirect, the immediate reconnect opens on the primary host",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "closed T1 disconnected:505", Expect: cat(disposeT(1), withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:505"),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 5000, P, "resume"), timerAt("state-ttl", 125000))},
		}})

	add(scenario{ID: "websocket-check-drop-with-599-reconnects-on-the-primary", Spec: "RTN17f1, RTN15a",
		Comment: "websocket-check: the active websocket fails with DISCONNECTED 599: no RTN17f1 redirect, the immediate reconnect walks from the primary host",
		Config:  wc,
		Steps: []scenarioStep{
			wsCheckStart(P),
			{AtMs: 100, Event: "connected T1", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), wsCheckConnected(1))},
			{AtMs: 5000, Event: "failed T1 disconnected:599", Expect: cat(disposeT(1), withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:599"),
				stateTo("disconnected", "connecting", "reconnect"), timerAt("attempt", 25000), timerAt("websocket-slow", 9000), timerAt("websocket-give-up", 15000),
				openWith(2, 5000, "websocket", P, "resume"), timerAt("state-ttl", 125000))},
		}})

	add(scenario{ID: "drop-with-504-goes-to-a-fallback-host", Spec: "RTN17f1",
		Comment: "the active websocket fails with DISCONNECTED 504, the top of 500–504: the reconnect starts with the connectivity check, then the first fallback host",
		Draws:   []float64{0, 0, 0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "failed T1 disconnected:504", Expect: cat(disposeT(1), withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:504"),
				stateTo("disconnected", "connecting", "reconnect"), checkC(1), timerAt("connectivity-check", 15000), timerAt("state-ttl", 125000))},
			{AtMs: 5100, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), wsFirst(2, 5100, fbHost("a"), "resume"))},
		}})

	add(scenario{ID: "websocket-check-504-before-connected-goes-to-a-fallback-host", Spec: "RTN17f1",
		Comment: "websocket-check: the websocket opens and closes with DISCONNECTED 504 before CONNECTED: the immediate reconnect checks the internet and starts on a fallback host",
		Config:  wc,
		Draws:   []float64{0, 0, 0},
		Steps: []scenarioStep{
			wsCheckStart(P),
			{AtMs: 20, Event: "viable T1", Expect: cat(cancelT(connectT(1)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
			{AtMs: 30, Event: "closed T1 disconnected:504", Expect: cat(disposeT(1), cancelT("attempt"),
				withErr(stateRetry("connecting", "disconnected", "dropped", 0), "disconnected:504"), stateTo("disconnected", "connecting", "reconnect"),
				timerAt("attempt", 20030), timerAt("websocket-slow", 4030), timerAt("websocket-give-up", 10030), checkC(1), timerAt("connectivity-check", 10030))},
			{AtMs: 60, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 60, "websocket", fbHost("a"), "clean"))},
		}})

	// ---- A clean close keeps the attempt's last failure ----

	add(scenario{ID: "clean-close-keeps-the-attempts-failure", Spec: "RTN14d; decision: errors",
		Comment: "the websocket refused, then HTTP closes cleanly (no failure) on the only host: the attempt ends carrying the last failure reported, refused",
		Config:  scenarioConfig{Endpoint: H},
		Draws:   []float64{0},
		Steps: []scenarioStep{
			connectAt0(H),
			{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 10, "http", H, "clean"))},
			{AtMs: 20, Event: "closed T2", Expect: cat(lost(2), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020)),
				ExpectState: "disconnected"},
		}})

	add(scenario{ID: "clean-close-keeps-the-attempts-failure-websocket-check", Spec: "RTN14d; decision: errors",
		Comment: "websocket-check: the websocket refused on the only host, the websocket check fails, HTTP opens and closes cleanly: the attempt ends carrying refused",
		Config:  wcH,
		Draws:   []float64{0},
		Steps: []scenarioStep{
			wsCheckStart(H),
			{AtMs: 100, Event: "failed T1 refused", Expect: cat(lost(1), wsCheckC(1))},
			{AtMs: 150, Event: "websocket-check C1 down", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), openWith(2, 150, "http", H, "clean"))},
			{AtMs: 200, Event: "closed T2", Expect: cat(lost(2), cancelT("attempt"), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15200)),
				ExpectState: "disconnected"},
		}})

	// ---- After SUSPENDED, a rate-limited reconnect stays SUSPENDED ----

	add(scenario{ID: "websocket-check-rate-limited-redirect-after-suspended-stays-suspended", Spec: "RTN14e, RTN17f1, RTN15a",
		Comment: "websocket-check, connectionStateTtl 3 s: SUSPENDED mid-attempt; the retry's websocket opens and closes with DISCONNECTED 503 (the immediate reconnect to a fallback host), whose websocket does the same 300 ms later: " +
			"the rate limit ends the attempt, and since connectionStateTtl has passed without a connection it goes SUSPENDED with the flat suspendedRetryTimeout, not DISCONNECTED with an RTB1 retry",
		Config: scenarioConfig{Policy: "websocket-check", ConnectionStateTTLMs: 3000},
		Draws:  []float64{0, 0, 0},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
				timerAt("attempt", 20000), timerAt("websocket-slow", 4000), timerAt("websocket-give-up", 10000),
				openWith(1, 0, "websocket", P, "clean"), timerAt("state-ttl", 3000))},
			{AtMs: 3000, Event: "timer state-ttl", Expect: cat(lost(1), cancelT("websocket-slow"), cancelT("websocket-give-up"), cancelT("attempt"),
				stateRetry("connecting", "suspended", "state-ttl", 30000), timerAt("retry", 33000)), ExpectState: "suspended"},
			{AtMs: 33000, Event: "timer retry", Expect: cat(stateTo("suspended", "connecting", "retry"),
				timerAt("attempt", 53000), timerAt("websocket-slow", 37000), timerAt("websocket-give-up", 43000), openWith(2, 33000, "websocket", P, "clean"))},
			{AtMs: 33100, Event: "viable T2", Expect: cat(cancelT(connectT(2)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
			{AtMs: 33200, Event: "closed T2 disconnected:503", Expect: cat(disposeT(2), cancelT("attempt"),
				withErr(stateRetry("connecting", "disconnected", "dropped", 0), "disconnected:503"), stateTo("disconnected", "connecting", "reconnect"),
				timerAt("attempt", 53200), timerAt("websocket-slow", 37200), timerAt("websocket-give-up", 43200), checkC(1), timerAt("connectivity-check", 43200))},
			{AtMs: 33300, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 33300, "websocket", fbHost("a"), "clean"))},
			{AtMs: 33400, Event: "viable T3", Expect: cat(cancelT(connectT(3)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
			{AtMs: 33500, Event: "closed T3 disconnected:503", Expect: cat(disposeT(3), cancelT("attempt"),
				withErr(stateRetry("connecting", "suspended", "dropped", 30000), "disconnected:503"), timerAt("retry", 63500)),
				ExpectState: "suspended", ExpectRetryCount: ip(0)},
		}})

	return out
}
