package reconnect

import (
	"iter"
	"math"
	"math/rand/v2"
	"time"
)

// maxCoefficient is the RTB1a cap on the backoff coefficient, reached at
// attempt 4.
const maxCoefficient = 2

// maxDurationFloat is 2⁶³ as a float64: the first float64 that no
// time.Duration can hold. Any product at or above it saturates.
const maxDurationFloat = float64(math.MaxInt64)

// BackoffCoefficient returns the RTB1a backoff coefficient for the attempt-th
// retry: min((attempt+2)/3, 2), that is 1, 4/3, 5/3, 2, 2, …
//
// Attempts are 1-indexed: the first retry is attempt 1. An attempt below 1
// (0 or negative) is treated as 1, so the coefficient is never below 1; in
// particular attempt 0 never yields 2/3. Every attempt from 4 up, including
// math.MaxInt, yields exactly 2.
//
// The results for attempts 1, 2 and 3 are the float64 values nearest to 1,
// 4/3 and 5/3, so BackoffCoefficient(2) == 4.0/3.0.
func BackoffCoefficient(attempt int) float64 {
	if attempt >= 4 {
		return maxCoefficient
	}
	return coefficients[max(attempt, 1)]
}

// coefficients holds min((n+2)/3, 2) for n = 1, 2, 3 at index n.
var coefficients = [4]float64{1: 1, 2: 4.0 / 3.0, 3: 5.0 / 3.0}

// RetryDelay returns the RTB1 retry delay for the attempt-th retry of a
// sequence whose initial retry timeout is initial, for the uniform draw u:
//
//	initial × BackoffCoefficient(attempt) × JitterCoefficient(u)
//
// The product is computed in float64 in exactly that order, each step rounded
// to float64, and the result is rounded to the nearest nanosecond (halves away
// from zero). The function is total:
//
//   - initial ≤ 0 gives 0;
//   - attempt < 1 is treated as 1 (see BackoffCoefficient);
//   - u is clamped into [0, 1], NaN counting as 0 (see JitterCoefficient);
//   - a product too large for a time.Duration saturates at
//     time.Duration(math.MaxInt64) instead of wrapping around.
//
// The result is never negative and always lies in RetryBounds(initial,
// attempt). It is non-decreasing in initial and in attempt and non-increasing
// in u.
func RetryDelay(initial time.Duration, attempt int, u float64) time.Duration {
	if initial <= 0 {
		return 0
	}
	return delay(float64(initial), attempt, clampUnit(u))
}

// delay is RTB1 for a positive (or zero) initial timeout already converted
// to float64 and a draw u already in [0, 1]: RetryDelay and Backoff.Next
// share it. The explicit float64 conversions forbid fusing a product and a
// sum into one instruction, so every platform rounds at the same steps.
func delay(initial float64, attempt int, u float64) time.Duration {
	return roundDuration(float64(initial*BackoffCoefficient(attempt)) * (1 - float64(jitterSpan*u)))
}

// roundDuration rounds a number of nanoseconds d ≥ 0.8 (the least a positive
// initial can give) to the nearest time.Duration, halves away from zero,
// saturating at the largest Duration.
//
// Below 2⁵² adding 0.5 is exact or rounds without crossing an integer, so
// truncating d + 0.5 rounds d; from 2⁵² on every float64 is an integer
// already. This is math.Round's result at a third of its cost.
func roundDuration(d float64) time.Duration {
	if d >= maxDurationFloat {
		return math.MaxInt64
	}
	if d < 0x1p52 {
		d += 0.5
	}
	return time.Duration(d)
}

// RetryBounds returns the closed interval [lower, upper] in which every
// RetryDelay(initial, attempt, u) lies, whatever u is.
//
// upper is the delay with the largest jitter coefficient (u = 0, coefficient
// 1), which is min((attempt+2)/3, 2) × initial; lower is the delay with the
// smallest (u = 1, coefficient 0.8), which is 0.8 × upper to within 1 ns for
// any initial up to a day, and to within 1 ns + 10⁻¹⁵ × upper beyond that,
// where float64 no longer resolves single nanoseconds. Both follow the same clamping
// and saturation rules as RetryDelay; initial ≤ 0 gives [0, 0].
func RetryBounds(initial time.Duration, attempt int) (lower, upper time.Duration) {
	return RetryDelay(initial, attempt, 1), RetryDelay(initial, attempt, 0)
}

// Backoff is the RTB1 retry counter of one retry sequence: one initial retry
// timeout, one source of uniform draws, and the number of retries taken since
// the last Reset. Each call to Next returns RetryDelay(initial, n, u) for the
// next attempt number n and a fresh draw u, then advances n.
//
// With a nil Source, a Backoff made by NewBackoff draws u from its own
// SplitMix64 stream, seeded once from math/rand/v2 when it is made: uniform
// enough for jitter (the spec asks for "approximately uniform, not
// cryptographic"), different in every Backoff and every process, and several
// times cheaper than a shared generator. The zero value Backoff (initial 0,
// so every delay is 0) draws from DefaultSource instead.
//
// Concurrency: a Backoff is not safe for concurrent use, like a *rand.Rand:
// it is the state of one retry sequence, owned by the goroutine that runs
// that connection's or channel's retries. Give each goroutine its own
// Backoff (they are small and cheap to make), or guard a shared one with a
// mutex. The package's functions (RetryDelay, RetryBounds,
// BackoffCoefficient, JitterCoefficient) and DefaultSource are safe for
// concurrent use.
//
// *Backoff satisfies the BackOff interface of github.com/cenkalti/backoff
// (NextBackOff() time.Duration; Reset()) without importing it. It never
// returns that interface's Stop value: an RTB1 sequence retries for ever, and
// stopping is the caller's decision.
type Backoff struct {
	initial time.Duration
	initF   float64 // max(initial, 0) as a float64, for delay
	src     Source
	taken   int    // retries handed out since the last Reset, ≤ math.MaxInt-1
	state   uint64 // SplitMix64 state for a nil src; 0 means DefaultSource
}

// NewBackoff returns a Backoff for the initial retry timeout initial that
// draws its jitter from src, or from its own seeded stream when src is nil
// (see Backoff and Source).
//
// A non-positive initial gives a Backoff whose delays are all 0, as
// RetryDelay does: it never waits. Used with github.com/cenkalti/backoff's
// Retry, that is a retry loop with no pause at all, so validate initial
// first (Timeouts.Validate rejects a non-positive DisconnectedRetry) or bound
// the retries (for example with cenkalti's WithMaxRetries or
// WithMaxTries).
func NewBackoff(initial time.Duration, src Source) *Backoff {
	b := &Backoff{initial: initial, initF: float64(max(initial, 0)), src: src}
	if src == nil {
		b.state = rand.Uint64() | 1
	}
	return b
}

// Next returns the delay before the next retry and advances the attempt
// number. The first call after NewBackoff or Reset uses attempt 1. The
// attempt number saturates at math.MaxInt, where the coefficient is 2 anyway.
func (b *Backoff) Next() time.Duration {
	if b.taken < math.MaxInt-1 {
		b.taken++
	}
	if b.src == nil && b.state != 0 {
		// The fast path: a SplitMix64 draw is in [0, 1) already.
		b.state += splitMix64Gamma
		return delay(b.initF, b.taken, splitMix64Unit(b.state))
	}
	return RetryDelay(b.initial, b.taken, draw(b.src))
}

// NextBackOff is Next under the name github.com/cenkalti/backoff's BackOff
// interface uses.
func (b *Backoff) NextBackOff() time.Duration { return b.Next() }

// Reset sets the attempt number back to 1: the next call to Next returns an
// attempt-1 delay again. Draws are not replayed: the jitter stream goes on.
func (b *Backoff) Reset() { b.taken = 0 }

// Attempt returns the attempt number the next call to Next will use: 1 after
// NewBackoff or Reset, then 2, 3, … It saturates at math.MaxInt.
func (b *Backoff) Attempt() int { return b.taken + 1 }

// Initial returns the initial retry timeout the Backoff was built with.
func (b *Backoff) Initial() time.Duration { return b.initial }

// splitMix64Gamma is the SplitMix64 increment: the odd integer nearest
// 2⁶⁴/φ. Adding it modulo 2⁶⁴ visits every state once per 2⁶⁴ draws, so the
// wrap-around is harmless.
const splitMix64Gamma = 0x9e3779b97f4a7c15

// splitMix64Unit is the SplitMix64 output function applied to state x,
// scaled to a float64 in [0, 1) with 53 random bits.
func splitMix64Unit(x uint64) float64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) * 0x1p-53
}

// Schedule returns the RTB1 retry schedule of initial as an iterator of
// (attempt, delay) pairs: attempt runs 1, 2, 3, … and delay is
// RetryDelay(initial, attempt, u) for a fresh draw u from src (nil means
// DefaultSource()). The sequence is unbounded in practice (it ends after
// attempt math.MaxInt), so the loop body decides when to stop:
//
//	for n, d := range reconnect.Schedule(15*time.Second, nil) {
//		if n > 5 {
//			break
//		}
//		fmt.Println(n, d)
//	}
//
// Each iteration draws once from src; a fresh range over the same Seq2
// starts again at attempt 1.
func Schedule(initial time.Duration, src Source) iter.Seq2[int, time.Duration] {
	return func(yield func(int, time.Duration) bool) {
		for n := 1; ; n++ {
			if !yield(n, RetryDelay(initial, n, draw(src))) || n == math.MaxInt {
				return
			}
		}
	}
}
