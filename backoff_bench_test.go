package reconnect

import (
	"math/rand/v2"
	"testing"
	"time"
)

var (
	sinkDuration time.Duration
	sinkFloat    float64
)

func BenchmarkRetryDelay(b *testing.B) {
	b.ReportAllocs()
	us := [8]float64{0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 1}
	var d time.Duration
	for i := range b.N {
		d += RetryDelay(15*time.Second, i&7, us[i&7])
	}
	sinkDuration = d
}

func BenchmarkBackoffCoefficient(b *testing.B) {
	b.ReportAllocs()
	var c float64
	for i := range b.N {
		c += BackoffCoefficient(i & 7)
	}
	sinkFloat = c
}

// BenchmarkBackoffNextNilSource measures Next with a nil Source: the
// Backoff's own wyrand stream, not DefaultSource.
func BenchmarkBackoffNextNilSource(b *testing.B) {
	b.ReportAllocs()
	bo := NewBackoff(15*time.Second, nil)
	var d time.Duration
	for range b.N {
		d += bo.Next()
	}
	sinkDuration = d
}

// BenchmarkBackoffNextSeededSource measures Next with a seeded *rand.Rand:
// the general path, one interface call per draw.
func BenchmarkBackoffNextSeededSource(b *testing.B) {
	b.ReportAllocs()
	bo := NewBackoff(15*time.Second, rand.New(rand.NewPCG(1, 2)))
	var d time.Duration
	for range b.N {
		d += bo.Next()
	}
	sinkDuration = d
}

// BenchmarkBackoffNextParallel gives each goroutine its own Backoff, the
// shape the concurrency contract asks for: one retry sequence per connection.
func BenchmarkBackoffNextParallel(b *testing.B) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		bo := NewBackoff(15*time.Second, nil)
		var d time.Duration
		for pb.Next() {
			d += bo.Next()
		}
		_ = d
	})
}
