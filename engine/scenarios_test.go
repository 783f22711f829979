package engine

import (
	"fmt"
	"strconv"
)

// The scenario oracle: timelines of (time, event) with the exact actions
// the spec points and this package's decisions (doc.go) require, written by hand from them, never recorded from
// the engine. Times are milliseconds from the scenario's start; defaults are
// the spec's (short circuit 2 s, realtimeRequestTimeout 10 s,
// httpRequestTimeout 10 s, connectionStateTtl 120 s,
// disconnectedRetryTimeout 15 s, suspendedRetryTimeout 30 s).

type scenarioConfig struct {
	ShortCircuitMs       *int64   `json:"shortCircuitMs,omitempty"` // 0 means the default, 2000 ms
	Endpoint             string   `json:"endpoint,omitempty"`
	WebSocket            *bool    `json:"webSocket,omitempty"`
	HTTP                 *bool    `json:"http,omitempty"`
	Policy               string   `json:"policy,omitempty"`
	ConnectionStateTTLMs int64    `json:"connectionStateTtlMs,omitempty"`
	FallbackHosts        []string `json:"fallbackHosts,omitempty"`
	Preference           string   `json:"preference,omitempty"`
	RememberTransport    bool     `json:"rememberTransport,omitempty"`
	ReconnectWindowMs    int64    `json:"reconnectWindowMs,omitempty"`
	ImmediateShare       float64  `json:"immediateShare,omitempty"`
	RetrySpread          float64  `json:"retrySpread,omitempty"`
	SuspendedSpread      float64  `json:"suspendedSpread,omitempty"`
}

type scenarioStep struct {
	AtMs             int64    `json:"atMs"`
	Event            string   `json:"event"`
	Expect           []string `json:"expect"`
	ExpectState      string   `json:"expectState,omitempty"`
	ExpectRetryCount *int     `json:"expectRetryCount,omitempty"`
}

type scenario struct {
	ID      string         `json:"id"`
	Spec    string         `json:"spec"`
	Rows    []string       `json:"rows"`
	Comment string         `json:"_comment"`
	Config  scenarioConfig `json:"config"`
	Draws   []float64      `json:"draws"`
	Steps   []scenarioStep `json:"steps"`
}

const P = "main.realtime.ably.net"
const H = "rt.example.com" // an explicit host: no fallback hosts

func fbHost(l string) string { return "main." + l + ".fallback.ably-realtime.com" }

func stateTo(from, to, reason string) string { return "state " + from + " " + to + " " + reason }
func stateRetry(from, to, reason string, ms int64) string {
	return stateTo(from, to, reason) + " retryIn=" + strconv.FormatInt(ms, 10)
}

// withErr is a state change carrying failure f (in the fixtures' failure
// grammar).
func withErr(state, f string) string { return state + " error=" + f }
func openT(t int, kind, host, mode string) string {
	return fmt.Sprintf("open T%d %s %s %s", t, kind, host, mode)
}
func timerAt(name string, at int64) string { return fmt.Sprintf("timer %s at=%d", name, at) }
func cancelT(name string) string           { return "cancel " + name }
func connectT(t int) string                { return fmt.Sprintf("connect T%d", t) }
func disposeT(t int) string                { return fmt.Sprintf("dispose T%d", t) }
func activateT(t int) string               { return fmt.Sprintf("activate T%d", t) }

// checkC and wsCheckC ask for connectivity check C n and websocket check
// C n: checks of both kinds are numbered 1, 2, … in the order the engine
// asks for them, and an answer names its check ("connectivity C2 up").
func checkC(n int) string   { return fmt.Sprintf("check C%d", n) }
func wsCheckC(n int) string { return fmt.Sprintf("check-websocket C%d", n) }

// wsFirst is what opening an attempt's short-circuit websocket T t at time
// at on host asks for: the websocket, its connect timeout and the
// short-circuit timer.
func wsFirst(t int, at int64, host, mode string) []string {
	return []string{openT(t, "websocket", host, mode), timerAt(connectT(t), at+10000), timerAt("short-circuit", at+2000)}
}

// openWith is opening transport T t at time at with its connect timeout.
func openWith(t int, at int64, kind, host, mode string) []string {
	return []string{openT(t, kind, host, mode), timerAt(connectT(t), at+10000)}
}

// lost is disposing a transport that has not connected: its connect timeout
// goes too.
func lost(t int) []string { return []string{cancelT(connectT(t)), disposeT(t)} }

func cat(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, v)
		case []string:
			out = append(out, v...)
		default:
			panic(fmt.Sprintf("cat: %T", p))
		}
	}
	return out
}

func ip(v int) *int { return &v }

// connectAt0 is the first step of most scenarios: connect at 0 on host.
func connectAt0(host string) scenarioStep {
	return scenarioStep{AtMs: 0, Event: "connect", Expect: cat(
		stateTo("initialized", "connecting", "connect-requested"), wsFirst(1, 0, host, "clean"), timerAt("state-ttl", 120000))}
}

// becomeConnected is transport T t becoming active at time at, from
// CONNECTING, with the short-circuit timer still running (sc) or not.
func becomeConnected(t int, sc bool) []string {
	out := cat(cancelT(connectT(t)), activateT(t), cancelT("state-ttl"), stateTo("connecting", "connected", "connected"))
	if sc {
		out = append(out, cancelT("short-circuit"))
	}
	return out
}

// failAttemptOnHost is the websocket and then HTTP both refused on host,
// with no fallback host, at times at and at+10, for attempt transports
// T t (websocket) and T t+1 (HTTP); it ends DISCONNECTED (or SUSPENDED)
// with the given state change and retry.
func failAttemptOnHost(t int, at int64, host, mode string, end ...string) []scenarioStep {
	return []scenarioStep{
		{AtMs: at, Event: fmt.Sprintf("failed T%d refused", t), Expect: cat(lost(t), cancelT("short-circuit"), openWith(t+1, at, "http", host, mode))},
		{AtMs: at + 10, Event: fmt.Sprintf("failed T%d refused", t+1), Expect: cat(lost(t+1), end)},
	}
}

func retryStep(at int64, t int, host, mode, from string) scenarioStep {
	return scenarioStep{AtMs: at, Event: "timer retry", Expect: cat(stateTo(from, "connecting", "retry"), wsFirst(t, at, host, mode))}
}

func allScenarios() []scenario {
	var out []scenario
	add := func(s scenario) { out = append(out, s) }

	// ---- The transport-fallback proposal's five outcomes ----

	add(scenario{ID: "outcome-1-websocket-within-short-circuit", Spec: "transport-fallback",
		Comment: "the websocket connects within the short circuit: only the websocket is used",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 300, Event: "viable T1", Expect: nil},
			{AtMs: 350, Event: "connected T1", Expect: becomeConnected(1, true), ExpectState: "connected", ExpectRetryCount: ip(0)},
		}})

	add(scenario{ID: "outcome-2-websocket-replaces-pending-http", Spec: "transport-fallback",
		Comment: "the websocket connects after the short circuit but before HTTP activates: rule 2 drops the pending HTTP transport",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2300, Event: "viable T2", Expect: nil},
			{AtMs: 2400, Event: "viable T1", Expect: lost(2)},
			{AtMs: 2450, Event: "connected T1", Expect: becomeConnected(1, false)},
		}})

	add(scenario{ID: "outcome-2-http-discarded-while-websocket-pending", Spec: "transport-fallback",
		Comment: "the websocket is pending when HTTP becomes viable: rule 1 discards HTTP",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2300, Event: "viable T1", Expect: nil},
			{AtMs: 2350, Event: "viable T2", Expect: lost(2)},
			{AtMs: 2400, Event: "connected T1", Expect: becomeConnected(1, false)},
		}})

	add(scenario{ID: "outcome-2-http-still-opening-when-websocket-activates", Spec: "transport-fallback",
		Comment: "an active websocket closes every other transport, here an HTTP transport still opening",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2300, Event: "viable T1", Expect: nil},
			{AtMs: 2350, Event: "connected T1", Expect: cat(becomeConnected(1, false), lost(2))},
			{AtMs: 2400, Event: "viable T2", Expect: nil},
		}})

	add(scenario{ID: "outcome-3-late-websocket-discarded-then-upgrade", Spec: "transport-fallback",
		Comment: "the websocket is still opening when HTTP activates: rule 3 could only discard it once viable, so activation closes it at once (decision); the upgrade websocket takes over later",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2300, Event: "viable T2", Expect: nil},
			{AtMs: 2350, Event: "connected T2", Expect: cat(becomeConnected(2, false), lost(1), openWith(3, 2350, "websocket", P, "upgrade"))},
			{AtMs: 2600, Event: "viable T1", Expect: nil},
			{AtMs: 2700, Event: "viable T3", Expect: nil},
			{AtMs: 2750, Event: "connected T3", Expect: cat(cancelT(connectT(3)), disposeT(2), activateT(3)), ExpectState: "connected"},
		}})

	add(scenario{ID: "outcome-4-websocket-fails-immediately", Spec: "transport-fallback",
		Comment: "a proxy refuses the websocket at once: HTTP starts at once, not after the short circuit (field failure: HTTP never tried)",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 40, "http", P, "clean"))},
			{AtMs: 200, Event: "viable T2", Expect: nil},
			{AtMs: 250, Event: "connected T2", Expect: cat(becomeConnected(2, false), openWith(3, 250, "websocket", P, "upgrade"))},
			{AtMs: 260, Event: "failed T3 refused", Expect: lost(3), ExpectState: "connected"},
		}})

	add(scenario{ID: "outcome-5-websocket-never-connects", Spec: "transport-fallback",
		Comment: "a proxy blackholes the websocket: HTTP starts one short circuit (2 s) later than HTTP-first would; HTTP's activation closes the hung websocket (rule 3 at activation), so only the upgrade websocket waits out its 10 s",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", P, "clean")},
			{AtMs: 2150, Event: "viable T2", Expect: nil},
			{AtMs: 2200, Event: "connected T2", Expect: cat(becomeConnected(2, false), lost(1), openWith(3, 2200, "websocket", P, "upgrade"))},
			{AtMs: 12200, Event: "timer connect T3", Expect: []string{disposeT(3)}, ExpectState: "connected"},
		}})

	// ---- Host fallback (RTN17, RSC15) ----

	add(scenario{ID: "fallback-order-through-every-step", Spec: "RTN17",
		Comment: "websocket on the primary, HTTP on the primary, the connectivity check, HTTP on fallback hosts in random order " +
			"(draws 0.5, 0, 0.9 pick c, a, e), then DISCONNECTED with an RTB1 retry (draw 0.5: 13.5 s)",
		Draws: []float64{0.5, 0, 0.9, 0.5},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 30, Event: "failed T1 dns", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 30, "http", P, "clean"))},
			{AtMs: 60, Event: "failed T2 dns", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 10060))},
			{AtMs: 100, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 100, "http", fbHost("c"), "clean"))},
			{AtMs: 130, Event: "failed T3 http-status:503", Expect: cat(lost(3), checkC(2), timerAt("connectivity-check", 10130))},
			{AtMs: 160, Event: "connectivity C2 up", Expect: cat(cancelT("connectivity-check"), openWith(4, 160, "http", fbHost("a"), "clean"))},
			{AtMs: 10160, Event: "timer connect T4", Expect: cat(disposeT(4), checkC(3), timerAt("connectivity-check", 20160))},
			{AtMs: 10200, Event: "connectivity C3 up", Expect: cat(cancelT("connectivity-check"), openWith(5, 10200, "http", fbHost("e"), "clean"))},
			{AtMs: 10250, Event: "failed T5 disconnected:504", Expect: cat(lost(5),
				withErr(stateRetry("connecting", "disconnected", "connect-failed", 13500), "disconnected:504"), timerAt("retry", 23750)),
				ExpectState: "disconnected", ExpectRetryCount: ip(1)},
			retryStep(23750, 6, P, "clean", "disconnected"),
		}})

	add(scenario{ID: "fallback-not-for-a-4xx", Spec: "RSC15l",
		Comment: "a 401 on the primary does not qualify: no connectivity check, no fallback host",
		Draws:   []float64{0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 30, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 30, "http", P, "clean"))},
			{AtMs: 60, Event: "failed T2 http-status:401", Expect: cat(lost(2),
				withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "http-status:401"), timerAt("retry", 15060))},
		}})

	add(scenario{ID: "fallback-cloudfront-4xx-qualifies", Spec: "RSC15l4",
		Comment: "a 403 from CloudFront qualifies for a fallback host",
		Draws:   []float64{0, 0, 0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 30, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 30, "http", P, "clean"))},
			{AtMs: 60, Event: "failed T2 http-status:403:CloudFront", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 10060))},
			{AtMs: 90, Event: "connectivity C1 up", Expect: cat(cancelT("connectivity-check"), openWith(3, 90, "http", fbHost("a"), "clean"))},
		}})

	add(scenario{ID: "field-no-fallback-after-connectivity-down", Spec: "RTN17j",
		Comment: "field failure: fallback hosts tried although the connectivity check failed; here none is opened",
		Draws:   []float64{0.5},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 30, Event: "failed T1 unreachable", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 30, "http", P, "clean"))},
			{AtMs: 60, Event: "failed T2 unreachable", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 10060))},
			{AtMs: 90, Event: "connectivity C1 down", Expect: cat(cancelT("connectivity-check"),
				withErr(stateRetry("connecting", "disconnected", "connectivity-down", 13500), "unreachable"), timerAt("retry", 13590))},
			{AtMs: 100, Event: "connectivity C1 up", Expect: nil, ExpectState: "disconnected"},
		}})

	add(scenario{ID: "connectivity-check-timeout-counts-as-down", Spec: "RTN17j",
		Comment: "a check that does not answer within httpRequestTimeout counts as down",
		Draws:   []float64{0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 30, Event: "failed T1 unreachable", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 30, "http", P, "clean"))},
			{AtMs: 60, Event: "failed T2 timeout", Expect: cat(lost(2), checkC(1), timerAt("connectivity-check", 10060))},
			{AtMs: 10060, Event: "timer connectivity-check", Expect: cat(
				withErr(stateRetry("connecting", "disconnected", "connectivity-down", 15000), "timeout"), timerAt("retry", 25060))},
		}})

	add(scenario{ID: "connect-timeout", Spec: "RTN14c",
		Comment: "neither transport answers: each times out after realtimeRequestTimeout; with no fallback host the attempt ends DISCONNECTED",
		Config:  scenarioConfig{Endpoint: H},
		Draws:   []float64{1},
		Steps: []scenarioStep{
			connectAt0(H),
			{AtMs: 2000, Event: "timer short-circuit", Expect: openWith(2, 2000, "http", H, "clean")},
			{AtMs: 10000, Event: "timer connect T1", Expect: []string{disposeT(1)}, ExpectState: "connecting"},
			{AtMs: 12000, Event: "timer connect T2", Expect: cat(disposeT(2),
				withErr(stateRetry("connecting", "disconnected", "connect-failed", 12000), "timeout"), timerAt("retry", 24000))},
		}})

	// ---- RTB1 retries, SUSPENDED (RTB1, RTN14d, RTN14e) ----

	seq := []scenarioStep{connectAt0(H)}
	at, t := int64(10), 1
	for i, retryIn := range []int64{15000, 20000, 25000, 30000, 30000} {
		from := "initialized"
		if i > 0 {
			from = "disconnected"
			seq = append(seq, retryStep(at, t, H, "clean", from))
			at += 10
		}
		end := cat(withErr(stateRetry("connecting", "disconnected", "connect-failed", retryIn), "refused"), timerAt("retry", at+10+retryIn))
		steps := failAttemptOnHost(t, at, H, "clean", end...)
		steps[1].ExpectRetryCount = ip(i + 1)
		seq = append(seq, steps...)
		at, t = at+10+retryIn, t+2
	}
	// The fifth retry is due at 120100, after connectionStateTtl (120 s).
	seq = append(seq,
		scenarioStep{AtMs: 120000, Event: "timer state-ttl", Expect: cat(cancelT("retry"),
			withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 150000)),
			ExpectState: "suspended", ExpectRetryCount: ip(0)},
		retryStep(150000, 11, H, "clean", "suspended"))
	seq = append(seq, failAttemptOnHost(11, 150010, H, "clean",
		withErr(stateRetry("connecting", "suspended", "connect-failed", 30000), "refused"), timerAt("retry", 180020))...)
	seq = append(seq, retryStep(180020, 13, H, "clean", "suspended"))
	seq = append(seq, failAttemptOnHost(13, 180030, H, "clean",
		withErr(stateRetry("connecting", "suspended", "connect-failed", 30000), "refused"), timerAt("retry", 210040))...)
	add(scenario{ID: "retry-sequence-15-20-25-30-then-suspended-flat", Spec: "RTB1/RTN14d/RTN14e",
		Comment: "with draws of 0 the DISCONNECTED retries wait 15, 20, 25, 30, 30 s (n from 1, never a 2/3 coefficient); " +
			"after connectionStateTtl the connection is SUSPENDED, n resets, and retries are a flat 30 s, never 15 s (field failures)",
		Config: scenarioConfig{Endpoint: H},
		Draws:  []float64{0, 0, 0, 0, 0},
		Steps:  seq,
	})

	add(scenario{ID: "recovery-to-connected-resets-n", Spec: "RTB1",
		Comment: "two failed attempts (n = 1, 2), then CONNECTED; after a drop the immediate reconnect is free and the next wait is n = 1 again",
		Config:  scenarioConfig{Endpoint: H},
		Draws:   []float64{0, 0, 0},
		Steps: cat3(
			[]scenarioStep{connectAt0(H)},
			failAttemptOnHost(1, 10, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 15020)),
			[]scenarioStep{retryStep(15020, 3, H, "clean", "disconnected")},
			failAttemptOnHost(3, 15030, H, "clean", withErr(stateRetry("connecting", "disconnected", "connect-failed", 20000), "refused"), timerAt("retry", 35040)),
			[]scenarioStep{
				retryStep(35040, 5, H, "clean", "disconnected"),
				{AtMs: 35100, Event: "viable T5", Expect: nil},
				{AtMs: 35150, Event: "connected T5", Expect: becomeConnected(5, true), ExpectRetryCount: ip(0)},
				{AtMs: 40000, Event: "closed T5 disconnected:503", Expect: cat(disposeT(5),
					withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:503"), stateTo("disconnected", "connecting", "reconnect"),
					wsFirst(6, 40000, H, "resume"), timerAt("state-ttl", 160000)), ExpectRetryCount: ip(0)},
			},
			failAttemptOnHost(6, 40010, H, "resume", withErr(stateRetry("connecting", "disconnected", "connect-failed", 15000), "refused"), timerAt("retry", 55020)),
		),
	})

	add(scenario{ID: "immediate-reconnect-at-most-once-a-second", Spec: "RTN15a",
		Comment: "a drop reconnects at once; a second drop within 1 s of that reconnect waits an RTB1 delay instead; a drop a second later is immediate again",
		Draws:   []float64{0},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 50, Event: "viable T1", Expect: nil},
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 1000, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 1000, P, "resume"), timerAt("state-ttl", 121000))},
			{AtMs: 1100, Event: "viable T2", Expect: nil},
			{AtMs: 1150, Event: "connected T2", Expect: becomeConnected(2, true)},
			{AtMs: 1500, Event: "closed T2", Expect: cat(disposeT(2), stateRetry("connected", "disconnected", "dropped", 15000),
				timerAt("retry", 16500), timerAt("state-ttl", 121500)), ExpectRetryCount: ip(1)},
			retryStep(16500, 3, P, "resume", "disconnected"),
			{AtMs: 16600, Event: "viable T3", Expect: nil},
			{AtMs: 16650, Event: "connected T3", Expect: becomeConnected(3, true)},
			{AtMs: 17650, Event: "closed T3", Expect: cat(disposeT(3), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(4, 17650, P, "resume"), timerAt("state-ttl", 137650))},
		}})

	add(scenario{ID: "field-no-retry-spam-when-a-proxy-drops-every-connection", Spec: "RTN15a/RTB1",
		Comment: "field failure: retries every 100 ms; a proxy that accepts and drops at once gets one immediate reconnect a second, then RTB1 waits",
		Draws:   []float64{0.5},
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 100, Event: "connected T1", Expect: becomeConnected(1, true)},
			{AtMs: 200, Event: "closed T1", Expect: cat(disposeT(1), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(2, 200, P, "resume"), timerAt("state-ttl", 120200))},
			{AtMs: 300, Event: "connected T2", Expect: becomeConnected(2, true)},
			{AtMs: 400, Event: "closed T2", Expect: cat(disposeT(2), stateRetry("connected", "disconnected", "dropped", 13500),
				timerAt("retry", 13900), timerAt("state-ttl", 120400))},
			{AtMs: 500, Event: "closed T2", Expect: nil, ExpectState: "disconnected"},
		}})

	add(scenario{ID: "field-no-sticky-websocket-failure", Spec: "transport-fallback",
		Comment: "field failure: a websocket failure that sticks; every new attempt tries the websocket first again",
		Steps: []scenarioStep{
			connectAt0(P),
			{AtMs: 40, Event: "failed T1 refused", Expect: cat(lost(1), cancelT("short-circuit"), openWith(2, 40, "http", P, "clean"))},
			{AtMs: 250, Event: "connected T2", Expect: cat(becomeConnected(2, false), openWith(3, 250, "websocket", P, "upgrade"))},
			{AtMs: 300, Event: "failed T3 refused", Expect: lost(3)},
			{AtMs: 5000, Event: "closed T2", Expect: cat(disposeT(2), stateRetry("connected", "disconnected", "dropped", 0),
				stateTo("disconnected", "connecting", "reconnect"), wsFirst(4, 5000, P, "resume"), timerAt("state-ttl", 125000))},
		}})

	out = append(out, stateScenarios()...)
	out = append(out, errorScenarios()...)
	out = append(out, livenessScenarios()...)
	out = append(out, parityScenarios()...)
	out = append(out, stormSafeScenarios()...)
	out = append(out, numberChecks(rowScenarios())...)
	out = append(out, numberChecks(tourScenarios())...)
	out = append(out, edgeScenarios()...)
	out = append(out, portScenarios()...)
	return append(out, boundaryScenarios()...)
}

// cat3 concatenates step lists.
func cat3(parts ...[]scenarioStep) []scenarioStep {
	var out []scenarioStep
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
