package engine

import "fmt"

// portScenarios pin rules that two ports of the engine written from
// docs/engine.md could read either way while passing every other scenario:
// each has a step whose actions differ between the two readings, and the
// expectation is the rule as docs/engine.md states it.
func portScenarios() []scenario {
	var out []scenario
	add := func(s scenario) { out = append(out, s) }
	wc := scenarioConfig{Policy: "websocket-check"}
	wcH := scenarioConfig{Policy: "websocket-check", Endpoint: H}
	bf := false

	add(scenario{ID: "network-down-while-connecting-after-state-ttl-goes-suspended", Spec: "RTN20a, RTN14e",
		Comment: "connectionStateTtl has passed (SUSPENDED, then a retry): network-down in CONNECTING goes SUSPENDED with suspendedRetryTimeout, not DISCONNECTED",
		Config:  scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 10000},
		Draws:   []float64{0},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 10000))},
			{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 40, "http", H, "clean"))},
			{AtMs: 50, Event: "failed T2 refused", Expect: cat(lost(2), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15050))},
			{AtMs: 10000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 40000))},
			{AtMs: 40000, Event: "timer retry", Expect: cat(stateTo("suspended", "connecting", "retry"), wsFirst(3, 40000, H, "clean"))},
			{AtMs: 40100, Event: "network-down", Expect: cat(lost(3), cancelT("short-circuit"),
				withErr(stateRetry("connecting", "suspended", "network-down", 30000), "unreachable"), timerAt("retry", 70100)), ExpectState: "suspended"},
		}})

	add(scenario{ID: "network-up-while-connecting-draws-the-host-order-again", Spec: "RTN20c, RSC15",
		Comment: "network-up in CONNECTING starts a new attempt: the host order drawn by the first attempt is forgotten and the next fallback check draws again",
		Draws:   []float64{0, 0, 0, 0.99, 0, 0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2100, Event: "failed T2 dns", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 12100))},
			{AtMs: 2200, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 2200, "http", fbHost("a"), "clean"))},
			{AtMs: 3000, Event: "network-up", Expect: cat(lost(1), lost(3), wsFirst(4, 3000, P, "clean"))},
			{AtMs: 5000, Event: "timer short-circuit", Expect: openWith(5, 5000, "http", P, "clean")},
			{AtMs: 5100, Event: "failed T5 dns", Expect: cat(lost(5), checkC(2), timerAt("connectivity-check", 15100))},
			{AtMs: 5200, Event: "connectivity C2 up", Expect: cat(cancelT("connectivity-check"), openWith(6, 5200, "http", fbHost("e"), "clean"))},
		}})

	add(scenario{ID: "websocket-check-failure-that-does-not-qualify-ends-the-walk", Spec: "transport-fallback",
		Comment: "websocket-check: the websocket fails with other while fallback hosts remain; no other host will be tried, so the walk is over and the websocket check is asked at once",
		Config:  wc,
		Steps: []scenarioStep{
			wsCheckStart(P),
			{AtMs: 100, Event: "failed T1 other", Expect: cat(lost(1), wsCheckC(1))},
			{AtMs: 150, Event: "websocket-check C1 down", Expect: cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), openWith(2, 150, "http", P, "clean"))},
		}})

	add(scenario{ID: "websocket-check-walk-over-after-the-check-passed", Spec: "transport-fallback",
		Comment: "websocket-check: the websocket check passed, then the websocket fails on the last host: DISCONNECTED (connect-failed) at once, not at the give-up point",
		Config:  wcH,
		Draws:   []float64{0},
		Steps: []scenarioStep{
			wsCheckStart(H),
			{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
			{AtMs: 4100, Event: "websocket-check C1 up", Expect: nil},
			{AtMs: 4200, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("websocket-give-up"), cancelT("attempt"), cancelT("slow-check"),
				withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 19200)), ExpectState: "disconnected"},
		}})

	add(scenario{ID: "websocket-check-without-http-walk-over-ends-at-once", Spec: "transport-fallback",
		Comment: "websocket-check without HTTP: the websocket fails on the last host while the websocket check is in flight; there is nothing to give up to, so the attempt ends at once",
		Config:  scenarioConfig{Policy: "websocket-check", Endpoint: H, HTTP: &bf},
		Draws:   []float64{0},
		Steps: []scenarioStep{
			wsCheckStart(H),
			{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
			{AtMs: 4100, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("websocket-give-up"), cancelT("attempt"), cancelT("slow-check"),
				withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 19100)), ExpectState: "disconnected"},
		}})

	add(scenario{ID: "websocket-check-slow-check-does-not-hold-the-attempt", Spec: "transport-fallback",
		Comment: "websocket-check: after the switch to HTTP, HTTP fails on the only host while the slow check is still unanswered: the slow check does not keep the attempt alive, it ends at once",
		Config:  wcH,
		Draws:   []float64{0},
		Steps: []scenarioStep{
			wsCheckStart(H),
			{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
			{AtMs: 10000, Event: "timer websocket-give-up", Expect: cat(lost(1), openWith(2, 10000, "http", H, "clean"))},
			{AtMs: 10100, Event: "failed T2 refused", Expect: cat(lost(2), cancelT("attempt"), cancelT("slow-check"),
				withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 25100)), ExpectState: "disconnected"},
		}})

	add(scenario{ID: "websocket-check-http-walks-the-hosts-after-a-failed-check", Spec: "transport-fallback, RTN17",
		Comment: "websocket-check: the websocket check failed, HTTP takes over at the give-up point on the primary host and walks the fallback hosts as the flow (the failed check stopped only the websocket's walk)",
		Config:  wc,
		Draws:   []float64{0, 0, 0},
		Steps: []scenarioStep{
			wsCheckStart(P),
			{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(1), checkC(2), timerAt("slow-check", 14000))},
			{AtMs: 4050, Event: "connectivity C2 up", Expect: cat(cancelT("slow-check"))},
			{AtMs: 4100, Event: "websocket-check C1 down", Expect: nil},
			{AtMs: 10000, Event: "timer websocket-give-up", Expect: cat(lost(1), openWith(2, 10000, "http", P, "clean"))},
			{AtMs: 10100, Event: "failed T2 refused", Expect: cat(lost(2), checkC(3), timerAt("connectivity-check", 20100))},
			{AtMs: 10200, Event: "connectivity C3 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 10200, "http", fbHost("a"), "clean"))},
		}})

	add(scenario{ID: "websocket-check-give-up-cancels-the-fallback-check", Spec: "transport-fallback",
		Comment: "websocket-check: the give-up point comes while a fallback check of the websocket walk is in flight: it is cancelled (its late answer is ignored), the slow check goes on",
		Config:  wc,
		Steps: []scenarioStep{
			wsCheckStart(P),
			{AtMs: 3000, Event: "failed T1 refused", Expect: cat(lost(1), checkC(1), timerAt("connectivity-check", 13000))},
			{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(2), checkC(3), timerAt("slow-check", 14000))},
			{AtMs: 10000, Event: "timer websocket-give-up", Expect: cat(cancelT("connectivity-check"), openWith(2, 10000, "http", P, "clean"))},
			{AtMs: 10050, Event: "connectivity C1 up", Expect: nil},
			{AtMs: 10100, Event: "connectivity C3 up", Expect: cat(cancelT("slow-check")), ExpectState: "connecting"},
		}})

	add(scenario{ID: "websocket-check-fallback-check-down-after-a-failed-check", Spec: "transport-fallback",
		Comment: "websocket-check: the websocket check failed while a fallback check is in flight; that check's down ends nothing (the walk stopped), the give-up timer decides",
		Config:  wc,
		Steps: []scenarioStep{
			wsCheckStart(P),
			{AtMs: 100, Event: "failed T1 refused", Expect: cat(lost(1), checkC(1), timerAt("connectivity-check", 10100))},
			{AtMs: 4000, Event: "timer websocket-slow", Expect: cat(wsCheckC(2), checkC(3), timerAt("slow-check", 14000))},
			{AtMs: 4050, Event: "connectivity C3 up", Expect: cat(cancelT("slow-check"))},
			{AtMs: 4100, Event: "websocket-check C2 down", Expect: nil},
			{AtMs: 4200, Event: "connectivity C1 down", Expect: cat(cancelT("connectivity-check")), ExpectState: "connecting"},
			{AtMs: 10000, Event: "timer websocket-give-up", Expect: openWith(2, 10000, "http", P, "clean")},
		}})

	add(scenario{ID: "preference-check-passes-while-a-fallback-check-is-in-flight", Spec: "transport preference",
		Comment: "websocket-check, a remembered HTTP: HTTP failed and a fallback check is in flight when the background check passes; the fallback check is cancelled and the websocket walk starts on the primary host",
		Config:  scenarioConfig{Policy: "websocket-check", Preference: rememberedHTTP},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), timerAt("attempt", 20000), wsCheckC(1),
				openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 100, Event: "failed T1 refused", Expect: cat(lost(1), checkC(2), timerAt("connectivity-check", 10100))},
			{AtMs: 200, Event: "websocket-check C1 up", Expect: cat(cancelT("connectivity-check"), timerAt("websocket-slow", 4200), timerAt("websocket-give-up", 10200),
				openWith(2, 200, "websocket", P, "clean"))},
			{AtMs: 300, Event: "connectivity C2 up", Expect: nil},
			{AtMs: 4200, Event: "timer websocket-slow", Expect: cat(wsCheckC(3), checkC(4), timerAt("slow-check", 14200))},
		}})

	add(scenario{ID: "preference-check-passes-after-http-failed", Spec: "transport preference",
		Comment: "websocket-first with rememberTransport, a remembered HTTP: HTTP failed and a fallback check is in flight when the background check passes; the websocket opens on the flow's host, no transport being pending or active",
		Config:  scenarioConfig{RememberTransport: true, Preference: rememberedHTTP},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), wsCheckC(1),
				openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 100, Event: "failed T1 refused", Expect: cat(lost(1), checkC(2), timerAt("connectivity-check", 10100))},
			{AtMs: 200, Event: "websocket-check C1 up", Expect: openWith(2, 200, "websocket", P, "clean")},
		}})

	add(scenario{ID: "preference-background-check-up-after-connected-forgets-http", Spec: "transport preference",
		Comment: "websocket-first with rememberTransport: the background websocket check passes after HTTP connected; the remembered HTTP is forgotten, so the reconnect after a drop opens the websocket first",
		Config:  scenarioConfig{RememberTransport: true, Preference: rememberedHTTP},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), wsCheckC(1),
				openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 100, Event: "connected T1", Expect: cat(becomeConnected(1, false), openWith(2, 100, "websocket", P, "upgrade"))},
			{AtMs: 150, Event: "failed T2 refused", Expect: lost(2)},
			{AtMs: 200, Event: "websocket-check C1 up", Expect: nil, ExpectState: "connected"},
			{AtMs: 1500, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(3, 1500, P, "resume"), timerAt("state-ttl", 121500))},
		}})

	add(scenario{ID: "fresh-connect-forgets-that-state-ttl-passed", Spec: "RTN14e",
		Comment: "connectionStateTtl passed, then close and connect: the fresh connect forgets it, so its failed attempt goes DISCONNECTED with an RTB1 retry, not SUSPENDED",
		Config:  scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 10000},
		Draws:   []float64{0, 0},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 10000))},
			{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 40, "http", H, "clean"))},
			{AtMs: 50, Event: "failed T2 refused", Expect: cat(lost(2), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15050))},
			{AtMs: 10000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 40000))},
			{AtMs: 20000, Event: "close", Expect: cat(cancelT("retry"), stateTo("suspended", "closed", "close-requested"))},
			{AtMs: 21000, Event: "connect", Expect: cat(stateTo("closed", "connecting", "connect-requested"), wsFirst(3, 21000, H, "clean"), timerAt("state-ttl", 31000))},
			{AtMs: 21040, Event: "failed T3 refused", Expect: cat(lost(3), cancelT("short-circuit"), openWith(4, 21040, "http", H, "clean"))},
			{AtMs: 21050, Event: "failed T4 refused", Expect: cat(lost(4), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 36050)),
				ExpectState: "disconnected", ExpectRetryCount: ip(1)},
		}})

	add(scenario{ID: "fresh-connect-forgets-a-pending-redirect", Spec: "RTN17f1",
		Comment: "a DISCONNECTED 503 drop within 1 s of the last immediate reconnect waits an RTB1 delay with the RTN17f1 redirect pending; close and connect forget the redirect: the new attempt opens the websocket on the primary host, no connectivity check",
		Draws:   []float64{0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 500, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 500, P, "resume"), timerAt("state-ttl", 120500))},
			{AtMs: 600, Event: "connected T2", Expect: becomeConnected(2, true)},
			{AtMs: 900, Event: "failed T2 disconnected:503", Expect: cat(disposeT(2), withErr(stateRetry("connected", "disconnected", "dropped", 15000), "disconnected:503"),
				timerAt("retry", 15900), timerAt("state-ttl", 120900))},
			{AtMs: 1000, Event: "close", Expect: cat(cancelT("retry"), cancelT("state-ttl"), stateTo("disconnected", "closed", "close-requested"))},
			{AtMs: 2000, Event: "connect", Expect: cat(stateTo("closed", "connecting", "connect-requested"), wsFirst(3, 2000, P, "clean"), timerAt("state-ttl", 122000))},
		}})

	add(scenario{ID: "storm-safe-reconnect-window-draw-equal-to-the-share-reconnects-at-once", Spec: "storm-safe: immediate share",
		Comment: "reconnectWindowMs 10 s, immediateShare 0.5, the draw exactly 0.5: the wait W × (u − s)/(1 − s) is 0, which is the immediate reconnect (no retry timer)",
		Config:  scenarioConfig{ReconnectWindowMs: 10000, ImmediateShare: 0.5},
		Draws:   []float64{0.5},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 5000, P, "resume"), timerAt("state-ttl", 125000))},
		}})

	add(scenario{ID: "redirected-attempt-never-returns-to-the-primary", Spec: "RTN17f1, RSC15",
		Comment: "after an RTN17f1 redirect the attempt starts on the first fallback host of the order and walks the rest of it: with httpMaxRetryCount 3 it uses the fallback hosts a, b, c and ends after c, one host fewer than an attempt from the primary",
		Draws:   []float64{0, 0, 0, 0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "failed T1 disconnected:503", Expect: cat(disposeT(1), withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:503"),
				stateTo("disconnected", "connecting", "reconnect"), checkC(1), timerAt("connectivity-check", 15000), timerAt("state-ttl", 125000))},
			{AtMs: 5100, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), wsFirst(2, 5100, fbHost("a"), "resume"))},
			{AtMs: 5200, Event: "failed T2 refused", Expect: cat(lost(2), cancelT("short-circuit"), openWith(3, 5200, "http", fbHost("a"), "resume"))},
			{AtMs: 5300, Event: "failed T3 refused", Expect: cat(lost(3), checkC(2), timerAt("connectivity-check", 15300))},
			{AtMs: 5400, Event: "connectivity C2 up", Expect: cat(cancelT("connectivity-check"), openWith(4, 5400, "http", fbHost("b"), "resume"))},
			{AtMs: 5500, Event: "failed T4 refused", Expect: cat(lost(4), checkC(3), timerAt("connectivity-check", 15500))},
			{AtMs: 5600, Event: "connectivity C3 up", Expect: cat(cancelT("connectivity-check"), openWith(5, 5600, "http", fbHost("c"), "resume"))},
			{AtMs: 5700, Event: "failed T5 refused", Expect: cat(lost(5), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 20700)),
				ExpectState: "disconnected"},
		}})

	add(scenario{ID: "storm-safe-retry-spread-fractional-milliseconds", Spec: "storm-safe/RTB1",
		Comment: "retrySpread 1, draw 0.1234567: 15000 × 1 × (1 − 0.1234567) = 13148.1495 ms, written with its decimals and no trailing zeros",
		Config:  scenarioConfig{Endpoint: H, RetrySpread: 1},
		Draws:   []float64{0.1234567},
		Steps: cat3(
			[]scenarioStep{connectAt0(H)},
			failAttemptOnHost(1, 10, H, "clean", withErr(stateTo("connecting", "disconnected", "connect-failed")+" retryIn=13148.1495", "refused"), "timer retry at=13168.1495"),
		)})

	add(scenario{ID: "websocket-check-redirect-before-connected-is-rate-limited", Spec: "RTN17f1, RTN15a",
		Comment: "websocket-check: a websocket that opened closes with DISCONNECTED 503 before CONNECTED (the immediate reconnect on a fallback host), and the fallback host's websocket does the same 300 ms later: within 1 s of the last immediate reconnect, so an RTB1 retry instead",
		Config:  wc,
		Draws:   []float64{0, 0, 0, 0},
		Steps: []scenarioStep{
			wsCheckStart(P),
			{AtMs: 100, Event: "viable T1", Expect: cat(cancelT(connectT(1)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
			{AtMs: 200, Event: "closed T1 disconnected:503", Expect: cat(disposeT(1), cancelT("attempt"), withErr(stateRetry("connecting", "disconnected", "dropped", 0), "disconnected:503"),
				stateTo("disconnected", "connecting", "reconnect"), timerAt("attempt", 20200), timerAt("websocket-slow", 4200), timerAt("websocket-give-up", 10200),
				checkC(1), timerAt("connectivity-check", 10200))},
			{AtMs: 300, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(2, 300, "websocket", fbHost("a"), "clean"))},
			{AtMs: 400, Event: "viable T2", Expect: cat(cancelT(connectT(2)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
			{AtMs: 500, Event: "closed T2 disconnected:503", Expect: cat(disposeT(2), cancelT("attempt"),
				withErr(stateRetry("connecting", "disconnected", "dropped", 15000), "disconnected:503"), timerAt("retry", 15500)), ExpectState: "disconnected"},
		}})

	add(scenario{ID: "storm-safe-reconnect-window-replaced-at-suspended-retries", Spec: "storm-safe: reconnect window; RTN14e",
		Comment: "websocket-check, reconnectWindowMs 4 s, connectionStateTtl 5 s: a DISCONNECTED 503 before CONNECTED waits 3600 ms in the window, connectionStateTtl passes first; SUSPENDED replaces the window's retry, so the next attempt's reason is retry, not reconnect (the RTN17f1 redirect still pending)",
		Config:  scenarioConfig{Policy: "websocket-check", ReconnectWindowMs: 4000, ConnectionStateTTLMs: 5000},
		Draws:   []float64{0.9},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"),
				timerAt("attempt", 20000), timerAt("websocket-slow", 4000), timerAt("websocket-give-up", 10000),
				openWith(1, 0, "websocket", P, "clean"), timerAt("state-ttl", 5000))},
			{AtMs: 100, Event: "viable T1", Expect: cat(cancelT(connectT(1)), cancelT("websocket-slow"), cancelT("websocket-give-up"))},
			{AtMs: 2000, Event: "closed T1 disconnected:503", Expect: cat(disposeT(1), cancelT("attempt"),
				withErr(stateRetry("connecting", "disconnected", "dropped", 3600), "disconnected:503"), timerAt("retry", 5600))},
			{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "disconnected:503"), timerAt("retry", 35000))},
			{AtMs: 35000, Event: "timer retry", Expect: cat(stateTo("suspended", "connecting", "retry"), timerAt("attempt", 55000), timerAt("websocket-slow", 39000),
				timerAt("websocket-give-up", 45000), checkC(1), timerAt("connectivity-check", 45000))},
		}})

	add(scenario{ID: "storm-safe-reconnect-window-fractional-milliseconds", Spec: "storm-safe: reconnect window",
		Comment: "reconnectWindowMs 10 s, immediateShare 0, draw 0.12345671: the wait 10000 × 0.12345671 = 1234.5671 ms, rounded to the nanosecond, not the millisecond",
		Config:  scenarioConfig{ReconnectWindowMs: 10000},
		Draws:   []float64{0.12345671},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 5000, Event: "closed T1", Expect: cat(disposeT(1), stateTo("connected", "disconnected", "dropped")+" retryIn=1234.5671",
				"timer retry at=6234.5671", timerAt("state-ttl", 125000))},
		}})

	add(scenario{ID: "storm-safe-suspended-spread-fractional-milliseconds", Spec: "storm-safe/RTN14e",
		Comment: "suspendedSpread 1, draw 0.1234567 at connectionStateTtl: 30000 × (1 − 0.1234567) = 26296.299 ms",
		Config:  scenarioConfig{Endpoint: H, ConnectionStateTTLMs: 5000, SuspendedSpread: 1},
		Draws:   []float64{0, 0.1234567},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), wsFirst(1, 0, H, "clean"), timerAt("state-ttl", 5000))},
			{AtMs: 10, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 10, "http", H, "clean"))},
			{AtMs: 20, Event: "failed T2 refused", Expect: cat(lost(2), withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020))},
			{AtMs: 5000, Event: "timer state-ttl", Expect: cat(cancelT("retry"), withErr(stateTo("disconnected", "suspended", "state-ttl")+" retryIn=26296.299", "refused"), "timer retry at=31296.299")},
		}})

	add(scenario{ID: "preference-background-check-counts-after-close", Spec: "transport preference",
		Comment: "websocket-first with rememberTransport: a close while connecting on the remembered HTTP does not end its background websocket check; its late up forgets the remembered HTTP, so the next connect opens the websocket first",
		Config:  scenarioConfig{RememberTransport: true, Preference: rememberedHTTP},
		Steps: []scenarioStep{
			{AtMs: 0, Event: "connect", Expect: cat(stateTo("initialized", "connecting", "connect-requested"), wsCheckC(1),
				openWith(1, 0, "http", P, "clean"), timerAt("state-ttl", 120000))},
			{AtMs: 100, Event: "close", Expect: cat(lost(1), cancelT("state-ttl"), stateTo("connecting", "closed", "close-requested"))},
			{AtMs: 200, Event: "websocket-check C1 up", Expect: nil, ExpectState: "closed"},
			{AtMs: 300, Event: "connect", Expect: cat(stateTo("closed", "connecting", "connect-requested"), wsFirst(2, 300, P, "clean"), timerAt("state-ttl", 120300))},
		}})

	// The flapping window, first to last, includes its end: drops at 10 s,
	// 110 s, 210 s and 310 s are four within 300 s.
	flap := []scenarioStep{connectAt0(P), {AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)}}
	for i := 1; i <= 3; i++ {
		at := 10000 + int64(i-1)*100000
		flap = append(flap,
			scenarioStep{AtMs: at, Event: fmt.Sprintf("closed T%d", i), Expect: cat(disposeT(i), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(i+1, at, P, "resume"), timerAt("state-ttl", at+120000))},
			scenarioStep{AtMs: at + 100, Event: fmt.Sprintf("connected T%d", i+1), Expect: becomeConnected(i+1, true)})
	}
	add(scenario{ID: "flapping-window-includes-its-end", Spec: "decision: the flapping guard",
		Comment: "the fourth websocket drop comes exactly flapWindowMs (300 s) after the first: it is within the window, so the reconnect opens HTTP alone",
		Steps: append(flap,
			scenarioStep{AtMs: 310000, Event: "closed T4", Expect: cat(disposeT(4), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), openWith(5, 310000, "http", P, "resume"), timerAt("state-ttl", 430000))}),
	})

	add(scenario{ID: "flapping-hold-keeps-the-remembered-websocket-unstable", Spec: "decision: the flapping guard; transport preference",
		Comment: "rememberTransport: the fourth drop remembers HTTP (websocket-unstable) at 40 s; HTTP activating during the hold does not overwrite it, so at 40 s + 24 h it is no longer in force and the connect opens the websocket first",
		Config:  scenarioConfig{RememberTransport: true},
		Steps: append(fourWebSocketDrops(),
			scenarioStep{AtMs: 40000, Event: "closed T4", Expect: cat(disposeT(4), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), openWith(5, 40000, "http", P, "resume"), timerAt("state-ttl", 160000))},
			scenarioStep{AtMs: 40100, Event: "connected T5", Expect: cat(cancelT(connectT(5)), activateT(5), cancelT("state-ttl"),
				stateTo("connecting", "connected", "connected"), timerAt("flap-hold", 640000))},
			scenarioStep{AtMs: 50000, Event: "close", Expect: cat(cancelT("flap-hold"), stateTo("connected", "closing", "close-requested"), timerAt("close", 60000))},
			scenarioStep{AtMs: 50100, Event: "closed T5", Expect: cat(disposeT(5), cancelT("close"), stateTo("closing", "closed", "closed"))},
			scenarioStep{AtMs: 86440000, Event: "connect", Expect: cat(stateTo("closed", "connecting", "connect-requested"), wsFirst(6, 86440000, P, "clean"), timerAt("state-ttl", 86560000))},
		)})

	return out
}
