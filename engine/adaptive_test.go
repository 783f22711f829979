package engine_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// TestAdaptiveHeadStart: clamp(k × rtt, floor, ceiling), worked out by hand.
func TestAdaptiveHeadStart(t *testing.T) {
	ms := time.Millisecond
	a := engine.AdaptiveShortCircuit{Multiple: 3, Floor: 250 * ms}
	for _, c := range []struct{ rtt, ceiling, want time.Duration }{
		{40 * ms, 2 * time.Second, 250 * ms},         // 120 ms, below the floor
		{150 * ms, 2 * time.Second, 450 * ms},        // 3 × 150
		{800 * ms, 2 * time.Second, 2 * time.Second}, // 2.4 s, above the ceiling
		{-5 * ms, 2 * time.Second, 250 * ms},         // a negative rtt counts as 0
		{math.MaxInt64, 2 * time.Second, 2 * time.Second},
		{10 * ms, 100 * ms, 100 * ms}, // a floor above the ceiling: the ceiling
	} {
		if got := a.HeadStart(c.rtt, c.ceiling); got != c.want {
			t.Errorf("HeadStart(%v, %v) = %v, want %v", c.rtt, c.ceiling, got, c.want)
		}
	}
	// The product is rounded to the nearest nanosecond, halves away from
	// zero: 1.5 × 10,000,005 ns = 15,000,007.5 ns.
	k := engine.AdaptiveShortCircuit{Multiple: 1.5}
	for _, c := range []struct{ rtt, want time.Duration }{{10_000_005, 15_000_008}, {1, 2}, {3, 5}, {10_000_004, 15_000_006}} {
		if got := k.HeadStart(c.rtt, 2*time.Second); got != c.want {
			t.Errorf("k 1.5: HeadStart(%d ns) = %d ns, want %d ns", c.rtt, got, c.want)
		}
	}
}

// TestAdaptiveValidate: every bad field is a *FieldError naming it.
func TestAdaptiveValidate(t *testing.T) {
	for _, c := range []struct {
		a     engine.AdaptiveShortCircuit
		field string
	}{
		{engine.AdaptiveShortCircuit{Multiple: 0.5}, "Config.Adaptive.Multiple"},
		{engine.AdaptiveShortCircuit{Multiple: 101}, "Config.Adaptive.Multiple"},
		{engine.AdaptiveShortCircuit{Multiple: math.NaN()}, "Config.Adaptive.Multiple"},
		{engine.AdaptiveShortCircuit{Multiple: math.Inf(1)}, "Config.Adaptive.Multiple"},
		{engine.AdaptiveShortCircuit{Multiple: -1}, "Config.Adaptive.Multiple"},
		{engine.AdaptiveShortCircuit{Multiple: 3, Floor: -time.Millisecond}, "Config.Adaptive.Floor"},
		{engine.AdaptiveShortCircuit{Floor: -time.Millisecond}, "Config.Adaptive.Floor"},
	} {
		cfg := engine.Defaults()
		cfg.Endpoint.Endpoint = "rt.example.com"
		cfg.Adaptive = c.a
		var fe *reconnect.FieldError
		if err := cfg.Validate(); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%+v: Validate() = %v, want a FieldError for %s", c.a, err, c.field)
		}
	}
	for _, a := range []engine.AdaptiveShortCircuit{{}, {Multiple: 1}, {Multiple: 100, Floor: time.Hour}, engine.DefaultAdaptiveShortCircuit()} {
		cfg := engine.Defaults()
		cfg.Endpoint.Endpoint = "rt.example.com"
		cfg.Adaptive = a
		if err := cfg.Validate(); err != nil {
			t.Errorf("%+v: %v", a, err)
		}
	}
}

// FuzzAdaptiveHeadStart: any rtt, ceiling, multiple and floor give a head
// start within [0, ceiling] (for a ceiling ≥ 0), never a panic.
func FuzzAdaptiveHeadStart(f *testing.F) {
	f.Add(int64(40e6), int64(2e9), 3.0, int64(250e6))
	f.Add(int64(-1), int64(0), 100.0, int64(0))
	f.Fuzz(func(t *testing.T, rtt, ceiling int64, k float64, floor int64) {
		a := engine.AdaptiveShortCircuit{Multiple: k, Floor: time.Duration(floor)}
		got := a.HeadStart(time.Duration(rtt), time.Duration(ceiling))
		if ceiling >= 0 && got > time.Duration(ceiling) {
			t.Fatalf("HeadStart = %v above the ceiling %v", got, time.Duration(ceiling))
		}
	})
}
