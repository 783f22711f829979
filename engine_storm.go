package reconnect

// Storm safety: the opt-in Config options that keep a fleet of clients
// from reconnecting in step after a server restart. With all three at
// zero the engine is RTB1 and RTN15a/RTN14e as specified. The proposal and
// its data: docs/storm-safe-reconnect.md.

import (
	"fmt"
	"time"
)

// MaxReconnectWindow bounds Config.ReconnectWindow.
const MaxReconnectWindow = time.Minute

// validateStorm checks the storm-safe fields of c.
func (c Config) validateStorm() error {
	switch {
	case c.ReconnectWindow < 0 || c.ReconnectWindow > MaxReconnectWindow:
		return &FieldError{Field: "Config.ReconnectWindow", Value: c.ReconnectWindow.String(), Problem: "must be between 0 and 1m"}
	case c.ReconnectWindow >= c.Timeouts.ConnectionStateTTL:
		return &FieldError{Field: "Config.ReconnectWindow", Value: c.ReconnectWindow.String(), Problem: "must be shorter than Timeouts.ConnectionStateTTL"}
	case !(c.ImmediateShare >= 0 && c.ImmediateShare < 1):
		return &FieldError{Field: "Config.ImmediateShare", Value: fmt.Sprint(c.ImmediateShare), Problem: "must be at least 0 and below 1"}
	case !(c.RetrySpread >= 0 && c.RetrySpread <= 1):
		return &FieldError{Field: "Config.RetrySpread", Value: fmt.Sprint(c.RetrySpread), Problem: "must be between 0 and 1"}
	case !(c.SuspendedSpread >= 0 && c.SuspendedSpread <= 1):
		return &FieldError{Field: "Config.SuspendedSpread", Value: fmt.Sprint(c.SuspendedSpread), Problem: "must be between 0 and 1"}
	}
	return nil
}

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
	return roundDuration(float64(float64(initial)*BackoffCoefficient(attempt)) * (1 - float64(clampUnit(spread)*clampUnit(u))))
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

// windowedReconnect is the immediate reconnect after a drop under
// Config.ReconnectWindow: DISCONNECTED for WindowWait, then the reconnect
// (still ReasonReconnect, still no retry number); at once when the wait
// is 0.
func (e *Engine) windowedReconnect(out []Action, f Failure) []Action {
	wait := WindowWait(e.cfg.ReconnectWindow, e.cfg.ImmediateShare, draw(e.src))
	if wait == 0 {
		out = e.setState(out, Disconnected, ReasonDropped, 0, f)
		return e.startAttempt(out, ReasonReconnect)
	}
	e.reconnectDue = true
	out = e.setState(out, Disconnected, ReasonDropped, wait, f)
	return e.startTimer(out, TimerRetry, wait, 0)
}

// retryDelay is the wait before DISCONNECTED retry n, drawing once.
func (e *Engine) retryDelay(n int) time.Duration {
	if e.cfg.RetrySpread == 0 {
		return RetryDelay(e.cfg.Timeouts.DisconnectedRetry, n, draw(e.src))
	}
	return SpreadRetryDelay(e.cfg.Timeouts.DisconnectedRetry, n, e.cfg.RetrySpread, draw(e.src))
}

// suspendedDelay is the wait before a SUSPENDED retry: flat (RTN14e), or
// spread under Config.SuspendedSpread, drawing once.
func (e *Engine) suspendedDelay() time.Duration {
	if e.cfg.SuspendedSpread == 0 {
		return e.cfg.Timeouts.SuspendedRetry
	}
	return SpreadDelay(e.cfg.Timeouts.SuspendedRetry, e.cfg.SuspendedSpread, draw(e.src))
}
