package reconnect

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"testing"
)

// The …Ns strings of rtb1.json are the spec's float64 computation
// (initial × backoff × jitter, each product rounded to float64), rounded to
// a whole nanosecond with halves away from zero and saturated at 2^63−1.
// An implementation in integer nanoseconds that computes the exact real
// value initial × min((n+2)/3, 2) × (1 − u/5) and rounds it the same way
// can differ from them near the top of the range. The rule fixtures/README
// gives such an implementation, checked here for every case: its value is
// within the fixture's tolerance of the string's, max(1 ns, 10⁻¹⁴ × the
// expected value), and equal to it below 2^53 ns.
func TestFixtureRTB1ExactIntegerRule(t *testing.T) {
	var f rtb1File
	loadFixture(t, "rtb1.json", &f)
	maxDiff, maxAt, checked, differ := int64(0), "", 0, 0
	rule := func(id string, initialNs, n int64, u float64, want string) {
		w, err := strconv.ParseInt(want, 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		exact := roundExactNs(exactDelay(initialNs, n, u), initialNs)
		d := exact - w
		if d < 0 {
			d = -d
		}
		checked++
		if d != 0 {
			differ++
		}
		if d > maxDiff {
			maxDiff, maxAt = d, id
		}
		limit := max(int64(1), int64(1e-14*float64(w)))
		if w < 1<<53 && d != 0 || d > limit {
			t.Errorf("%s: exact integer %d, fixture %s: difference %d over the rule's %d", id, exact, want, d, limit)
		}
	}
	for _, it := range f.Items {
		if it.Function != "retryDelay" && it.Function != "retryBounds" {
			continue
		}
		initialNs := int64(nsFromMs(t, it.Initial)) // whole nanoseconds: up to six decimals
		if it.Function == "retryDelay" {
			rule(it.ID, initialNs, *it.Attempt, rawU(t, it.U), it.ExpectedDelayNs)
		} else {
			rule(it.ID+" lower", initialNs, *it.Attempt, 1, it.ExpectedLowerNs)
			rule(it.ID+" upper", initialNs, *it.Attempt, 0, it.ExpectedUpperNs)
		}
	}
	t.Logf("%d values checked; the exact integer differs from the float64 computation in %d, by at most %d ns (%s)", checked, differ, maxDiff, maxAt)
	if checked < 200 {
		t.Fatalf("only %d values checked", checked)
	}
}

// roundExactNs rounds an exact non-negative delay to whole nanoseconds,
// halves up, saturating; initial ≤ 0 gives 0.
func roundExactNs(r *big.Rat, initialNs int64) int64 {
	if initialNs <= 0 {
		return 0
	}
	x := new(big.Rat).Add(r, ratHalf)
	q := new(big.Int).Quo(x.Num(), x.Denom())
	if !q.IsInt64() {
		return math.MaxInt64
	}
	return q.Int64()
}

func rawU(t *testing.T, raw json.RawMessage) float64 {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			t.Fatalf("u %q", x)
		}
		return f
	}
	t.Fatalf("u %s", raw)
	return 0
}
