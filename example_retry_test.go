package reconnect_test

import (
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Full jitter: the n-th delay is uniform in [0, min(Cap, Base × 2^(n−1))].
func ExampleFullJitter() {
	p := reconnect.FullJitter{Base: time.Second, Cap: 30 * time.Second}
	for n := 1; n <= 6; n++ {
		lo, hi := p.Bounds(n)
		fmt.Printf("attempt %d: %v–%v, u=0.5 gives %v\n", n, lo, hi, p.Delay(n, 0.5))
	}
	// Output:
	// attempt 1: 0s–1s, u=0.5 gives 500ms
	// attempt 2: 0s–2s, u=0.5 gives 1s
	// attempt 3: 0s–4s, u=0.5 gives 2s
	// attempt 4: 0s–8s, u=0.5 gives 4s
	// attempt 5: 0s–16s, u=0.5 gives 8s
	// attempt 6: 0s–30s, u=0.5 gives 15s
}

// Equal jitter keeps the lower half of the ceiling: never a near-zero wait.
func ExampleEqualJitter() {
	p := reconnect.EqualJitter{Base: time.Second, Cap: 30 * time.Second}
	lo, hi := p.Bounds(3)
	fmt.Println(lo, hi, p.Delay(3, 0.5))
	// Output: 2s 4s 3s
}

// gRPC's connection backoff: the first retry waits Base exactly; then the
// backoff grows ×1.6 up to 120 s and is jittered by ±20 % after the cap.
func ExampleGRPCBackoff() {
	p := reconnect.DefaultGRPCBackoff()
	for _, n := range []int{1, 2, 3, 12} {
		lo, hi := p.Bounds(n)
		fmt.Printf("attempt %d: %v–%v\n", n, lo, hi)
	}
	// Output:
	// attempt 1: 1s–1s
	// attempt 2: 1.28s–1.92s
	// attempt 3: 2.048s–3.072s
	// attempt 12: 1m36s–2m24s
}

// Decorrelated jitter depends on the previous delay: keep it, and pass it
// back in. The first retry reads Base as its previous delay.
func ExampleDecorrelatedJitter() {
	p := reconnect.DecorrelatedJitter{Base: time.Second, Cap: 30 * time.Second}
	var prev time.Duration
	for n, u := range []float64{0.5, 0.5, 0.5, 1} {
		prev = p.Delay(n+1, prev, u)
		fmt.Println(prev)
	}
	// Output:
	// 2s
	// 3.5s
	// 5.75s
	// 17.25s
}

// A RetryPolicy holds any family as one value, as engine.Config.Retry does.
func ExampleRetryPolicy() {
	p := reconnect.FullJitter{Base: 200 * time.Millisecond, Cap: 20 * time.Second}.Policy()
	if err := p.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Family, p.Delay(3, 0, 1))
	bad := reconnect.RetryPolicy{Family: reconnect.FamilyGRPC, Base: time.Second, Cap: time.Minute, Multiplier: 0.5}
	fmt.Println(bad.Validate())
	// Output:
	// full-jitter 800ms
	// reconnect: RetryPolicy.Multiplier = 0.5: must be 1 (a constant backoff) or from 1.01 to 100 (gRPC's is 1.6)
}
