package reconnect

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// The retry families' properties, each checked against its bounds formula
// computed here in integers or exact rationals, not by the functions under
// test. Durations up to 2^53 ns (104 days) convert to float64 exactly, so
// for them the formulas below are exact.

// anyParam draws a duration parameter: mostly in the useful range, some
// anywhere, some at the edges.
func anyParam() *rapid.Generator[time.Duration] {
	return rapid.OneOf(
		rapid.Map(rapid.Int64Range(1, int64(time.Hour)), func(v int64) time.Duration { return time.Duration(v) }),
		rapid.Map(rapid.Int64(), func(v int64) time.Duration { return time.Duration(v) }),
		rapid.SampledFrom([]time.Duration{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 53, time.Second, 30 * time.Second}),
	)
}

// exact bounds: min(Cap, Base·2^(n−1)) in integers, for 0 < Base, Cap ≤ 2^53.
func exactCeiling(base, cap time.Duration, n int) *big.Int {
	k := max(n, 1) - 1
	if k > 200 {
		k = 200
	}
	e := new(big.Int).Lsh(big.NewInt(int64(base)), uint(k))
	if c := big.NewInt(int64(cap)); e.Cmp(c) > 0 {
		return c
	}
	return e
}

func smallParams(t *rapid.T) (base, cap time.Duration) {
	base = time.Duration(rapid.Int64Range(1, 1<<53).Draw(t, "base"))
	cap = time.Duration(rapid.Int64Range(int64(base), 1<<53).Draw(t, "cap"))
	return base, cap
}

func TestFullJitterWithinItsBoundsFormula(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, cap := smallParams(t)
		n, u := anyAttempt().Draw(t, "n"), anyU().Draw(t, "u")
		p := FullJitter{base, cap}
		lo, hi := p.Bounds(n)
		if lo != 0 || int64(hi) != exactCeiling(base, cap, n).Int64() {
			t.Fatalf("Bounds(%d) = [%d, %d], want [0, %s]", n, lo, hi, exactCeiling(base, cap, n))
		}
		if d := p.Delay(n, u); d < lo || d > hi {
			t.Fatalf("Delay(%d, %v) = %d outside [%d, %d]", n, u, d, lo, hi)
		}
	})
}

func TestEqualJitterWithinItsBoundsFormula(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, cap := smallParams(t)
		n, u := anyAttempt().Draw(t, "n"), anyU().Draw(t, "u")
		p := EqualJitter{base, cap}
		lo, hi := p.Bounds(n)
		c := exactCeiling(base, cap, n).Int64()
		if int64(lo) != (c+1)/2 || int64(hi) != c { // t/2 rounded half up
			t.Fatalf("Bounds(%d) = [%d, %d], want [%d, %d]", n, lo, hi, (c+1)/2, c)
		}
		if d := p.Delay(n, u); d < lo || d > hi {
			t.Fatalf("Delay(%d, %v) = %d outside [%d, %d]", n, u, d, lo, hi)
		}
	})
}

func TestGRPCWithinItsBoundsFormula(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, mx := smallParams(t)
		m := rapid.OneOf(rapid.Just(1.0), rapid.Float64Range(MinGRPCMultiplier, MaxGRPCMultiplier)).Draw(t, "m")
		j := rapid.Float64Range(0, 1).Draw(t, "j")
		n, u := anyAttempt().Draw(t, "n"), anyU().Draw(t, "u")
		p := GRPCBackoff{base, m, j, mx}
		lo, hi := p.Bounds(n)
		// b = min(Base·M^(n−1), Max), the closed form; the function's loop
		// rounds once per step, so it may differ by a relative 10^-12.
		b := min(float64(base)*math.Pow(m, float64(max(n, 1)-1)), float64(mx))
		wantLo, wantHi := b*(1-j), b*(1+j)
		if n <= 1 {
			wantLo, wantHi = float64(base), float64(base)
		}
		near := func(got time.Duration, want float64) bool {
			return math.Abs(float64(got)-want) <= 1+1e-12*want
		}
		if !near(lo, wantLo) || !near(hi, wantHi) {
			t.Fatalf("Bounds(%d) = [%d, %d], want [%.1f, %.1f]", n, lo, hi, wantLo, wantHi)
		}
		if d := p.Delay(n, u); d < lo || d > hi {
			t.Fatalf("Delay(%d, %v) = %d outside [%d, %d]", n, u, d, lo, hi)
		}
	})
}

func TestDecorrelatedWithinItsBoundsFormula(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := time.Duration(rapid.Int64Range(1, 1<<50).Draw(t, "base"))
		cap := time.Duration(rapid.Int64Range(int64(base), 1<<52).Draw(t, "cap"))
		prev := time.Duration(rapid.Int64Range(-10, 1<<50).Draw(t, "previous"))
		n, u := anyAttempt().Draw(t, "n"), anyU().Draw(t, "u")
		p := DecorrelatedJitter{base, cap}
		lo, hi := p.Bounds(n, prev)
		eff := max(prev, base)
		if n <= 1 {
			eff = base
		}
		if lo != base || hi != min(cap, 3*eff) {
			t.Fatalf("Bounds(%d, %d) = [%d, %d], want [%d, %d]", n, prev, lo, hi, base, min(cap, 3*eff))
		}
		if d := p.Delay(n, prev, u); d < lo || d > hi {
			t.Fatalf("Delay(%d, %d, %v) = %d outside [%d, %d]", n, prev, u, d, lo, hi)
		}
	})
}

// TestRetryFamiliesAreTotal: any parameters, attempt and draw give a
// delay that is not negative, inside its bounds, non-decreasing in u,
// and no panic.
func TestRetryFamiliesAreTotal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := RetryPolicy{
			Family:     RetryFamily(rapid.IntRange(0, int(numFamilies)).Draw(t, "family")),
			Base:       anyParam().Draw(t, "base"),
			Cap:        anyParam().Draw(t, "cap"),
			Multiplier: rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), 1.6, 1, 1.001})).Draw(t, "m"),
			Jitter:     rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1), 0.2})).Draw(t, "j"),
		}
		n, prev := anyAttempt().Draw(t, "n"), anyParam().Draw(t, "previous")
		u1, u2 := anyU().Draw(t, "u1"), anyU().Draw(t, "u2")
		lo, hi := p.Bounds(n, prev)
		d1, d2 := p.Delay(n, prev, u1), p.Delay(n, prev, u2)
		if lo < 0 || d1 < lo || d1 > hi || d2 < lo || d2 > hi {
			t.Fatalf("%+v: delays %d, %d outside [%d, %d]", p, d1, d2, lo, hi)
		}
		c1, c2 := clampUnit(u1), clampUnit(u2)
		if p.Family != FamilyRTB1 && c1 < c2 && d1 > d2 {
			t.Fatalf("%+v: not non-decreasing in u: Delay(u=%v) = %d > Delay(u=%v) = %d", p, u1, d1, u2, d2)
		}
	})
}

// TestExponentialFamiliesGrowWithTheAttempt: full and equal jitter are
// non-decreasing in the attempt for a fixed draw.
func TestExponentialFamiliesGrowWithTheAttempt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, cap := anyParam().Draw(t, "base"), anyParam().Draw(t, "cap")
		n := rapid.IntRange(-2, 2000).Draw(t, "n")
		u := anyU().Draw(t, "u")
		for _, p := range []RetryPolicy{{Family: FamilyFullJitter, Base: base, Cap: cap}, {Family: FamilyEqualJitter, Base: base, Cap: cap}} {
			if a, b := p.Delay(n, 0, u), p.Delay(n+1, 0, u); a > b {
				t.Fatalf("%v: Delay(%d) = %d > Delay(%d) = %d", p.Family, n, a, n+1, b)
			}
		}
	})
}

func TestRetryPolicyIsTheFamilies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base, cap := anyParam().Draw(t, "base"), anyParam().Draw(t, "cap")
		m, j := rapid.Float64().Draw(t, "m"), rapid.Float64().Draw(t, "j")
		n, prev, u := anyAttempt().Draw(t, "n"), anyParam().Draw(t, "prev"), anyU().Draw(t, "u")
		for _, c := range []struct {
			p    RetryPolicy
			want time.Duration
		}{
			{RetryPolicy{Base: base}, RetryDelay(base, n, u)},
			{FullJitter{base, cap}.Policy(), FullJitter{base, cap}.Delay(n, u)},
			{EqualJitter{base, cap}.Policy(), EqualJitter{base, cap}.Delay(n, u)},
			{GRPCBackoff{base, m, j, cap}.Policy(), GRPCBackoff{base, m, j, cap}.Delay(n, u)},
			{DecorrelatedJitter{base, cap}.Policy(), DecorrelatedJitter{base, cap}.Delay(n, prev, u)},
		} {
			if got := c.p.Delay(n, prev, u); got != c.want {
				t.Fatalf("%v: RetryPolicy.Delay = %d, the family's Delay %d", c.p.Family, got, c.want)
			}
		}
	})
}

func TestRetryPolicyValidate(t *testing.T) {
	ok := []RetryPolicy{
		{},
		{Base: time.Second},
		FullJitter{time.Second, 30 * time.Second}.Policy(),
		EqualJitter{time.Second, time.Second}.Policy(),
		DefaultGRPCBackoff().Policy(),
		{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: 1},
		{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: MaxGRPCMultiplier, Jitter: 1},
		DecorrelatedJitter{time.Second, 30 * time.Second}.Policy(),
	}
	for _, p := range ok {
		if err := p.Validate(); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
	bad := []struct {
		p     RetryPolicy
		field string
	}{
		{RetryPolicy{Base: -1}, "RetryPolicy.Base"},
		{RetryPolicy{Cap: 1}, "RetryPolicy.Cap"},
		{RetryPolicy{Multiplier: 2}, "RetryPolicy.Multiplier"},
		{RetryPolicy{Jitter: 0.1}, "RetryPolicy.Jitter"},
		{RetryPolicy{Family: numFamilies}, "RetryPolicy.Family"},
		{RetryPolicy{Family: FamilyFullJitter, Cap: time.Second}, "RetryPolicy.Base"},
		{RetryPolicy{Family: FamilyEqualJitter, Base: 2, Cap: 1}, "RetryPolicy.Cap"},
		{RetryPolicy{Family: FamilyDecorrelatedJitter, Base: 1, Cap: 1, Jitter: 0.2}, "RetryPolicy.Jitter"},
		{RetryPolicy{Family: FamilyFullJitter, Base: 1, Cap: 1, Multiplier: 1.6}, "RetryPolicy.Multiplier"},
		{RetryPolicy{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: 1.001}, "RetryPolicy.Multiplier"},
		{RetryPolicy{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: 0}, "RetryPolicy.Multiplier"},
		{RetryPolicy{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: math.NaN()}, "RetryPolicy.Multiplier"},
		{RetryPolicy{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: 101}, "RetryPolicy.Multiplier"},
		{RetryPolicy{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: 1, Jitter: 1.5}, "RetryPolicy.Jitter"},
		{RetryPolicy{Family: FamilyGRPC, Base: 1, Cap: 1, Multiplier: 1, Jitter: math.NaN()}, "RetryPolicy.Jitter"},
	}
	for _, c := range bad {
		var fe *FieldError
		if err := c.p.Validate(); !errors.As(err, &fe) || fe.Field != c.field || fe.Value == "" || fe.Problem == "" {
			t.Errorf("%+v: %v, want a *FieldError naming %s", c.p, err, c.field)
		}
	}
	for _, c := range []struct {
		err   error
		field string
	}{
		{FullJitter{}.Validate(), "FullJitter.Base"},
		{EqualJitter{Base: 2, Cap: 1}.Validate(), "EqualJitter.Cap"},
		{GRPCBackoff{Base: 2, Max: 1, Multiplier: 1}.Validate(), "GRPCBackoff.Max"},
		{GRPCBackoff{Base: 1, Max: 1, Multiplier: 0.5}.Validate(), "GRPCBackoff.Multiplier"},
		{GRPCBackoff{Base: 1, Max: 1, Multiplier: 1, Jitter: -1}.Validate(), "GRPCBackoff.Jitter"},
		{DecorrelatedJitter{Base: -1}.Validate(), "DecorrelatedJitter.Base"},
	} {
		var fe *FieldError
		if !errors.As(c.err, &fe) || fe.Field != c.field {
			t.Errorf("%v, want a *FieldError naming %s", c.err, c.field)
		}
	}
	if err := DefaultGRPCBackoff().Validate(); err != nil {
		t.Error(err)
	}
}

func TestRetryFamilyNames(t *testing.T) {
	for f := RetryFamily(0); f < numFamilies; f++ {
		g, err := ParseRetryFamily(f.String())
		if err != nil || g != f {
			t.Errorf("ParseRetryFamily(%q) = %v, %v", f.String(), g, err)
		}
	}
	if _, err := ParseRetryFamily("RTB1"); err == nil {
		t.Error("names are case-sensitive")
	}
	if s := RetryFamily(200).String(); !strings.Contains(s, "200") {
		t.Error(s)
	}
}

// TestGRPCFirstRetryIsUnjittered pins gRPC's algorithm: the first retry
// waits INITIAL_BACKOFF exactly, the second 1.6 s ± 20 %.
func TestGRPCFirstRetryIsUnjittered(t *testing.T) {
	p := DefaultGRPCBackoff()
	if lo, hi := p.Bounds(1); lo != time.Second || hi != time.Second {
		t.Errorf("Bounds(1) = [%v, %v]", lo, hi)
	}
	if lo, hi := p.Bounds(2); lo != 1280*time.Millisecond || hi != 1920*time.Millisecond {
		t.Errorf("Bounds(2) = [%v, %v]", lo, hi)
	}
	if lo, hi := p.Bounds(1000); lo != 96*time.Second || hi != 144*time.Second {
		t.Errorf("Bounds(1000) = [%v, %v]: the jitter comes after the cap", lo, hi)
	}
	// The loop is bounded: the largest range at the least multiplier.
	slow := GRPCBackoff{Base: 1, Multiplier: MinGRPCMultiplier, Max: math.MaxInt64}
	if got := slow.Delay(math.MaxInt, 0.5); got != math.MaxInt64 {
		t.Errorf("slow growth to the largest Max: %d", got)
	}
}

func FuzzRetryPolicy(f *testing.F) {
	f.Add(uint8(1), int64(time.Second), int64(30*time.Second), 1.6, 0.2, 3, int64(0), 0.5)
	f.Add(uint8(3), int64(1), int64(math.MaxInt64), 1.01, 1.0, math.MaxInt, int64(-1), math.NaN())
	f.Add(uint8(4), int64(-5), int64(7), math.Inf(1), math.NaN(), -3, int64(math.MaxInt64), 2.0)
	f.Fuzz(func(t *testing.T, fam uint8, base, cap int64, m, j float64, n int, prev int64, u float64) {
		p := RetryPolicy{Family: RetryFamily(fam % (uint8(numFamilies) + 1)), Base: time.Duration(base), Cap: time.Duration(cap), Multiplier: m, Jitter: j}
		_ = p.Validate()
		lo, hi := p.Bounds(n, time.Duration(prev))
		d := p.Delay(n, time.Duration(prev), u)
		if lo < 0 || d < lo || d > hi {
			t.Fatalf("%+v n=%d prev=%d u=%v: %d outside [%d, %d]", p, n, prev, u, d, lo, hi)
		}
	})
}
