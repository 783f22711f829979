package reconnect

import (
	"fmt"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// With RTB1b's own width the spread delay is RTB1's, bit for bit; it is
// non-increasing in u and in [(1 − spread), 1] × the envelope.
func TestPropertySpreadRetryDelayGeneralisesRTB1(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial := time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "initial"))
		n := rapid.IntRange(-2, 50).Draw(t, "attempt")
		u := rapid.Float64Range(0, 1).Draw(t, "u")
		if got, want := SpreadRetryDelay(initial, n, 0.2, u), RetryDelay(initial, n, u); got != want {
			t.Fatalf("spread 0.2: %v, RTB1 %v", got, want)
		}
		s := rapid.Float64Range(0, 1).Draw(t, "spread")
		upper := RetryDelay(initial, n, 0)
		d := SpreadRetryDelay(initial, n, s, u)
		lo := time.Duration(float64(upper)*(1-s)) - 1
		if d > upper || d < lo || SpreadRetryDelay(initial, n, s, 1) > d {
			t.Fatalf("spread %v u %v: %v outside [%v, %v] or increasing in u", s, u, d, lo, upper)
		}
	})
	if WindowWait(2*time.Second, 0.1, 0.05) != 0 || WindowWait(2*time.Second, 0.1, 0.55) != time.Second || WindowWait(2*time.Second, 0, 1) != 2*time.Second ||
		WindowWait(time.Second, 1, 0.5) != 0 || WindowWait(0, 0, 1) != 0 {
		t.Fatal("WindowWait")
	}
	if SpreadDelay(30*time.Second, math.NaN(), 0.5) != 30*time.Second || SpreadDelay(-1, 1, 1) != 0 || SpreadRetryDelay(0, 1, 1, 1) != 0 {
		t.Fatal("NaN spread, non-positive durations")
	}
}

// The first retry's delay under full spread and under RTB1's 0.2, for
// three draws; and a SUSPENDED delay with spread 0.5 at the largest draw.
func ExampleSpreadRetryDelay() {
	for _, u := range []float64{0, 0.5, 1} {
		fmt.Println(SpreadRetryDelay(15*time.Second, 1, 1, u), SpreadRetryDelay(15*time.Second, 1, 0.2, u))
	}
	fmt.Println(SpreadDelay(30*time.Second, 0.5, 1))
	// Output:
	// 15s 15s
	// 7.5s 13.5s
	// 0s 12s
	// 15s
}
