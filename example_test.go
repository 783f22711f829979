package reconnect_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/reconnect-go/reconnect"
)

func ExampleBackoffCoefficient() {
	for n := 0; n <= 5; n++ {
		fmt.Printf("n=%d: %.4f\n", n, reconnect.BackoffCoefficient(n))
	}
	// Output:
	// n=0: 1.0000
	// n=1: 1.0000
	// n=2: 1.3333
	// n=3: 1.6667
	// n=4: 2.0000
	// n=5: 2.0000
}

func ExampleJitterCoefficient() {
	for _, u := range []float64{0, 0.5, 1, 7} {
		fmt.Println(u, reconnect.JitterCoefficient(u))
	}
	// Output:
	// 0 1
	// 0.5 0.9
	// 1 0.8
	// 7 0.8
}

func ExampleRetryDelay() {
	// The third retry of a DISCONNECTED connection, for a pinned draw u.
	initial := reconnect.DefaultTimeouts().DisconnectedRetry
	fmt.Println(reconnect.RetryDelay(initial, 3, 0))
	fmt.Println(reconnect.RetryDelay(initial, 3, 0.5))
	fmt.Println(reconnect.RetryDelay(initial, 3, 1))
	// Output:
	// 25s
	// 22.5s
	// 20s
}

// The bounds of the default DISCONNECTED schedule: the upper bounds are the
// 15 → 20 → 25 → 30 s sequence, the lower bounds 0.8 times those.
func ExampleRetryBounds() {
	for n := 1; n <= 5; n++ {
		lo, hi := reconnect.RetryBounds(15*time.Second, n)
		fmt.Printf("retry %d: [%v, %v]\n", n, lo, hi)
	}
	// Output:
	// retry 1: [12s, 15s]
	// retry 2: [16s, 20s]
	// retry 3: [20s, 25s]
	// retry 4: [24s, 30s]
	// retry 5: [24s, 30s]
}

func ExampleBackoff() {
	// A seeded source makes the delays reproducible; pass nil in production
	// for the concurrency-safe default.
	b := reconnect.NewBackoff(15*time.Second, rand.New(rand.NewPCG(1, 2)))
	for range 3 {
		n := b.Attempt()
		d := b.Next()
		lo, hi := reconnect.RetryBounds(15*time.Second, n)
		fmt.Printf("retry %d in [%v, %v]: %t\n", n, lo, hi, lo <= d && d <= hi)
	}
	b.Reset() // on CONNECTED or SUSPENDED
	fmt.Println("after Reset, attempt", b.Attempt())
	// Output:
	// retry 1 in [12s, 15s]: true
	// retry 2 in [16s, 20s]: true
	// retry 3 in [20s, 25s]: true
	// after Reset, attempt 1
}

func ExampleSchedule() {
	// u = 0 every time: the upper bound of each retry.
	for n, d := range reconnect.Schedule(15*time.Second, zero{}) {
		fmt.Println(n, d)
		if n == 5 {
			break
		}
	}
	// Output:
	// 1 15s
	// 2 20s
	// 3 25s
	// 4 30s
	// 5 30s
}

// zero is a Source that always draws 0.
type zero struct{}

func (zero) Float64() float64 { return 0 }

func ExampleTimeouts_Validate() {
	t := reconnect.DefaultTimeouts()
	t.SuspendedRetry = 0
	fmt.Println(t.Validate())
	// Output:
	// reconnect: Timeouts.SuspendedRetry = 0s: must be positive: the spec's default is 30s
}
