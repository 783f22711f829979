package reconnect

import "time"

// Storm-safe spreads: the pure formulas behind the engine's opt-in
// storm-safe options (engine.Config.ReconnectWindow, ImmediateShare,
// RetrySpread and SuspendedSpread). With a spread of 0.2 SpreadRetryDelay
// is RetryDelay. The study: docs/storm-safe-reconnect.md.

// SpreadRetryDelay is the DISCONNECTED retry delay with a jitter of width
// spread instead of RTB1b's 0.2:
//
//	initial × BackoffCoefficient(attempt) × (1 − spread × u)
//
// rounded to the nearest nanosecond, with u and spread clamped into
// [0, 1] (NaN counting as 0) and a non-positive initial giving 0. With
// spread 0.2 it equals RetryDelay.
func SpreadRetryDelay(initial time.Duration, attempt int, spread, u float64) time.Duration {
	if initial <= 0 {
		return 0
	}
	return roundDuration(rtb1(float64(initial), clampUnit(spread)*clampUnit(u), BackoffCoefficient(attempt)))
}

// SpreadDelay is d × (1 − spread × u), rounded to the nearest nanosecond,
// with u and spread clamped into [0, 1] (NaN counting as 0): the SUSPENDED
// retry delay under Config.SuspendedSpread. A non-positive d gives 0.
func SpreadDelay(d time.Duration, spread, u float64) time.Duration {
	if d <= 0 {
		return 0
	}
	return roundDuration(float64(d) * (1 - float64(clampUnit(spread)*clampUnit(u))))
}

// WindowWait is the wait before the reconnect after a drop under
// Config.ReconnectWindow w and ImmediateShare share for the draw u: 0 when
// u < share, else w × (u − share) / (1 − share), rounded to the nearest
// nanosecond; u and share are clamped into [0, 1] (NaN counting as 0) and
// a share of 1 or more waits 0.
func WindowWait(w time.Duration, share, u float64) time.Duration {
	u, share = clampUnit(u), clampUnit(share)
	if w <= 0 || u < share || share >= 1 {
		return 0
	}
	return roundDuration(float64(w) * float64((u-share)/(1-share)))
}
