package reconnect

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Generators shared by the RTB1 properties.

// anyInitial draws any time.Duration, biased towards realistic timeouts and
// the overflow edges.
func anyInitial() *rapid.Generator[time.Duration] {
	return rapid.OneOf(
		rapid.Map(rapid.Int64Range(0, int64(time.Hour)), func(v int64) time.Duration { return time.Duration(v) }),
		rapid.Map(rapid.Int64(), func(v int64) time.Duration { return time.Duration(v) }),
		rapid.SampledFrom([]time.Duration{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 / 2, math.MaxInt64/2 + 1, 15 * time.Second}),
	)
}

// anyAttempt draws any int, biased towards the interesting small ones.
func anyAttempt() *rapid.Generator[int] {
	return rapid.OneOf(rapid.IntRange(-3, 10), rapid.Int(), rapid.SampledFrom([]int{math.MinInt, math.MaxInt, 0, 1, 4}))
}

// anyU draws any float64 including NaN, infinities and subnormals, biased
// towards the unit interval.
func anyU() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.Float64Range(0, 1),
		rapid.Float64(),
		rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0x1p-1074, -0x1p-1074, 1 - 0x1p-53, 1 + 0x1p-52, math.Copysign(0, -1)}),
	)
}

func TestPropertyDelayLiesWithinRetryBounds(t *testing.T) {
	rapid.Check(t, propDelayWithinBounds)
}

func propDelayWithinBounds(t *rapid.T) {
	initial, n, u := anyInitial().Draw(t, "initial"), anyAttempt().Draw(t, "attempt"), anyU().Draw(t, "u")
	d := RetryDelay(initial, n, u)
	lo, hi := RetryBounds(initial, n)
	if d < 0 || lo < 0 || lo > hi || d < lo || d > hi {
		t.Fatalf("RetryDelay(%v, %d, %v) = %v, bounds [%v, %v]", initial, n, u, d, lo, hi)
	}
}

func TestPropertyLowerIsFourFifthsOfUpperWithinOneNanosecond(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial := time.Duration(rapid.Int64Range(math.MinInt64, int64(24*time.Hour)).Draw(t, "initial"))
		n := anyAttempt().Draw(t, "attempt")
		lo, hi := RetryBounds(initial, n)
		if diff := math.Abs(float64(lo) - 0.8*float64(hi)); diff > 1 {
			t.Fatalf("RetryBounds(%v, %d) = [%d, %d]: lower is %.3f ns from 0.8 × upper", initial, n, lo, hi, diff)
		}
	})
}

func TestPropertyLowerIsFourFifthsOfUpperWithinOneNanosecondPlusRelativeEpsilonForAnyInitial(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial := anyInitial().Draw(t, "initial")
		n := anyAttempt().Draw(t, "attempt")
		lo, hi := RetryBounds(initial, n)
		if hi == math.MaxInt64 {
			return // saturated: the cap, not the formula, decides
		}
		// Exact integer arithmetic: 5·lo versus 4·hi, in 128 bits.
		gap := new(big.Int).Sub(new(big.Int).Mul(big.NewInt(5), big.NewInt(int64(lo))), new(big.Int).Mul(big.NewInt(4), big.NewInt(int64(hi))))
		gapNs, _ := new(big.Rat).SetFrac(gap.Abs(gap), big.NewInt(5)).Float64()
		if gapNs > 1+1e-15*float64(hi) {
			t.Fatalf("RetryBounds(%v, %d) = [%d, %d]: lower is %g ns from 0.8 × upper", initial, n, lo, hi, gapNs)
		}
	})
}

func TestPropertyRoundingIsMathRoundForEveryReachableProduct(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.OneOf(
			rapid.Float64Range(0.8, 1e6),
			rapid.Float64Range(0.8, maxDurationFloat),
			rapid.Float64Range(0x1p51, 0x1p53),
			rapid.Map(rapid.Int64Range(1, 1<<53), func(k int64) float64 { return float64(k) + 0.5 }),
			rapid.Map(rapid.Int64Range(1, 1<<53), func(k int64) float64 { return math.Nextafter(float64(k)+0.5, 0) }),
		).Draw(t, "d")
		want := time.Duration(math.Round(d))
		if d >= maxDurationFloat {
			want = math.MaxInt64
		}
		if got := roundDuration(d); got != want {
			t.Fatalf("roundDuration(%v) = %d, math.Round gives %d", d, got, want)
		}
	})
}

func TestPropertyCoefficientIsNonDecreasingInAttempt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := anyAttempt().Draw(t, "a"), anyAttempt().Draw(t, "b")
		if a > b {
			a, b = b, a
		}
		if ca, cb := BackoffCoefficient(a), BackoffCoefficient(b); ca > cb {
			t.Fatalf("BackoffCoefficient(%d) = %v > BackoffCoefficient(%d) = %v", a, ca, b, cb)
		}
	})
}

// The first three coefficients are checked on their own, and the rest by a
// separate property: a rapid check started after a failure panics and
// hides the failures before it.
func TestCoefficientIsExactlyOneFourThirdsFiveThirds(t *testing.T) {
	for n, want := range map[int]float64{1: 1, 2: 4.0 / 3.0, 3: 5.0 / 3.0} {
		if got := BackoffCoefficient(n); got != want {
			t.Errorf("BackoffCoefficient(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestPropertyCoefficientIsTwoFromTheFourthRetryOn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.OneOf(rapid.IntRange(4, 1000), rapid.IntRange(4, math.MaxInt)).Draw(t, "n")
		if got := BackoffCoefficient(n); got != 2 {
			t.Fatalf("BackoffCoefficient(%d) = %v, want 2", n, got)
		}
	})
}

func TestPropertyAttemptBelowOneActsAsAttemptOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(math.MinInt, 1).Draw(t, "n")
		initial, u := anyInitial().Draw(t, "initial"), anyU().Draw(t, "u")
		if BackoffCoefficient(n) != 1 || RetryDelay(initial, n, u) != RetryDelay(initial, 1, u) {
			t.Fatalf("attempt %d does not behave as attempt 1", n)
		}
	})
}

func TestPropertyJitterLiesInClosedEightTenthsToOneAndIsNonIncreasingInU(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u, v := anyU().Draw(t, "u"), anyU().Draw(t, "v")
		ju := JitterCoefficient(u)
		if !(ju >= 0.8 && ju <= 1) {
			t.Fatalf("JitterCoefficient(%v) = %v, outside [0.8, 1]", u, ju)
		}
		cu, cv := clampUnit(u), clampUnit(v)
		if cu <= cv && JitterCoefficient(v) > ju {
			t.Fatalf("JitterCoefficient(%v) = %v < JitterCoefficient(%v) = %v", u, ju, v, JitterCoefficient(v))
		}
	})
}

func TestPropertyDelayIsMonotoneInUAttemptAndInitial(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial, n, u := anyInitial().Draw(t, "initial"), anyAttempt().Draw(t, "attempt"), rapid.Float64Range(0, 1).Draw(t, "u")
		d := RetryDelay(initial, n, u)
		u2 := rapid.Float64Range(u, 1).Draw(t, "u2")
		if d2 := RetryDelay(initial, n, u2); d2 > d {
			t.Fatalf("u %v → %v but larger u %v → larger %v", u, d, u2, d2)
		}
		n2 := rapid.IntRange(n, math.MaxInt).Draw(t, "n2")
		if d2 := RetryDelay(initial, n2, u); d2 < d {
			t.Fatalf("attempt %d → %v but later attempt %d → smaller %v", n, d, n2, d2)
		}
		i2 := time.Duration(rapid.Int64Range(int64(initial), math.MaxInt64).Draw(t, "initial2"))
		if d2 := RetryDelay(i2, n, u); d2 < d {
			t.Fatalf("initial %v → %v but larger initial %v → smaller %v", initial, d, i2, d2)
		}
	})
}

func TestPropertyDelayIsNeverNegativeAndSaturatesInsteadOfWrapping(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial, n, u := anyInitial().Draw(t, "initial"), anyAttempt().Draw(t, "attempt"), anyU().Draw(t, "u")
		d := RetryDelay(initial, n, u)
		if d < 0 {
			t.Fatalf("RetryDelay(%v, %d, %v) = %v < 0", initial, n, u, d)
		}
		if initial <= 0 && d != 0 {
			t.Fatalf("RetryDelay(%v, …) = %v, want 0 for a non-positive initial", initial, d)
		}
		if initial > 0 && float64(d) < 0.8*float64(initial)*(1-1e-15)-1 {
			t.Fatalf("RetryDelay(%v, %d, %v) = %v is below 0.8 × initial", initial, n, u, d)
		}
	})
}

func TestPropertyBackoffNextYieldsRetryDelayOfSameDrawsAndResetRestartsAtOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial := anyInitial().Draw(t, "initial")
		seed := rapid.Uint64().Draw(t, "seed")
		steps := rapid.SliceOfN(rapid.Bool(), 1, 40).Draw(t, "resetBeforeStep")
		b := NewBackoff(initial, rand.New(rand.NewPCG(seed, 1)))
		model := rand.New(rand.NewPCG(seed, 1)) // same draws, consumed by the model
		k := 1
		for i, reset := range steps {
			if reset {
				b.Reset()
				k = 1
			}
			if b.Attempt() != k {
				t.Fatalf("step %d: Attempt() = %d, want %d", i, b.Attempt(), k)
			}
			want := RetryDelay(initial, k, model.Float64())
			if got := b.Next(); got != want {
				t.Fatalf("step %d: Next() = %v, want RetryDelay(%v, %d, u) = %v", i, got, initial, k, want)
			}
			k++
		}
	})
}

func TestBackoffAttemptSaturatesAtMaxInt(t *testing.T) {
	b := NewBackoff(time.Second, constSource(0))
	b.taken = math.MaxInt - 3
	for range 4 {
		if d := b.Next(); d != 2*time.Second {
			t.Fatalf("Next() = %v near MaxInt, want 2s", d)
		}
	}
	if b.Attempt() != math.MaxInt {
		t.Fatalf("Attempt() = %d, want MaxInt", b.Attempt())
	}
	b.Reset()
	if b.Attempt() != 1 || b.Next() != time.Second {
		t.Fatalf("Reset after saturation: Attempt() = %d", b.Attempt())
	}
}

func TestBackoffZeroValueIsUsable(t *testing.T) {
	var b Backoff
	if d := b.Next(); d != 0 || b.Attempt() != 2 {
		t.Fatalf("zero Backoff: Next() = %v, Attempt() = %d", d, b.Attempt())
	}
}

func TestPropertyBackoffDefaultStreamDelaysLieWithinBoundsAndReset(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial := anyInitial().Draw(t, "initial")
		b := NewBackoff(initial, nil)
		k := 1
		for i, reset := range rapid.SliceOfN(rapid.Bool(), 1, 30).Draw(t, "resetBeforeStep") {
			if reset {
				b.Reset()
				k = 1
			}
			d := b.Next()
			if lo, hi := RetryBounds(initial, k); d < lo || d > hi {
				t.Fatalf("step %d (attempt %d): %v outside [%v, %v]", i, k, d, lo, hi)
			}
			k++
		}
	})
}

// The default stream must pass the same statistical check as DefaultSource.
func TestBackoffDefaultStreamJitterDistribution(t *testing.T) {
	b := NewBackoff(time.Second, nil)
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for range 1000 {
		b.Reset()
		j := float64(b.Next()) / float64(time.Second)
		lo, hi, sum = min(lo, j), max(hi, j), sum+j
	}
	if mean := sum / 1000; mean < 0.85 || mean > 0.95 || hi-lo <= 0.05 || lo < 0.8 || hi > 1 {
		t.Fatalf("mean %v, range [%v, %v]", mean, lo, hi)
	}
}

func TestScheduleYieldsOneToNAndStopsWhenAsked(t *testing.T) {
	src := rand.New(rand.NewPCG(7, 7))
	model := rand.New(rand.NewPCG(7, 7))
	want := 1
	for n, d := range Schedule(15*time.Second, src) {
		if n != want || d != RetryDelay(15*time.Second, n, model.Float64()) {
			t.Fatalf("pair %d: got (%d, %v)", want, n, d)
		}
		if n == 10 {
			break
		}
		want++
	}
	if want != 10 {
		t.Fatalf("loop stopped at %d", want)
	}
}

// The statistical check the cross-SDK unit test spec asks of the jitter:
// 1000 draws from the default distribution, here from a fixed seed.
func TestDefaultJitterDistributionWithFixedSeed(t *testing.T) {
	src := rand.New(rand.NewPCG(2022, 6))
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for range 1000 {
		j := JitterCoefficient(src.Float64())
		if j < 0.8 || j > 1 {
			t.Fatalf("jitter %v outside [0.8, 1]", j)
		}
		lo, hi, sum = min(lo, j), max(hi, j), sum+j
	}
	if mean := sum / 1000; mean < 0.85 || mean > 0.95 {
		t.Errorf("mean %v outside [0.85, 0.95]", mean)
	}
	if hi-lo <= 0.05 {
		t.Errorf("spread %v ≤ 0.05", hi-lo)
	}
}

func TestDefaultSourceDrawsInUnitInterval(t *testing.T) {
	s := DefaultSource()
	for range 1000 {
		if u := s.Float64(); u < 0 || u >= 1 {
			t.Fatalf("default draw %v outside [0, 1)", u)
		}
	}
}

// constSource always draws the same u.
type constSource float64

func (c constSource) Float64() float64 { return float64(c) }

// Fuzz targets: the four RTB1 functions take outside input.

func FuzzRetryDelay(f *testing.F) {
	f.Add(int64(15*time.Second), 1, 0.5)
	f.Add(int64(math.MaxInt64), math.MaxInt, math.Inf(1))
	f.Add(int64(-1), math.MinInt, math.NaN())
	f.Fuzz(func(t *testing.T, initial int64, n int, u float64) {
		d := RetryDelay(time.Duration(initial), n, u)
		lo, hi := RetryBounds(time.Duration(initial), n)
		if d < 0 || d < lo || d > hi {
			t.Fatalf("RetryDelay(%d, %d, %v) = %v outside [%v, %v]", initial, n, u, d, lo, hi)
		}
	})
}

func FuzzRetryBounds(f *testing.F) {
	f.Add(int64(15*time.Second), 4)
	f.Fuzz(func(t *testing.T, initial int64, n int) {
		lo, hi := RetryBounds(time.Duration(initial), n)
		if lo < 0 || lo > hi || (initial > 0 && hi < time.Duration(initial)) {
			t.Fatalf("RetryBounds(%d, %d) = [%v, %v]", initial, n, lo, hi)
		}
	})
}

func FuzzBackoffCoefficient(f *testing.F) {
	f.Add(0)
	f.Fuzz(func(t *testing.T, n int) {
		if c := BackoffCoefficient(n); !(c >= 1 && c <= 2) {
			t.Fatalf("BackoffCoefficient(%d) = %v", n, c)
		}
	})
}

func FuzzJitterCoefficient(f *testing.F) {
	f.Add(0.5)
	f.Fuzz(func(t *testing.T, u float64) {
		if j := JitterCoefficient(u); !(j >= 0.8 && j <= 1) {
			t.Fatalf("JitterCoefficient(%v) = %v", u, j)
		}
	})
}

// FuzzDelayWithinBoundsProperty reuses the rapid property as a fuzz target.
func FuzzDelayWithinBoundsProperty(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propDelayWithinBounds))
}
