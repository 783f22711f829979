package engine

import (
	"slices"
	"testing"

	"github.com/reconnect-go/reconnect/internal/rows"
)

type scenariosFile struct {
	Comment       string            `json:"_comment"`
	Spec          string            `json:"spec"`
	FormatVersion int               `json:"formatVersion"`
	Units         map[string]string `json:"units"`
	Defaults      map[string]any    `json:"defaults"`
	Clock         map[string]any    `json:"clock"`
	Answers       map[string]string `json:"answers"`
	Rows          string            `json:"rows"`
	Grammar       map[string]string `json:"grammar"`
	Decisions     []string          `json:"decisions"`
	Items         []scenario        `json:"items"`
}

// scenarioEpochUnixMs is the wall clock at atMs 0: 2026-01-01T00:00:00Z.
const scenarioEpochUnixMs = 1767225600000

func buildScenariosFixture(items []scenario) scenariosFile {
	return scenariosFile{
		Comment: "The engine end to end: each scenario is a configuration, pinned random draws, and a timeline of events with the exact " +
			"actions the spec requires. Written by hand from the spec (engine/testdata/scenarios/*.txt); go test -run Fixture -update writes this file. Do not edit by hand.",
		Spec:          "engine",
		FormatVersion: 2,
		Units:         map[string]string{"time": "milliseconds from the scenario's start, as JSON integers"},
		Defaults: map[string]any{
			"endpoint": "", "webSocket": true, "http": true, "policy": "websocket-first", "shortCircuitMs": 2000,
			"disconnectedRetryTimeoutMs": 15000, "suspendedRetryTimeoutMs": 30000, "connectionStateTtlMs": 120000,
			"realtimeRequestTimeoutMs": 10000, "httpRequestTimeoutMs": 10000, "httpMaxRetryCount": 3,
			"reconnectWindowMs": 0, "immediateShare": 0, "retrySpread": 0, "suspendedSpread": 0,
			"primaryHost": P, "fallbackHosts": []string{fbHost("a"), fbHost("b"), fbHost("c"), fbHost("d"), fbHost("e")},
			"slowTimeoutMs": 4000, "giveUpTimeoutMs": 10000, "preference": "", "preferenceTtlMs": 86400000, "rememberTransport": false,
			"flapDrops": 4, "flapWindowMs": 300000, "flapHoldMs": 600000, "canRenewToken": false,
			"connectTimeoutMs": 10000, "idleSlackMs": 10000, "closingTimeoutMs": 10000, "renewalTimeoutMs": 10000, "idleLimitMs": 0,
			"retryFamily": "rtb1", "retryBaseMs": 0, "retryCapMs": 0, "retryMultiplier": 0, "retryJitter": 0,
			"immediateReconnect": "on", "immediateReconnectIntervalMs": 0,
			"adaptiveMultiple": 0, "adaptiveFloorMs": 0,
			"firstRetryMs": 0,
		},
		Clock: map[string]any{
			"epochUnixMs": scenarioEpochUnixMs, "epoch": "2026-01-01T00:00:00Z",
			"_comment": "atMs 0 of every scenario is this wall-clock instant (the engine's now); a remembered transport's time (config.preference) is compared with it",
		},
		Answers: map[string]string{
			"steps":            "an adapter answers, per step, the actions of that step in the action grammar: {\"steps\":[{\"actions\":[…]}, …]}",
			"expectState":      "checked by this repository's tests only; not asked of adapters",
			"expectRetryCount": "checked by this repository's tests only; not asked of adapters",
			"rows":             "documentary: the rows of docs/engine.md the scenario pins; not sent to adapters",
			"uts":              "documentary: the tests of the Ably specification's Universal Test Specifications the scenario translates, each <file>#<id>; not sent to adapters",
		},
		Rows: "docs/engine.md: every row names the scenarios that pin it, and each scenario's rows field lists those rows",
		Grammar: map[string]string{
			"events":     "connect | close | viable T<n> | connected T<n>[ <details>] | failed T<n> <failure> | closed T<n> [<failure>] | timer <timer> | connectivity C<n> up|down | websocket-check C<n> up|down | network-up | network-down | fatal <failure> | details T<n>[ <details>] | activity T<n>[ at=<ms>] | token C<n> renewed | token C<n> failed <failure> | authorize | dialed T<n> rtt=<ms>",
			"dialed":     "transport T<n>'s TCP connection (and TLS session) is up, before its websocket handshake, after rtt=<ms> from its open (a non-negative number of milliseconds, decimals allowed); with adaptiveMultiple k > 0 (0, off, by default) under websocket-first, the attempt's first websocket reporting it while the short-circuit timer runs moves that timer to the websocket's open + clamp(k × rtt, adaptiveFloorMs, shortCircuitMs) if that is earlier (never before now): cancel short-circuit, then timer short-circuit at=<ms>; otherwise it is ignored",
			"details":    "what a CONNECTED message says, options in any order, each at most once: maxIdleInterval=<ms> connectionStateTtl=<ms> error=<failure> (connectionDetails.maxIdleInterval and connectionStateTtl, and the message's error); connected is the first CONNECTED on the transport, details a later one",
			"activity":   "the transport received something from the server; at=<ms> says when (no later than the step's time), else at the step's time",
			"failure":    "<kind>[:<status>[:<server>]] with kind one of dns, unreachable, refused, timeout, http-status, disconnected, token, other",
			"timer":      "short-circuit | connect T<n> | retry | state-ttl | connectivity-check | close | websocket-slow | websocket-give-up | flap-hold | attempt | slow-check | idle | renew-token  (at most one live timer has each name)",
			"actions":    "open T<n> <websocket|http> <host> <clean|resume|recover|upgrade> | dispose T<n> | activate T<n> | timer <timer> at=<ms> | cancel <timer> | check C<n> | check-websocket C<n> | renew-token C<n> | state <from> <to> <reason>[ retryIn=<ms>][ error=<failure>] | update <details|transport>[ error=<failure>]",
			"retryIn":    "present exactly when the new state is disconnected or suspended; milliseconds with up to six decimals",
			"error":      "the failure the state change carries, present exactly when it carries one; <failure> keeps the status only for http-status and disconnected, and the server only for http-status",
			"transports": "T1, T2, … number the transports in the order the engine opens them",
			"checks":     "C1, C2, … number the checks (connectivity checks, websocket checks and token renewals together) in the order the engine asks for them; an answer names the check it answers; C0 names no check",
			"draws":      "the uniform draws the engine's source returns, in order, exactly as many as the engine takes: one per RTB1 delay (each entry into DISCONNECTED with a delay), and, at once when the first connectivity check of an attempt says up, one per fallback host the attempt may walk: every fallback host under websocket-first and http-first (RTN17j), min(httpMaxRetryCount, number of fallback hosts) under websocket-check (the host order: index floor(u·r) of the r hosts remaining); with the storm-safe options, one for the windowed reconnect after a drop or network-down (reconnectWindowMs > 0) and one per SUSPENDED delay (suspendedSpread > 0); under the first-retry rule (firstRetryMs > 0) the first early retry after a failed immediate reconnect takes one draw in place of RTB1's and each later early retry none; docs/engine.md, Draws",
			"matching":   "within one step every action must appear in the given order, compared as text position by position; no set of actions is unordered (the order is normative: docs/engine.md, The order of actions within one step)",
			"timerIds":   "timer events name the live timer by kind (connect T<n> for a transport's connect timer); a name with no live timer is a timer the engine never started, which it ignores",
		},
		Decisions: []string{
			"transport fallback before host fallback: websocket on the primary, HTTP on the primary, the connectivity check, HTTP on each fallback host (a check before each; every fallback host, RTN17j, and at most httpMaxRetryCount under websocket-check, as ably-js), then DISCONNECTED",
			"each transport has realtimeRequestTimeout to connect; a timeout is a qualifying failure",
			"the connectivity check has httpRequestTimeout to answer; no answer counts as down",
			"websocket-check policy: slow timer 4 s (websocket check, plus a connectivity check whose down means DISCONNECTED), give-up timer 10 s (HTTP unless the websocket check passed); a websocket that failed on every host gets a websocket check at once",
			"activating a websocket closes every other transport",
			"an answer names its check: an answer to a check no longer in flight (its attempt ended, its timer fired, it was answered or replaced) or to C0 changes nothing, under every policy",
			"a drop from CONNECTED reconnects at once without consuming a retry number, at most once a second; a second drop within 1 s of the last immediate reconnect waits an RTB1 delay",
			"network-down (RTN20a) from CONNECTED or CONNECTING goes DISCONNECTED and reconnects at once as after a drop (the same once-a-second rule), although the OS says the network is down; once connectionStateTtl has passed, from CONNECTING it goes SUSPENDED",
			"close while CONNECTING goes CLOSING (RTN12f): websocket-first and http-first let the transports in flight finish, activating (without a CONNECTED state) the one that connects so that CLOSE is sent on it, and go CLOSED when none is left; websocket-check ends the attempt, CLOSING then CLOSED at once; close from INITIALIZED, DISCONNECTED or SUSPENDED is CLOSED at once; FAILED ignores close",
			"connect while CLOSING (RTN11b) disposes every transport, cancels every timer and starts a fresh connection as from CLOSED",
			"storm-safe options (opt-in, docs/storm-safe-reconnect.md): reconnectWindowMs W > 0 turns the immediate reconnect into DISCONNECTED with retryIn = W × (u − s) / (1 − s) for immediateShare s (0 by default) and a reconnect (reason reconnect, no retry number) when that retry timer fires, or, when u < s, the immediate reconnect as before; the once-a-second rule counts from the drop; retrySpread s > 0 makes a DISCONNECTED retry wait initial × coefficient × (1 − s × u); suspendedSpread s > 0 makes a SUSPENDED retry wait suspendedRetryTimeout × (1 − s × u)",
			"first-retry rule (opt-in in the fixtures, engine.Defaults() in Go; docs/storms.md): firstRetryMs P > 0 makes the DISCONNECTED retries that follow a failed immediate reconnect (after a drop or network-down), while less than disconnectedRetryTimeout has passed since that reconnect, wait P × u for the first (one draw) and P for each later one (no draw), with no retry number taken; the first retry after that is RTB1 retry 1; CONNECTED, SUSPENDED, and a connect from initialized, closed or failed end the rule until the next immediate reconnect; a drop within 1 s of the last immediate reconnect (no immediate reconnect) does not start it",
			"the retry count resets on CONNECTED and on SUSPENDED; once connectionStateTtl has passed without a connection every failure returns to SUSPENDED with the flat suspendedRetryTimeout",
			"a transport that reports connected without being viable first is treated as viable, then connected",
			"reconnects use resume mode; a connect from INITIALIZED, CLOSED, FAILED or CLOSING is clean",
			"the flapping guard (websocket-first and http-first): when 4 websockets have activated and then dropped within 5 minutes, attempts open HTTP alone (no short circuit, no upgrade) for 10 minutes; the flap-hold timer then opens an upgrade websocket on an HTTP connection",
			"the connection details of a CONNECTED message hold for the connection (RTN21): its connectionStateTtl replaces the configured one for the state-ttl timer started when the connection is lost, until a fresh connect; its maxIdleInterval m > 0 starts the idle timer, due m + realtimeRequestTimeout after the transport's last activity (RTN23a), which disposes the transport as a drop with a timeout when no activity came",
			"the connection stays CONNECTED and says so with an update (RTN4h): a later CONNECTED on the active transport (update details, RTN24) and another transport activating (update transport) carry the message's error, which also becomes errorReason; a first CONNECTED carrying an error (RTN15c7) gives its CONNECTED change that error",
			"a token error (statusCode 401, code 40140–40149) with canRenewToken: one renewal (renew-token) and, renewed, a new attempt at once; a second token error in that attempt, or a renewal that fails, goes DISCONNECTED; a renewal refused with 403 goes FAILED (RSA4d); while CONNECTED the token error is a drop whose next attempt starts with the renewal (RTN15h2); without canRenewToken a token error goes FAILED (RTN15h1, RSA4a2)",
			"authorize (the SDK's Auth#authorize, RTC8), whatever canRenewToken says: while CONNECTING every transport disposed and the attempt timers cancelled (a renewal in flight among them), then one renewal (renew-token) with no state change, and, renewed, a new attempt at once (RTC8b), the renewal's failure as a token error's; from INITIALIZED, DISCONNECTED, SUSPENDED, CLOSED or FAILED a connect (connect-requested) whose attempt starts with the renewal (RTC8c); while CONNECTED or CLOSING nothing (RTC8a: the SDK sends AUTH)",
			"the adaptive short circuit (adaptiveMultiple k > 0, websocket-first only): the first report of the attempt's first websocket that its dial is up (dialed T<n> rtt=<ms>), while it is not yet viable and the short-circuit timer runs, brings that timer forward to the websocket's open + clamp(k × rtt, adaptiveFloorMs, shortCircuitMs) when earlier (not before the report); a later report, another transport's, a websocket already viable, websocket-check and http-first change nothing",
			"every state change carries the failure that caused it, or none: DISCONNECTED or SUSPENDED after a failed attempt (connect-failed, connectivity-down) carries the last failure reported for one of the attempt's transports (timeout for a connect timeout); a drop carries the drop's failure (none for a clean close); network-down carries unreachable; SUSPENDED at connectionStateTtl carries the failure of the DISCONNECTED it leaves, or the attempt's last transport failure mid-attempt, or timeout when that is none (RTN14e); FAILED carries the fatal failure (or the token error that cannot be renewed, or the renewal refused with 403); CONNECTED carries the error of its CONNECTED message (RTN15c7), none without; CONNECTING, CLOSING and CLOSED carry none",
		},
		Items: normalizeScenarios(items),
	}
}

// normalizeScenarios fills in each scenario's rows (from docs/engine.md)
// and writes empty lists as [] rather than null.
func normalizeScenarios(all []scenario) []scenario {
	all = slices.Clone(all)
	for i := range all {
		all[i].Rows = rows.For(all[i].ID)
		if all[i].Draws == nil {
			all[i].Draws = []float64{}
		}
		all[i].Steps = slices.Clone(all[i].Steps)
		for j := range all[i].Steps {
			if all[i].Steps[j].Expect == nil {
				all[i].Steps[j].Expect = []string{}
			}
		}
	}
	return all
}

func TestFixtureScenariosMatchesOracle(t *testing.T) {
	checkGolden(t, "scenarios.json", buildScenariosFixture(loadScenariosT(t)))
}
