package reconnect

import "math/rand/v2"

// jitterSpan is the width of the RTB1b jitter interval [0.8, 1].
const jitterSpan = 0.2

// JitterCoefficient returns the RTB1b jitter coefficient for the uniform draw
// u ∈ [0, 1]: 1 − 0.2·u, which lies in [0.8, 1]. u = 0 gives 1 (no
// shortening) and u = 1 gives 0.8, so a draw from [0, 1), such as
// rand.Float64's, gives (0.8, 1] as the reference JavaScript SDK does.
//
// The coefficient never exceeds 1: jitter only ever shortens a delay, so
// 2 × initial is a hard cap on every RTB1 delay.
//
// u is clamped into [0, 1] first: below 0 (including −Inf) counts as 0,
// above 1 (including +Inf) as 1, and NaN as 0. The result is non-increasing
// in u. 0.2·u is rounded to float64 before the subtraction on every platform.
func JitterCoefficient(u float64) float64 {
	return 1 - float64(jitterSpan*clampUnit(u)) // the same steps as rtb1
}

// clampUnit clamps u into [0, 1], mapping NaN to 0.
func clampUnit(u float64) float64 {
	switch {
	case !(u > 0): // negative, zero, −Inf or NaN
		return 0
	case u > 1: // a plain comparison: the builtin min pays for NaN and −0 handling
		return 1
	}
	return u
}

// Source is a source of uniform draws in [0, 1]: anything with a Float64
// method, so a *rand.Rand from math/rand/v2 fits directly, as does a test
// double that returns pinned values. Draws outside [0, 1] (or NaN) are
// clamped as JitterCoefficient says, never trusted.
//
// The package reads a Source only where a function or type says so, and only
// through Float64. A Source used from several goroutines at once (for
// example one Config.Source shared by engines stepped on different
// goroutines) must be safe for concurrent use; DefaultSource is, a
// *rand.Rand is not.
//
// A nil Source means the default, which is one of two unseeded streams,
// both uniform and different in every process: a Backoff draws from its
// own stream, seeded on its first Next; everything else that takes a
// Source (Schedule, AppendHostOrder, Config.Source) draws from
// DefaultSource. Pass a seeded *rand.Rand to reproduce a sequence.
type Source interface {
	Float64() float64
}

// DefaultSource returns the package's default Source: math/rand/v2's
// top-level Float64, which is safe for concurrent use, needs no seeding and
// is seeded differently in every process. It is what a nil Source means,
// except in a Backoff (see Source). Use a seeded *rand.Rand instead to
// reproduce a sequence.
func DefaultSource() Source { return defaultSource{} }

type defaultSource struct{}

func (defaultSource) Float64() float64 { return rand.Float64() }

// draw returns one uniform draw from src, or from the default Source when
// src is nil.
func draw(src Source) float64 {
	if src == nil {
		return rand.Float64()
	}
	return src.Float64()
}
