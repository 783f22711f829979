package conform

import (
	"os"
	"testing"

	"github.com/reconnect-go/reconnect/internal/exhaustive"
)

// The default mode of the wrong-adapter suites (go test ./... without
// RECONNECT_EXHAUSTIVE=1; see internal/exhaustive) differs from the
// exhaustive one CI runs in two ways, and in no assertion:
//
//   - it runs one wrong adapter in mutantSample of each list (of each area
//     for the independent ones), the first of each group of mutantSample
//     in file order, and every one marked as equivalent, single-input or
//     an escape, whose assertions are of another kind;
//   - each run stops at its second failed case (verdictFailures): every
//     verdict these suites give (caught by at least two cases; an
//     equivalent one by none, a single-input one by one at least, an
//     escape by fewer than two) is decided by then, so the rest of the run
//     would only count. The logs then say "≥2".
//
// The exhaustive mode runs every wrong adapter over every case of its
// areas and logs the counts in full.

// mutantSample is how many wrong adapters of a list the default mode runs
// one of.
const mutantSample = 8

// verdictFailures is the MaxFailures of a wrong adapter's run: 2 in the
// default mode, 0 (every case) in the exhaustive mode and when
// INDEPENDENT_REPORT asks for every failing case.
func verdictFailures() int {
	if exhaustive.On() || os.Getenv("INDEPENDENT_REPORT") != "" {
		return 0
	}
	return 2
}

// logSample says how many of the wrong adapters of a list run, and how to
// run them all.
func logSample(t *testing.T, ran, all int) {
	t.Helper()
	if ran < all {
		t.Logf("the default mode runs %d of the %d wrong adapters, each until its second failed case; %s=1 runs every one over every case", ran, all, exhaustive.Env)
	}
}
