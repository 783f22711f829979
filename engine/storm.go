package engine

// Storm safety: the opt-in Config options that keep a fleet of clients
// from reconnecting in step after a server restart. With all three at
// zero the engine is RTB1 and RTN15a/RTN14e as specified. The proposal and
// its data: docs/storm-safe-reconnect.md.

import (
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
)

// MaxReconnectWindow bounds Config.ReconnectWindow.
const MaxReconnectWindow = time.Minute

// validateStorm checks the storm-safe fields of c.
func (c Config) validateStorm() error {
	switch {
	case c.ReconnectWindow < 0 || c.ReconnectWindow > MaxReconnectWindow:
		return &reconnect.FieldError{Field: "Config.ReconnectWindow", Value: c.ReconnectWindow.String(), Problem: "must be between 0 (off) and MaxReconnectWindow, 1m0s"}
	case c.ReconnectWindow >= c.Timeouts.ConnectionStateTTL:
		return &reconnect.FieldError{Field: "Config.ReconnectWindow", Value: c.ReconnectWindow.String(), Problem: "must be shorter than Timeouts.ConnectionStateTTL, " + c.Timeouts.ConnectionStateTTL.String()}
	case !(c.ImmediateShare >= 0 && c.ImmediateShare < 1):
		return &reconnect.FieldError{Field: "Config.ImmediateShare", Value: fmt.Sprint(c.ImmediateShare), Problem: "must be at least 0 and below 1: the share of drops that reconnect at once"}
	case !(c.RetrySpread >= 0 && c.RetrySpread <= 1):
		return &reconnect.FieldError{Field: "Config.RetrySpread", Value: fmt.Sprint(c.RetrySpread), Problem: "must be between 0 (RTB1's jitter) and 1 (full jitter)"}
	case !(c.SuspendedSpread >= 0 && c.SuspendedSpread <= 1):
		return &reconnect.FieldError{Field: "Config.SuspendedSpread", Value: fmt.Sprint(c.SuspendedSpread), Problem: "must be between 0 (a flat interval) and 1 (full jitter)"}
	}
	return nil
}

// windowedReconnect is the immediate reconnect after a drop (or
// network-down) under Config.ReconnectWindow: DISCONNECTED, for reason,
// for WindowWait, then the reconnect
// (still ReasonReconnect, still no retry number); at once when the wait
// is 0.
func (e *Engine) windowedReconnect(out []Action, reason Reason, f reconnect.Failure) []Action {
	wait := reconnect.WindowWait(e.cfg.ReconnectWindow, e.cfg.ImmediateShare, e.src.Float64())
	if wait == 0 {
		out = e.setState(out, Disconnected, reason, 0, f)
		return e.startAttempt(out, ReasonReconnect)
	}
	e.reconnectDue = true
	out = e.setState(out, Disconnected, reason, wait, f)
	return e.startTimer(out, TimerRetry, wait, 0)
}

// suspendedDelay is the wait before a SUSPENDED retry: flat (RTN14e), or
// spread under Config.SuspendedSpread, drawing once.
func (e *Engine) suspendedDelay() time.Duration {
	if e.cfg.SuspendedSpread == 0 {
		return e.cfg.Timeouts.SuspendedRetry
	}
	return reconnect.SpreadDelay(e.cfg.Timeouts.SuspendedRetry, e.cfg.SuspendedSpread, e.src.Float64())
}
