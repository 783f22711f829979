// Package exhaustive says whether the module's tests run in their
// exhaustive mode, the one CI runs (.ci/run sets RECONNECT_EXHAUSTIVE=1).
//
// `go test ./...` without it is the README's command: every test runs and
// every assertion holds, but the suites whose cost grows with the number of
// wrong adapters, flipped guesses or random timelines run a fixed part of
// them (docs/testing.md, "What go test ./... runs and what CI adds", lists
// each). The exhaustive mode runs all of them, as CI does on every change.
package exhaustive

import "os"

// Env is the environment variable that turns the exhaustive mode on: "1"
// or "true" (any case). Any other value, or none, is the default mode.
const Env = "RECONNECT_EXHAUSTIVE"

// On reports whether the tests run in the exhaustive mode (see Env).
func On() bool {
	switch os.Getenv(Env) {
	case "1", "true", "TRUE", "True":
		return true
	}
	return false
}

// Sampled reports whether the item at index i (0-based) of a list of
// same-kind test items (wrong adapters of one area, flipped guesses) runs
// in the default mode, which runs one in every: items 0, every, 2·every, …
// A fixed choice, so a default run is reproducible; every item runs in the
// exhaustive mode, and an every below 2 keeps every item.
func Sampled(i, every int) bool {
	return On() || every < 2 || i%every == 0
}
