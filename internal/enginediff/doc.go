// Package enginediff is the engine differential: it generates engine
// timelines, replays each through the Go engine (package engine, in
// process), the reference JavaScript engine (conformance/js/engine.mjs,
// under node) and the Python engine (conformance/python/engine.py, under
// python3), and compares every step's actions in order: the full ordered
// list of each step, not a multiset.
//
// A timeline is written in the scenario encoding of
// fixtures/scenarios.json (a configuration, the uniform draws, and steps
// of {atMs, event} in the event grammar), so a disagreement can become a
// scenario as it stands. The generator (Generate) varies every key of a
// scenario's config (fixtures/schema/scenarios.schema.json), most of them
// at their defaults in most timelines: the policy; the endpoint (a
// routing policy, nonprod, an explicit host, an address, capitals; Ably's
// preset refuses a port, so own hosts with ports are not expressible) and
// fallbackHosts (none, custom, one label, the primary host, capitals);
// the transports; shortCircuitMs and connectionStateTtlMs; the transport
// preference; the storm-safe options; the retry families; the immediate
// reconnect's modes; canRenewToken; the timeouts by job
// (connectTimeoutMs, idleSlackMs, closingTimeoutMs, renewalTimeoutMs: 1
// ms, equal to the short circuit, to realtimeRequestTimeout or to each
// other) and the client-side idleLimitMs (with and without the server's
// maxIdleInterval); the first-retry rule's firstRetryMs (with RTB1 and
// with a retry family, which then governs; up to its most,
// disconnectedRetryTimeout); and the adaptive short circuit's
// adaptiveMultiple and adaptiveFloorMs (0, 1 ms, at and above the short
// circuit, its ceiling). It feeds every event kind: transport events for
// live, disposed, unknown and zero transports, dialed T<n> rtt=<ms> among
// them (for the attempt's pending websocket, for HTTP, after CONNECTED,
// twice, rtt 0, fractional and a day); what the server says (connected
// with maxIdleInterval, connectionStateTtl and error in any order,
// details, activity with and without at=, earlier, at or after the step,
// and at the idle limit's edge, whichever limit holds); answers to checks
// and token renewals (up and down, renewed and failed) in flight,
// answered, unknown, of another kind, and C0, and checks never answered;
// timers (idle and renew-token among them) fired when due, fired late,
// timers due at the same millisecond fired in either order, and timers
// not running; and a transport lost at the first-retry rule's end,
// disconnectedRetryTimeout after the immediate reconnect, a millisecond
// either side. Timeline i of a seed is always the same timeline.
//
// The adapters are asked through the conformance protocol's scenarios
// area, by one process of each for a whole run, with the timelines
// streamed as JSON lines (Differ). A disagreement is explained by the
// known classes (Known), each recognised by a predicate and kept with its
// minimised timeline in testdata/<name>.json, or it is new: the test
// minimises it (Minimise: delta debugging over the events, then the
// knobs and the draws) and fails.
//
// Running it:
//
//	go test ./internal/enginediff                        # 500 timelines, a fresh seed
//	CI=true go test -v -run '^TestEngineDifferential$' ./internal/enginediff  # 10,000
//	go test ./internal/enginediff -run '^TestEngineDifferential$' -v -seed 42 -timelines 10000
//	ENGINEDIFF_SEED=42 ENGINEDIFF_TIMELINES=10000 go test ./...
//	go test ./internal/enginediff -run '^TestEngineDifferential$' -update  # refresh testdata
//
// The seed is printed by every run (with -v, or on failure); -seed or
// ENGINEDIFF_SEED replays a run exactly. Without node or python3 the
// tests skip, except with CI set, where they fail.
package enginediff
