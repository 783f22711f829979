package reconnect

import "fmt"

// The RTB1 tests of the Ably specification's Universal Test
// Specifications that the root owns (conformance/uts/catalogue.json), as
// rtb1.json items that carry the UTS test in their uts field. The
// expectations are the UTS tests' own assertions, written out by hand.

// utsBackoffFile is the UTS file of the backoff and jitter tests.
const utsBackoffFile = "uts/realtime/unit/connection/backoff_jitter_test.md"

func utsRTB1Items() []rtb1Item {
	var items []rtb1Item
	// RTB1a: coefficients[0..3] == 1.0, 4.0/3.0, 5.0/3.0, 2.0; the rest 2.0.
	seq := []struct {
		f     float64
		exact string
	}{{1, "1"}, {4.0 / 3.0, "4/3"}, {5.0 / 3.0, "5/3"}, {2, "2"}, {2, "2"}, {2, "2"}, {2, "2"}, {2, "2"}, {2, "2"}, {2, "2"}}
	for i, c := range seq {
		n := int64(i + 1)
		items = append(items, rtb1Item{
			ID: fmt.Sprintf("uts-rtb1a-coefficient-n%d", n), Spec: "RTB1a", Function: "backoffCoefficient",
			UTS: utsRef(utsBackoffFile, "realtime/unit/RTB1a/backoff-coefficient-sequence-0"), Attempt: ptr(n),
			ExpectedCoefficient: floatNumber(c.f), ExpectedCoefficientExact: c.exact,
		})
	}
	// RTB1b: every jitter in [0.8, 1.0], mean near 0.9, a spread over 0.05:
	// with the draw pinned, the ends and the middle of the range.
	for _, c := range []struct{ u, want float64 }{{0, 1.0}, {0.5, 0.9}, {1, 0.8}} {
		items = append(items, rtb1Item{
			ID: fmt.Sprintf("uts-rtb1b-jitter-u%g", c.u), Spec: "RTB1b", Function: "jitterCoefficient",
			UTS: utsRef(utsBackoffFile, "realtime/unit/RTB1b/jitter-coefficient-range-0"),
			U:   floatNumber(c.u), ExpectedJitter: floatNumber(c.want),
			Comment: "the UTS test samples 1000 draws; a pinned draw u gives 1 - 0.2u",
		})
	}
	return items
}
