package reconnect

import (
	"fmt"
	"time"
)

// RetryFamily names a family of retry delays: RTB1 (the default) or one of
// the families other protocols ship.
type RetryFamily uint8

const (
	// FamilyRTB1 is RTB1: RetryDelay with Base as the initial retry
	// timeout. The zero value.
	FamilyRTB1 RetryFamily = iota
	// FamilyFullJitter is FullJitter: uniform in [0, min(Cap, Base ×
	// 2^(n−1))].
	FamilyFullJitter
	// FamilyEqualJitter is EqualJitter: the upper half of the same
	// interval.
	FamilyEqualJitter
	// FamilyGRPC is GRPCBackoff: Base, then × Multiplier up to Cap (gRPC's
	// MAX_BACKOFF), ± Jitter.
	FamilyGRPC
	// FamilyDecorrelatedJitter is DecorrelatedJitter: uniform in [Base,
	// 3 × the previous delay], capped at Cap.
	FamilyDecorrelatedJitter
	numFamilies
)

var familyNames = [numFamilies]string{"rtb1", "full-jitter", "equal-jitter", "grpc", "decorrelated-jitter"}

// String returns the family's name as the fixtures and the command line
// spell it: "rtb1", "full-jitter", "equal-jitter", "grpc" or
// "decorrelated-jitter"; an unknown family is "RetryFamily(N)".
func (f RetryFamily) String() string {
	if f < numFamilies {
		return familyNames[f]
	}
	return fmt.Sprintf("RetryFamily(%d)", uint8(f))
}

// ParseRetryFamily returns the family String names, or a *FieldError
// naming "RetryPolicy.Family" for any other text.
func ParseRetryFamily(s string) (RetryFamily, error) {
	for i, n := range familyNames {
		if n == s {
			return RetryFamily(i), nil
		}
	}
	return 0, &FieldError{Field: "RetryPolicy.Family", Value: fmt.Sprintf("%q", s), Problem: "must be one of rtb1, full-jitter, equal-jitter, grpc, decorrelated-jitter"}
}

// RetryPolicy is one retry-delay family with its parameters, as one
// comparable value: what engine.Config.Retry holds. The zero value is RTB1
// with a Base of 0, which the engine reads as RTB1 from
// Timeouts.DisconnectedRetry (the default, unchanged). Build one from a
// family's parameters with its Policy method, or set the fields:
//
//	FamilyRTB1                Base (RetryDelay's initial)
//	FamilyFullJitter          Base, Cap
//	FamilyEqualJitter         Base, Cap
//	FamilyGRPC                Base, Multiplier, Jitter, Cap (MAX_BACKOFF)
//	FamilyDecorrelatedJitter  Base, Cap
//
// A field the family does not use must be 0 (Validate says so).
type RetryPolicy struct {
	Family     RetryFamily
	Base       time.Duration // the first retry's delay, or its ceiling
	Cap        time.Duration // the cap (gRPC: MAX_BACKOFF, before the jitter)
	Multiplier float64       // FamilyGRPC only
	Jitter     float64       // FamilyGRPC only
}

// Policy returns p as a RetryPolicy of FamilyFullJitter.
func (p FullJitter) Policy() RetryPolicy {
	return RetryPolicy{Family: FamilyFullJitter, Base: p.Base, Cap: p.Cap}
}

// Policy returns p as a RetryPolicy of FamilyEqualJitter.
func (p EqualJitter) Policy() RetryPolicy {
	return RetryPolicy{Family: FamilyEqualJitter, Base: p.Base, Cap: p.Cap}
}

// Policy returns p as a RetryPolicy of FamilyGRPC, with Max as its Cap.
func (p GRPCBackoff) Policy() RetryPolicy {
	return RetryPolicy{Family: FamilyGRPC, Base: p.Base, Cap: p.Max, Multiplier: p.Multiplier, Jitter: p.Jitter}
}

// Policy returns p as a RetryPolicy of FamilyDecorrelatedJitter.
func (p DecorrelatedJitter) Policy() RetryPolicy {
	return RetryPolicy{Family: FamilyDecorrelatedJitter, Base: p.Base, Cap: p.Cap}
}

// Validate reports the first invalid field of p as a *FieldError naming
// "RetryPolicy.<field>", or returns nil: an unknown Family; a negative
// Base for RTB1; the family's own rules otherwise (a positive Base, a Cap
// at least Base, gRPC's Multiplier and Jitter ranges); and any field the
// family does not use set to other than 0.
func (p RetryPolicy) Validate() error {
	const pre = "RetryPolicy."
	unused := func(field string, set bool, v any) error {
		if set {
			return &FieldError{Field: pre + field, Value: fmt.Sprint(v), Problem: "must be 0: family " + p.Family.String() + " does not use it"}
		}
		return nil
	}
	switch p.Family {
	case FamilyRTB1:
		if p.Base < 0 {
			return &FieldError{Field: pre + "Base", Value: p.Base.String(), Problem: "must not be negative: RTB1's initial retry timeout"}
		}
		if err := unused("Cap", p.Cap != 0, p.Cap); err != nil {
			return err
		}
	case FamilyFullJitter, FamilyEqualJitter, FamilyDecorrelatedJitter, FamilyGRPC:
		if err := validateBaseCap(pre, p.Base, "Cap", p.Cap); err != nil {
			return err
		}
		if p.Family == FamilyGRPC {
			return validateGRPC(pre, p.Multiplier, p.Jitter)
		}
	default:
		return &FieldError{Field: pre + "Family", Value: p.Family.String(), Problem: "must be one of FamilyRTB1, FamilyFullJitter, FamilyEqualJitter, FamilyGRPC, FamilyDecorrelatedJitter"}
	}
	if err := unused("Multiplier", p.Multiplier != 0, p.Multiplier); err != nil {
		return err
	}
	return unused("Jitter", p.Jitter != 0, p.Jitter)
}

// Delay returns the attempt-th retry delay of p's family for the uniform
// draw u; previous is the delay before it, read only by
// FamilyDecorrelatedJitter (pass 0 when there is none). Each family's
// Delay documents its formula; FamilyRTB1 is RetryDelay(Base, attempt, u).
// An unknown family gives 0. Like the families' own, it is total: never
// negative, never a panic.
func (p RetryPolicy) Delay(attempt int, previous time.Duration, u float64) time.Duration {
	switch p.Family {
	case FamilyRTB1:
		return RetryDelay(p.Base, attempt, u)
	case FamilyFullJitter:
		return FullJitter{p.Base, p.Cap}.Delay(attempt, u)
	case FamilyEqualJitter:
		return EqualJitter{p.Base, p.Cap}.Delay(attempt, u)
	case FamilyGRPC:
		return GRPCBackoff{p.Base, p.Multiplier, p.Jitter, p.Cap}.Delay(attempt, u)
	case FamilyDecorrelatedJitter:
		return DecorrelatedJitter{p.Base, p.Cap}.Delay(attempt, previous, u)
	}
	return 0
}

// Bounds returns the closed interval in which Delay(attempt, previous, u)
// lies for every u: Delay at u = 1 and u = 0 for RTB1 (whose jitter
// shortens), at u = 0 and u = 1 for the others.
func (p RetryPolicy) Bounds(attempt int, previous time.Duration) (lower, upper time.Duration) {
	if p.Family == FamilyRTB1 {
		return RetryBounds(p.Base, attempt)
	}
	return p.Delay(attempt, previous, 0), p.Delay(attempt, previous, 1)
}
