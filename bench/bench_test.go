package bench

import (
	"errors"
	"fmt"
	"testing"
	"time"

	backoffv4 "github.com/cenkalti/backoff/v4"
	"github.com/reconnect-go/reconnect"
)

// BenchmarkAll runs every comparison as a sub-benchmark; CI runs it with
// -benchtime=1x so that it cannot rot. The real comparison is cmd/compare,
// which interleaves rounds in one process.
func BenchmarkAll(b *testing.B) {
	for _, x := range All {
		b.Run(x.Op+"/"+x.Lib, x.Fn)
	}
}

// A *reconnect.Backoff passed to cenkalti/backoff's Retry: the operation
// fails twice, then succeeds; Retry waits RTB1 delays in between (a 1 ms
// initial timeout keeps the example fast).
func Example_cenkaltiRetry() {
	calls := 0
	op := func() error {
		calls++
		if calls < 3 {
			return errors.New("not yet")
		}
		return nil
	}
	b := reconnect.NewBackoff(time.Millisecond, nil)
	err := backoffv4.Retry(op, b)
	fmt.Println(err, calls, "calls; next attempt would be", b.Attempt())
	// Output:
	// <nil> 3 calls; next attempt would be 3
}
