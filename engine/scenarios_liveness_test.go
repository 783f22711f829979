package engine

import (
	"fmt"
	"slices"
)

// livenessScenarios: HTTP that works connects within one attempt whatever
// the websocket does, and a websocket that keeps dropping gives way to
// HTTP for a while (the flapping guard).
func livenessScenarios() []scenario {
	var out []scenario
	add := func(s scenario) { out = append(out, s) }

	// ---- Liveness: HTTP works, whatever the websocket does ----

	add(scenario{ID: "liveness-websocket-killed-after-displacing-pending-http", Spec: "liveness",
		Comment: "HTTP is viable at 2.2 s; the websocket turns viable at 2.3 s and displaces it (rule 2), then is killed at 2.5 s before CONNECTED: " +
			"HTTP opens again on the same host at once, instead of the attempt ending DISCONNECTED",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2200, Event: "viable T2", Expect: nil},
			{AtMs: 2300, Event: "viable T1", Expect: lost(2)},
			{AtMs: 2500, Event: "closed T1", Expect: cat(lost(1), openWith(3, 2500, "http", P, "clean")), ExpectState: "connecting"},
			{AtMs: 2600, Event: "viable T3", Expect: nil},
			{AtMs: 2650, Event: "connected T3", Expect: cat(becomeConnected(3, false), openWith(4, 2650, "websocket", P, "upgrade"))},
			{AtMs: 2700, Event: "viable T4", Expect: nil},
			{AtMs: 2750, Event: "closed T4", Expect: lost(4), ExpectState: "connected"},
		}})

	add(scenario{ID: "liveness-websocket-killed-after-http-discarded", Spec: "liveness",
		Comment: "the websocket is pending when HTTP turns viable, so rule 1 discards HTTP; the websocket is then killed before CONNECTED: HTTP opens again at once",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2100, Event: "viable T1", Expect: nil},
			{AtMs: 2200, Event: "viable T2", Expect: lost(2)},
			{AtMs: 2500, Event: "failed T1 disconnected:503", Expect: cat(lost(1), openWith(3, 2500, "http", P, "clean"))},
			{AtMs: 2650, Event: "connected T3", Expect: cat(becomeConnected(3, false), openWith(4, 2650, "websocket", P, "upgrade")), ExpectState: "connected"},
		}})

	add(scenario{ID: "liveness-http-reopened-on-its-fallback-host", Spec: "liveness",
		Comment: "HTTP fails on the primary and turns viable on fallback host a; a websocket displaces it and is killed: HTTP opens again on a, not on the primary",
		Draws:   []float64{0, 0, 0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2100, Event: "failed T2 dns", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 12100))},
			{AtMs: 2150, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 2150, "http", fbHost("a"), "clean"))},
			{AtMs: 2300, Event: "viable T3", Expect: nil},
			{AtMs: 2400, Event: "viable T1", Expect: lost(3)},
			{AtMs: 2500, Event: "failed T1 refused", Expect: cat(lost(1), openWith(4, 2500, "http", fbHost("a"), "clean"))},
			{AtMs: 2600, Event: "connected T4", Expect: cat(becomeConnected(4, false), openWith(5, 2600, "websocket", fbHost("a"), "upgrade")), ExpectState: "connected"},
		}})

	// ---- Flapping: a websocket that activates and keeps dropping ----

	flapSteps := fourWebSocketDrops()

	add(scenario{ID: "flapping-websocket-prefers-http-for-a-while", Spec: "liveness",
		Comment: "four websockets activate and drop within 5 minutes (the flapping guard's defaults): the next attempt opens HTTP alone, " +
			"with no short circuit and no upgrade, for 10 minutes; then an upgrade websocket is tried again",
		Steps: append(flapSteps,
			scenarioStep{AtMs: 40000, Event: "closed T4", Expect: cat(disposeT(4), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), openWith(5, 40000, "http", P, "resume"), timerAt("state-ttl", 160000))},
			scenarioStep{AtMs: 40100, Event: "connected T5", Expect: cat(cancelT(connectT(5)), activateT(5), cancelT("state-ttl"),
				stateTo("connecting", "connected", "connected"), timerAt("flap-hold", 640000))},
			scenarioStep{AtMs: 640000, Event: "timer flap-hold", Expect: openWith(6, 640000, "websocket", P, "upgrade")},
			scenarioStep{AtMs: 640100, Event: "connected T6", Expect: cat(cancelT(connectT(6)), disposeT(5), activateT(6)), ExpectState: "connected"},
		)})

	add(scenario{ID: "flapping-http-drop-during-the-hold-stays-on-http", Spec: "liveness",
		Comment: "while HTTP is preferred, an HTTP connection that drops reconnects on HTTP alone and the hold's end stays where it was",
		Steps: append(slices.Clone(flapSteps),
			scenarioStep{AtMs: 40000, Event: "closed T4", Expect: cat(disposeT(4), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), openWith(5, 40000, "http", P, "resume"), timerAt("state-ttl", 160000))},
			scenarioStep{AtMs: 40100, Event: "connected T5", Expect: cat(cancelT(connectT(5)), activateT(5), cancelT("state-ttl"),
				stateTo("connecting", "connected", "connected"), timerAt("flap-hold", 640000))},
			scenarioStep{AtMs: 100000, Event: "closed T5 disconnected:400", Expect: cat(disposeT(5),
				withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:400"),
				stateTo("disconnected", "connecting", "reconnect"), openWith(6, 100000, "http", P, "resume"), timerAt("state-ttl", 220000))},
			scenarioStep{AtMs: 100100, Event: "connected T6", Expect: cat(cancelT(connectT(6)), activateT(6), cancelT("state-ttl"),
				stateTo("connecting", "connected", "connected")), ExpectState: "connected"},
			scenarioStep{AtMs: 640000, Event: "timer flap-hold", Expect: openWith(7, 640000, "websocket", P, "upgrade")},
		)})

	return out
}

// fourWebSocketDrops connects on a websocket and drops it four times, 10 s
// apart, each drop an immediate reconnect on a new websocket, up to the
// fourth drop: the flapping guard's default trigger.
func fourWebSocketDrops() []scenarioStep {
	steps := []scenarioStep{connectAt0(P), {AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)}}
	for i := 1; i <= 3; i++ {
		at := int64(i) * 10000
		steps = append(steps,
			scenarioStep{AtMs: at, Event: fmt.Sprintf("closed T%d", i), Expect: cat(disposeT(i), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(i+1, at, P, "resume"), timerAt("state-ttl", at+120000))},
			scenarioStep{AtMs: at + 100, Event: fmt.Sprintf("connected T%d", i+1), Expect: becomeConnected(i+1, true)})
	}
	return steps
}
