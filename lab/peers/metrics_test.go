package peers

import (
	"testing"
	"time"
)

// The ranks are the textbook ones: n = 20 gives x(6)…x(15) (coverage
// 95.9 %), n = 6 gives x(1)…x(6), n = 100 gives x(40)…x(61).
func TestMedianCI(t *testing.T) {
	for _, tc := range []struct{ n, lo, hi int }{{6, 0, 5}, {10, 1, 8}, {20, 5, 14}, {100, 39, 60}, {3, 0, 2}} {
		if lo, hi := medianCI(tc.n); lo != tc.lo || hi != tc.hi {
			t.Errorf("medianCI(%d) = %d, %d; want %d, %d (0-based)", tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestSpreadWithNever(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
			if x < 0 {
				out[i] = Never
			}
		}
		return out
	}
	s := spreadOf(ms(30, 10, 20, -1, -1))
	if s.Median != 30*time.Millisecond || s.Max != Never || s.Lo != 10*time.Millisecond || s.Hi != Never {
		t.Fatalf("spread %+v", s)
	}
	if s := spreadOf(ms(-1, -1, 5)); s.Median != Never {
		t.Fatalf("two of three never: median %v, want Never", s.Median)
	}
}
