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
// scenario as it stands. The generator (Generate) varies every knob the
// scenarios use, canRenewToken among them, and feeds every event kind:
// transport events for live, disposed, unknown and zero transports; what
// the server says (connected with maxIdleInterval, connectionStateTtl and
// error in any order, details, activity with and without at=, earlier,
// at or after the step, and at the idle limit's edge); answers to checks
// and token renewals (up and down, renewed and failed) in flight,
// answered, unknown, of another kind, and C0, and checks never answered;
// timers (idle and renew-token among them) fired when due, fired late,
// and timers not running. Timeline i of a seed is always the same
// timeline.
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
