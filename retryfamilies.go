package reconnect

import (
	"fmt"
	"time"
)

// The retry-delay families other protocols ship, beside RTB1: capped
// exponential backoff with full and with equal jitter (AWS, "Exponential
// Backoff and Jitter"), gRPC's connection backoff (grpc/grpc
// doc/connection-backoff.md) and decorrelated jitter (AWS). Each is a
// parameter type with Validate, a pure Delay of the attempt and a uniform
// draw u, and Bounds, the closed interval every Delay lies in. The
// arithmetic decisions, shared with RTB1 and with the fixtures
// (fixtures/retry.json):
//
//   - attempts are 1-indexed: the first retry is attempt 1, and an attempt
//     below 1 is treated as 1;
//   - u is clamped into [0, 1], NaN counting as 0;
//   - a negative duration parameter is treated as 0, so a delay is never
//     negative; Validate rejects it;
//   - arithmetic is float64 on nanoseconds in the order each Delay states,
//     each operation rounded to float64 (never fused), and the result is
//     rounded to the nearest nanosecond, halves away from zero, saturating
//     at the largest time.Duration.

// maxDoublings bounds the exponent of Base × 2^(n−1): from 2^1100 on every
// float64 product with a positive Base is +Inf, which min(Cap, …) turns
// into Cap, so larger attempts need no larger exponent.
const maxDoublings = 1100

// exponentialCeiling is min(Cap, Base × 2^(n−1)) in nanoseconds as a
// float64: Base and Cap converted to float64 after negatives are treated as
// 0, and the power of two applied exactly (a scaling by 2^k rounds only on
// overflow, to +Inf).
func exponentialCeiling(base, cap time.Duration, attempt int) float64 {
	k := min(uint(max(attempt, 1)-1), maxDoublings)
	b := float64(max(base, 0))
	c := float64(max(cap, 0))
	e := b
	if b > 0 {
		e = b * pow2(k)
	}
	return min(c, e)
}

// pow2 returns 2^k for 0 ≤ k ≤ 1100 (+Inf from 1024 on), exactly.
func pow2(k uint) float64 {
	r := 1.0
	for k >= 64 {
		r *= 0x1p64
		k -= 64
	}
	return r * float64(uint64(1)<<k)
}

// validateBaseCap is the check every family shares: a positive base and a
// cap at least the base. prefix names the type ("FullJitter.") and capName
// its cap field.
func validateBaseCap(prefix string, base time.Duration, capName string, cap time.Duration) error {
	switch {
	case base <= 0:
		return &FieldError{Field: prefix + "Base", Value: base.String(), Problem: "must be positive: the first retry's delay (or ceiling)"}
	case cap < base:
		return &FieldError{Field: prefix + capName, Value: cap.String(), Problem: "must be at least Base, " + base.String()}
	}
	return nil
}

// FullJitter is capped exponential backoff with full jitter (AWS): the
// attempt-n delay is drawn uniformly from [0, min(Cap, Base × 2^(n−1))].
// Its zero value gives delays of 0; Validate rejects it.
type FullJitter struct {
	// Base is the ceiling of the first retry, in nanoseconds; it doubles
	// with every attempt. Must be positive.
	Base time.Duration
	// Cap is the largest ceiling, a hard cap on every delay. Must be at
	// least Base.
	Cap time.Duration
}

// Validate reports a non-positive Base or a Cap below Base as a
// *FieldError naming "FullJitter.Base" or "FullJitter.Cap", or returns nil.
func (p FullJitter) Validate() error { return validateBaseCap("FullJitter.", p.Base, "Cap", p.Cap) }

// Delay returns the attempt-th retry delay for the uniform draw u:
//
//	t × u, where t = min(Cap, Base × 2^(attempt−1))
//
// in float64 nanoseconds, rounded to the nearest nanosecond (see the
// decisions above). u = 0 gives 0 and u = 1 gives t. It is non-decreasing
// in attempt and in u, and lies in Bounds(attempt).
func (p FullJitter) Delay(attempt int, u float64) time.Duration {
	return roundDuration(float64(exponentialCeiling(p.Base, p.Cap, attempt) * clampUnit(u)))
}

// Bounds returns the closed interval [0, t] of Delay(attempt, u) over every
// u, with t = min(Cap, Base × 2^(attempt−1)) rounded to the nearest
// nanosecond: Delay(attempt, 0) and Delay(attempt, 1).
func (p FullJitter) Bounds(attempt int) (lower, upper time.Duration) {
	return p.Delay(attempt, 0), p.Delay(attempt, 1)
}

// EqualJitter is capped exponential backoff with equal jitter (AWS): half
// of min(Cap, Base × 2^(n−1)) fixed and the other half drawn uniformly.
// Its zero value gives delays of 0; Validate rejects it.
type EqualJitter struct {
	// Base is the ceiling of the first retry; it doubles with every
	// attempt. Must be positive.
	Base time.Duration
	// Cap is the largest ceiling, a hard cap on every delay. Must be at
	// least Base.
	Cap time.Duration
}

// Validate reports a non-positive Base or a Cap below Base as a
// *FieldError naming "EqualJitter.Base" or "EqualJitter.Cap", or returns
// nil.
func (p EqualJitter) Validate() error { return validateBaseCap("EqualJitter.", p.Base, "Cap", p.Cap) }

// Delay returns the attempt-th retry delay for the uniform draw u:
//
//	h + h × u, where h = t × 0.5 and t = min(Cap, Base × 2^(attempt−1))
//
// in float64 nanoseconds (h × 0.5 is exact; h × u is rounded before the
// sum), rounded to the nearest nanosecond. u = 0 gives t/2 and u = 1 gives
// t. It is non-decreasing in attempt and in u, and lies in Bounds(attempt).
func (p EqualJitter) Delay(attempt int, u float64) time.Duration {
	h := exponentialCeiling(p.Base, p.Cap, attempt) * 0.5
	return roundDuration(h + float64(h*clampUnit(u)))
}

// Bounds returns the closed interval [t/2, t] of Delay(attempt, u) over
// every u: Delay(attempt, 0) and Delay(attempt, 1).
func (p EqualJitter) Bounds(attempt int) (lower, upper time.Duration) {
	return p.Delay(attempt, 0), p.Delay(attempt, 1)
}

// GRPCBackoff is gRPC's connection backoff (grpc/grpc
// doc/connection-backoff.md): the first retry waits Base, unjittered; each
// later one multiplies the backoff by Multiplier up to Max and jitters it
// by ±Jitter. DefaultGRPCBackoff returns the document's parameters. The
// document's MIN_CONNECT_TIMEOUT (how long an attempt may take) is not a
// delay and is not part of this type: it is the engine's connect timeout.
//
// The jitter is applied after the cap, as gRPC does: a delay may reach
// Max × (1 + Jitter).
type GRPCBackoff struct {
	// Base is INITIAL_BACKOFF, the first retry's delay. Must be positive.
	Base time.Duration
	// Multiplier is MULTIPLIER, by which the backoff grows per attempt:
	// 1 (a constant backoff), or from MinGRPCMultiplier to
	// MaxGRPCMultiplier.
	Multiplier float64
	// Jitter is JITTER, the relative spread: from 0 (none) to 1.
	Jitter float64
	// Max is MAX_BACKOFF, the cap on the backoff before the jitter. Must
	// be at least Base.
	Max time.Duration
}

// The range of GRPCBackoff.Multiplier besides 1. Above 1, the lower bound
// keeps the backoff's growth to at most about 4,400 steps from any Base to
// any Max (a multiplier just above 1 would need up to 2^52 steps); the
// upper bound is far beyond any protocol's.
const (
	MinGRPCMultiplier = 1.01
	MaxGRPCMultiplier = 100
)

// DefaultGRPCBackoff returns the parameters of grpc/grpc's
// doc/connection-backoff.md: INITIAL_BACKOFF 1 s, MULTIPLIER 1.6, JITTER
// 0.2, MAX_BACKOFF 120 s.
func DefaultGRPCBackoff() GRPCBackoff {
	return GRPCBackoff{Base: time.Second, Multiplier: 1.6, Jitter: 0.2, Max: 120 * time.Second}
}

// Validate reports the first invalid field as a *FieldError naming
// "GRPCBackoff.Base", "GRPCBackoff.Max", "GRPCBackoff.Multiplier" or
// "GRPCBackoff.Jitter", or returns nil.
func (p GRPCBackoff) Validate() error {
	if err := validateBaseCap("GRPCBackoff.", p.Base, "Max", p.Max); err != nil {
		return err
	}
	return validateGRPC("GRPCBackoff.", p.Multiplier, p.Jitter)
}

func validateGRPC(prefix string, m, j float64) error {
	if !(m == 1 || m >= MinGRPCMultiplier && m <= MaxGRPCMultiplier) {
		return &FieldError{Field: prefix + "Multiplier", Value: fmt.Sprint(m), Problem: fmt.Sprintf("must be 1 (a constant backoff) or from %v to %v (gRPC's is 1.6)", MinGRPCMultiplier, MaxGRPCMultiplier)}
	}
	if !(j >= 0 && j <= 1) {
		return &FieldError{Field: prefix + "Jitter", Value: fmt.Sprint(j), Problem: "must be from 0 (no jitter) to 1 (gRPC's is 0.2)"}
	}
	return nil
}

// clampMultiplier is the multiplier Delay uses: NaN or below 1 as 1, above
// 1 but below MinGRPCMultiplier as MinGRPCMultiplier, above
// MaxGRPCMultiplier (+Inf included) as MaxGRPCMultiplier.
func clampMultiplier(m float64) float64 {
	switch {
	case !(m > 1):
		return 1
	case m < MinGRPCMultiplier:
		return MinGRPCMultiplier
	case m > MaxGRPCMultiplier:
		return MaxGRPCMultiplier
	}
	return m
}

// backoff returns the attempt-th backoff before its jitter, in float64
// nanoseconds: b₁ = min(Base, Max), then b_k = min(b_(k−1) × Multiplier,
// Max) with each product rounded to float64, as gRPC's loop computes it
// (the loop stops once b reaches Max or stops growing, where it stays).
func (p GRPCBackoff) backoff(attempt int) float64 {
	mx := float64(max(p.Max, 0))
	b := min(float64(max(p.Base, 0)), mx)
	m := clampMultiplier(p.Multiplier)
	for k := max(attempt, 1); k > 1 && b < mx; k-- {
		next := min(float64(b*m), mx)
		if next == b {
			break
		}
		b = next
	}
	return b
}

// Delay returns the attempt-th retry delay for the uniform draw u. The
// first retry (attempt ≤ 1) is b₁ = min(Base, Max), unjittered, as in
// gRPC's algorithm; a later one is
//
//	b × (1 + Jitter × (2u − 1))
//
// with b the attempt's backoff (b_k = min(b_(k−1) × Multiplier, Max)) and
// each operation rounded to float64 in that order (2u − 1, the product
// with Jitter, the sum with 1, the product with b), rounded to the nearest
// nanosecond. Jitter is clamped into [0, 1] (NaN as 0) and Multiplier as
// Validate's range says (NaN or below 1 as 1). u = 0 gives b × (1 −
// Jitter) and u = 1 gives b × (1 + Jitter). It is non-decreasing in u and
// lies in Bounds(attempt).
func (p GRPCBackoff) Delay(attempt int, u float64) time.Duration {
	b := p.backoff(attempt)
	if attempt <= 1 {
		return roundDuration(b)
	}
	v := float64(2*clampUnit(u)) - 1
	f := 1 + float64(clampUnit(p.Jitter)*v)
	return roundDuration(float64(b * f))
}

// Bounds returns the closed interval of Delay(attempt, u) over every u:
// [b₁, b₁] for the first retry, else Delay(attempt, 0) and Delay(attempt,
// 1), that is b × (1 ∓ Jitter) rounded.
func (p GRPCBackoff) Bounds(attempt int) (lower, upper time.Duration) {
	return p.Delay(attempt, 0), p.Delay(attempt, 1)
}

// DecorrelatedJitter is AWS's decorrelated jitter: each delay is drawn
// uniformly from [Base, 3 × the previous delay], capped at Cap. Unlike the
// other families it depends on the previous delay, the one piece of state
// a caller keeps (the engine keeps it beside its retry count, and forgets
// it when the count resets). Its zero value gives delays of 0; Validate
// rejects it.
type DecorrelatedJitter struct {
	// Base is the least delay, and the "previous delay" of the first
	// retry. Must be positive.
	Base time.Duration
	// Cap is a hard cap on every delay. Must be at least Base.
	Cap time.Duration
}

// Validate reports a non-positive Base or a Cap below Base as a
// *FieldError naming "DecorrelatedJitter.Base" or "DecorrelatedJitter.Cap",
// or returns nil.
func (p DecorrelatedJitter) Validate() error {
	return validateBaseCap("DecorrelatedJitter.", p.Base, "Cap", p.Cap)
}

// Delay returns the attempt-th retry delay after the delay previous, for
// the uniform draw u:
//
//	min(Cap, Base + (3 × prev − Base) × u)
//
// where prev is previous clamped to at least Base, and prev is Base for
// the first retry (attempt ≤ 1) whatever previous says; each operation is
// rounded to float64 in that order (3 × prev, the difference, the product
// with u, the sum), then the result to the nearest nanosecond. u = 0 gives
// min(Cap, Base) and u = 1 gives min(Cap, 3 × prev). Attempt matters only
// as first or not: the sequence's growth lives in previous. It is
// non-decreasing in previous and in u, and lies in Bounds(attempt,
// previous).
func (p DecorrelatedJitter) Delay(attempt int, previous time.Duration, u float64) time.Duration {
	base := float64(max(p.Base, 0))
	prev := base
	if attempt > 1 {
		prev = max(float64(previous), base)
	}
	hi := float64(3 * prev)
	s := base + float64(float64(hi-base)*clampUnit(u))
	return roundDuration(min(float64(max(p.Cap, 0)), s))
}

// Bounds returns the closed interval of Delay(attempt, previous, u) over
// every u: [min(Cap, Base), min(Cap, 3 × prev)], rounded, with prev as
// Delay defines it.
func (p DecorrelatedJitter) Bounds(attempt int, previous time.Duration) (lower, upper time.Duration) {
	return p.Delay(attempt, previous, 0), p.Delay(attempt, previous, 1)
}
