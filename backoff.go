package reconnect

import (
	"iter"
	"math"
	"math/bits"
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
	return coefficients[min(uint(max(attempt, 1)-1), 3)]
}

// coefficients holds min((n+2)/3, 2) for n = 1, 2, 3, 4 at index n-1.
var coefficients = [4]float64{1, 4.0 / 3.0, 5.0 / 3.0, maxCoefficient}

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
	return roundDuration(rtb1(float64(initial), jitterSpan*clampUnit(u), BackoffCoefficient(attempt)))
}

// rtb1 is the RTB1 product, the one place it is written:
//
//	initial × c × (1 − su)
//
// where su is the jitter's width times the draw (jitterSpan·u for RTB1b,
// spread·u for SpreadRetryDelay) and c the backoff coefficient
// (BackoffCoefficient, or the same table indexed by the retries a Backoff
// has taken), computed in float64 in that order, each step rounded to
// float64. su comes before c so that a caller computes the draw before
// the coefficient: RetryDelay, inlined into a loop that derives the
// attempt and the draw from one index, then clamps the attempt in that
// index's register instead of a copy (a jump and a move less, 6 % of its
// instructions). RetryDelay (so RetryBounds and Schedule), both paths of
// Backoff.Next and SpreadRetryDelay all compute it here. The explicit
// float64 conversions forbid fusing a product and a sum into one
// instruction (here or, once inlined, with the caller's rounding + 0.5),
// so every platform rounds at the same steps.
func rtb1(initial, su, c float64) float64 {
	return float64(float64(initial*c) * (1 - float64(su)))
}

// roundDuration rounds a number of nanoseconds d ≥ 0.8 (the least a positive
// initial can give) to the nearest time.Duration, halves away from zero,
// saturating at the largest Duration.
//
// Below 2⁵² adding 0.5 is exact or rounds without crossing an integer, so
// truncating d + 0.5 rounds d; from 2⁵² on every float64 is an integer
// already. This is math.Round's result at a third of its cost. The
// conversion float64(d) keeps a caller's product, once inlined, from being
// fused with the + 0.5.
func roundDuration(d float64) time.Duration {
	if d < 0x1p52 { // the common case first: one comparison
		return time.Duration(float64(d) + 0.5)
	}
	if d >= maxDurationFloat {
		return math.MaxInt64
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
// With a nil Source, a Backoff draws u from its own stream, seeded on the
// first call to Next: uniform enough for jitter (the spec asks for
// "approximately uniform, not cryptographic"), different in every Backoff
// and every process, so no caller can depend on its values. The zero value
// is a Backoff with initial 0 (every delay is 0) and a nil Source.
//
// NewBackoff allocates nothing: a Backoff that does not outlive its
// function stays on the stack, and one kept in a connection's struct lives
// there.
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
	// How it is fast (docs/benchmarks.md, "How Backoff.Next got faster"):
	// the own stream is wyrand on the Backoff's state (one multiplication,
	// no interface call, no shared generator); NewBackoff only sets the two
	// fields, so it inlines and the Backoff can stay on the caller's stack;
	// the seed, initial's conversion to float64 and the choice of Next's
	// fast path are done once, by setUp on the first call to Next.
	initial time.Duration
	src     Source
	taken   int     // retries handed out since the last Reset, ≤ math.MaxInt-1
	state   uint64  // the wyrand state, for a nil src
	initF   float64 // max(initial, 0) as a float64, set by the first Next
	mode    uint8   // modeUnset until the first Next, then modeFast or modeGeneral
}

// The modes of a Backoff. modeFast: a nil Source and an initial small enough
// (below 2⁵¹ ns, about 26 days) that every product lies below 2⁵², where
// adding 0.5 and truncating rounds exactly and nothing saturates.
const (
	modeUnset uint8 = iota
	modeFast
	modeGeneral
)

// jitterUnit turns the 53 random bits k of a wyrand draw, u = k × 2⁻⁵³,
// straight into the rounded product 0.2·u: scaling by a power of two is
// exact, so float64(k) × jitterUnit rounds to the same float64 as
// jitterSpan × u, in one multiplication instead of two.
const jitterUnit = jitterSpan * 0x1p-53

// NewBackoff returns a Backoff for the initial retry timeout initial that
// draws its jitter from src, or from its own seeded stream when src is nil
// (see Backoff and Source). It allocates nothing of its own.
//
// A non-positive initial gives a Backoff whose delays are all 0, as
// RetryDelay does: it never waits. Used with github.com/cenkalti/backoff's
// Retry, that is a retry loop with no pause at all, so validate initial
// first (Timeouts.Validate rejects a non-positive DisconnectedRetry) or bound
// the retries (for example with cenkalti's WithMaxRetries or
// WithMaxTries).
func NewBackoff(initial time.Duration, src Source) *Backoff {
	// Only the two fields, nothing drawn or converted here: it inlines
	// into its caller (see Backoff's fields).
	return &Backoff{initial: initial, src: src}
}

// Next returns the delay before the next retry and advances the attempt
// number. The first call after NewBackoff or Reset uses attempt 1. The
// attempt number saturates at math.MaxInt, where the coefficient is 2 anyway.
func (b *Backoff) Next() time.Duration {
	i := b.taken // the attempt number is i+1
	if i < math.MaxInt-1 {
		b.taken = i + 1
	}
	if b.mode != modeFast {
		return b.nextGeneral(i)
	}
	// The fast path: the product stays below 2⁵², so adding 0.5 and
	// truncating is roundDuration; k × jitterUnit is jitterSpan × u. The
	// table index is clamped before the draw: the other way round costs a
	// move (a copy of b kept for the late load).
	j := min(uint(i), 3)
	b.state += wyrandIncrement
	return time.Duration(rtb1(b.initF, float64(int64(wyrandBits(b.state)))*jitterUnit, coefficients[j]) + 0.5)
}

// nextGeneral is Next for a Source, for an initial too large for the fast
// path, and for the first call, which sets the Backoff up. i+1 is the
// attempt number.
func (b *Backoff) nextGeneral(i int) time.Duration {
	if b.mode == modeUnset {
		b.setUp()
	}
	var u float64
	if b.src == nil {
		b.state += wyrandIncrement
		u = float64(int64(wyrandBits(b.state))) * 0x1p-53
	} else {
		u = clampUnit(b.src.Float64())
	}
	return roundDuration(rtb1(b.initF, jitterSpan*u, coefficients[min(uint(i), 3)]))
}

// setUp converts initial, seeds the stream of a nil Source and chooses the
// mode.
func (b *Backoff) setUp() {
	b.initF = float64(max(b.initial, 0))
	b.mode = modeGeneral
	if b.src == nil {
		b.state = rand.Uint64()
		if 2*b.initF < 0x1p52 {
			b.mode = modeFast
		}
	}
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

// wyrandIncrement and wyrandMix are the constants of wyrand, the generator
// of Wang Yi's wyhash (the one Go's runtime used for its fastrand from Go
// 1.17 to 1.21): the state advances by wyrandIncrement, an odd number, so it
// visits every value once per 2⁶⁴ draws; each output is the xor of the two
// halves of the 128-bit product state × (state ^ wyrandMix). It passes
// BigCrush and PractRand, and costs one multiplication.
const (
	wyrandIncrement = 0xa0761d6478bd642f
	wyrandMix       = 0xe7037ed1a0b428db
)

// wyrandBits is wyrand's output for state x, keeping its top 53 bits: the
// draw is u = wyrandBits(x) × 2⁻⁵³, in [0, 1).
func wyrandBits(x uint64) uint64 {
	hi, lo := bits.Mul64(x, x^wyrandMix)
	return (hi ^ lo) >> 11
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
