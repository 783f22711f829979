// Package bench compares the reconnect package with the Go retry and
// backoff libraries people use today, operation by operation, in one
// process. Run it with
//
//	go run ./cmd/compare -count 16 -benchtime 150ms -raw results.txt
//
// from this directory. It is a module of its own so that the libraries it
// compares add nothing to the reconnect module's requirements.
//
// Every library is measured under the same conditions: the same schedule
// (see initial and maxDelay), the same loop, and for construction the same
// escape conditions, once with the object dropped in the loop body (it
// stays on the stack wherever the compiler can inline the constructor) and
// once stored in a package-level pointer (it goes to the heap for all).
// The figures and the machine they come from: docs/benchmarks.md in the
// reconnect repository.
package bench

import (
	"math/rand/v2"
	"testing"
	"time"

	backoffv4 "github.com/cenkalti/backoff/v4"
	backoffv5 "github.com/cenkalti/backoff/v5"
	jpillora "github.com/jpillora/backoff"
	"github.com/reconnect-go/reconnect"
	retry "github.com/sethvargo/go-retry"
)

// The like-for-like setting: a 15 s initial delay, capped at 30 s, with
// jitter, as RTB1's default DISCONNECTED schedule has it.
const (
	initial  = 15 * time.Second
	maxDelay = 30 * time.Second
)

// Benchmark is one library doing one operation.
type Benchmark struct {
	Op   string // a to f, see Ops
	Lib  string
	Note string // what the library does instead, or why it cannot
	Fn   func(*testing.B)
}

// Ops describes the operations compared.
var Ops = map[string]string{
	"a-delay-for-attempt": "(a) one jittered delay for attempt n, with the draw from a seeded source: a stateless function",
	"b-next":              "(b) the stateful next delay of a reusable backoff object",
	"c-next-parallel":     "(c) (b) under b.RunParallel, one shared object where the library allows it",
	"d-construct":         "(d) constructing a backoff object that does not outlive the loop body: every library's object stays on the stack where the compiler can inline its constructor",
	"e-construct-heap":    "(e) constructing a backoff object stored in a package-level pointer: every library's object escapes to the heap",
	"f-construct-next":    "(f) constructing a backoff object that does not outlive the loop body and taking its first delay: what a new retry sequence costs",
}

// Sink and SinkStop receive the benchmarks' results, so that the compiler
// cannot drop the work. The pointer sinks make each constructed object
// escape to the heap in (e), the same for every library.
var (
	Sink     time.Duration
	SinkStop bool

	SinkReconnect *reconnect.Backoff
	SinkV4        *backoffv4.ExponentialBackOff
	SinkV5        *backoffv5.ExponentialBackOff
	SinkJP        *jpillora.Backoff
	SinkSV        retry.Backoff
)

func newV4() *backoffv4.ExponentialBackOff {
	b := backoffv4.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval, b.MaxElapsedTime = initial, maxDelay, 0
	return b
}

func newV5() *backoffv5.ExponentialBackOff {
	b := backoffv5.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval = initial, maxDelay
	return b
}

func newJP() *jpillora.Backoff {
	return &jpillora.Backoff{Min: initial, Max: maxDelay, Factor: 1.5, Jitter: true}
}

func newSV() retry.Backoff {
	return retry.WithCappedDuration(maxDelay, retry.WithJitterPercent(20, retry.NewExponential(initial)))
}

// All lists every benchmark, grouped by operation; ours first.
var All = []Benchmark{
	{Op: "a-delay-for-attempt", Lib: "reconnect", Fn: func(b *testing.B) {
		b.ReportAllocs()
		src := rand.New(rand.NewPCG(1, 2))
		var d time.Duration
		for i := 0; i < b.N; i++ {
			d += reconnect.RetryDelay(initial, i&7, src.Float64())
		}
		Sink = d
	}},
	{Op: "a-delay-for-attempt", Lib: "jpillora", Note: "ForAttempt draws from the global math/rand; it cannot be seeded", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := newJP()
		var d time.Duration
		for i := 0; i < b.N; i++ {
			d += bo.ForAttempt(float64(i & 7))
		}
		Sink = d
	}},

	{Op: "b-next", Lib: "reconnect", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := reconnect.NewBackoff(initial, nil)
		var d time.Duration
		for i := 0; i < b.N; i++ {
			if i&7 == 0 {
				bo.Reset()
			}
			d += bo.NextBackOff()
		}
		Sink = d
	}},
	{Op: "b-next", Lib: "cenkalti/v4", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := newV4()
		var d time.Duration
		for i := 0; i < b.N; i++ {
			if i&7 == 0 {
				bo.Reset()
			}
			d += bo.NextBackOff()
		}
		Sink = d
	}},
	{Op: "b-next", Lib: "cenkalti/v5", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := newV5()
		var d time.Duration
		for i := 0; i < b.N; i++ {
			if i&7 == 0 {
				bo.Reset()
			}
			d += bo.NextBackOff()
		}
		Sink = d
	}},
	{Op: "b-next", Lib: "jpillora", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := newJP()
		var d time.Duration
		for i := 0; i < b.N; i++ {
			if i&7 == 0 {
				bo.Reset()
			}
			d += bo.Duration()
		}
		Sink = d
	}},
	{Op: "b-next", Lib: "sethvargo", Note: "no Reset: the object stays at its cap, as a long sequence would", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := newSV()
		var d time.Duration
		var stop bool
		for i := 0; i < b.N; i++ {
			x, s := bo.Next()
			d, stop = d+x, stop || s
		}
		Sink, SinkStop = d, stop
	}},

	{Op: "c-next-parallel", Lib: "reconnect", Note: "a Backoff is not safe for concurrent use: one per goroutine", Fn: func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			bo := reconnect.NewBackoff(initial, nil)
			var d time.Duration
			for i := 0; pb.Next(); i++ {
				if i&7 == 0 {
					bo.Reset()
				}
				d += bo.NextBackOff()
			}
			_ = d
		})
	}},
	{Op: "c-next-parallel", Lib: "cenkalti/v4", Note: "not safe for concurrent use: one per goroutine", Fn: func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			bo := newV4()
			var d time.Duration
			for i := 0; pb.Next(); i++ {
				if i&7 == 0 {
					bo.Reset()
				}
				d += bo.NextBackOff()
			}
			_ = d
		})
	}},
	{Op: "c-next-parallel", Lib: "cenkalti/v5", Note: "not safe for concurrent use: one per goroutine", Fn: func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			bo := newV5()
			var d time.Duration
			for i := 0; pb.Next(); i++ {
				if i&7 == 0 {
					bo.Reset()
				}
				d += bo.NextBackOff()
			}
			_ = d
		})
	}},
	{Op: "c-next-parallel", Lib: "jpillora", Note: "one shared object (its counter is atomic)", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := newJP()
		b.RunParallel(func(pb *testing.PB) {
			var d time.Duration
			for pb.Next() {
				d += bo.Duration()
			}
			_ = d
		})
	}},
	{Op: "c-next-parallel", Lib: "sethvargo", Note: "one shared object (documented safe)", Fn: func(b *testing.B) {
		b.ReportAllocs()
		bo := newSV()
		b.RunParallel(func(pb *testing.PB) {
			var d time.Duration
			for pb.Next() {
				x, _ := bo.Next()
				d += x
			}
			_ = d
		})
	}},

	// (d): the constructed object is read in the loop body and dropped, so
	// it escapes nowhere; the compiler keeps it on the stack when it can
	// inline the constructor (reconnect, cenkalti/v5, jpillora) and cannot
	// otherwise (cenkalti/v4's constructor calls Reset; sethvargo's builds
	// closures).
	{Op: "d-construct", Lib: "reconnect", Note: "NewBackoff only sets its fields: inlined, on the stack", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += reconnect.NewBackoff(initial, nil).Initial()
		}
	}},
	{Op: "d-construct", Lib: "cenkalti/v4", Note: "not inlined: on the heap", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += newV4().InitialInterval
		}
	}},
	{Op: "d-construct", Lib: "cenkalti/v5", Note: "inlined, on the stack", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += newV5().InitialInterval
		}
	}},
	{Op: "d-construct", Lib: "jpillora", Note: "a struct literal: on the stack", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += newJP().Min
		}
	}},
	{Op: "d-construct", Lib: "sethvargo", Note: "closures: on the heap", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			x, _ := newSV().Next()
			Sink += x
		}
	}},

	// (e): every object is stored in a package-level pointer, so every
	// library pays one heap allocation at least.
	{Op: "e-construct-heap", Lib: "reconnect", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			SinkReconnect = reconnect.NewBackoff(initial, nil)
		}
	}},
	{Op: "e-construct-heap", Lib: "cenkalti/v4", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			SinkV4 = newV4()
		}
	}},
	{Op: "e-construct-heap", Lib: "cenkalti/v5", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			SinkV5 = newV5()
		}
	}},
	{Op: "e-construct-heap", Lib: "jpillora", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			SinkJP = newJP()
		}
	}},
	{Op: "e-construct-heap", Lib: "sethvargo", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			SinkSV = newSV()
		}
	}},

	// (f): (d) and the first delay, under the same escape conditions as (d).
	{Op: "f-construct-next", Lib: "reconnect", Note: "the first Next seeds the stream", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += reconnect.NewBackoff(initial, nil).Next()
		}
	}},
	{Op: "f-construct-next", Lib: "cenkalti/v4", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += newV4().NextBackOff()
		}
	}},
	{Op: "f-construct-next", Lib: "cenkalti/v5", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += newV5().NextBackOff()
		}
	}},
	{Op: "f-construct-next", Lib: "jpillora", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Sink += newJP().Duration()
		}
	}},
	{Op: "f-construct-next", Lib: "sethvargo", Fn: func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			x, _ := newSV().Next()
			Sink += x
		}
	}},
}

// Compile-time checks: *reconnect.Backoff is a BackOff of cenkalti/backoff
// v4 and v5.
var (
	_ backoffv4.BackOff = (*reconnect.Backoff)(nil)
	_ backoffv5.BackOff = (*reconnect.Backoff)(nil)
)
