package bench

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// The two layouts BenchmarkHeapLayout allocates: reconnect.Backoff's
// fields as they are (withSource), and the same without the Source
// (noSource), the layout a Backoff would need for the garbage collector
// to allocate it as an object without pointers (docs/benchmarks.md,
// "Constructing a Backoff on the heap"). Only their layout matters: the
// benchmark allocates them and reads no field.

//lint:ignore U1000 only the layout matters (see above)
type withSource struct {
	initial time.Duration
	src     reconnect.Source
	taken   int
	state   uint64
	initF   float64
	mode    uint8
}

//lint:ignore U1000 only the layout matters (see above)
type noSource struct {
	initial time.Duration
	taken   int
	state   uint64
	initF   float64
	mode    uint8
}

var (
	sinkWith *withSource
	sinkNo   *noSource
)

// BenchmarkHeapLayout allocates each layout on the heap, as
// e-construct-heap does for reconnect.NewBackoff: with the Source field
// (an interface, so the object holds pointers and is scanned) and without
// it (a 48-byte object without pointers, like cenkalti v5's and
// jpillora's). Under callgrind the difference between the two is what the
// Source field costs a heap construction.
func BenchmarkHeapLayout(b *testing.B) {
	b.Run("with-source", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkWith = &withSource{initial: initial}
		}
	})
	b.Run("no-source", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkNo = &noSource{initial: initial}
		}
	})
}
