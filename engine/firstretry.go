package engine

// The first-retry rule (Config.FirstRetry): after a drop whose immediate
// reconnect failed, the retries of the next disconnectedRetryTimeout are
// early ones, the first after a draw uniform over [0, FirstRetry), each
// later one after FirstRetry exactly, instead of RTB1's 12–15 s; then RTB1
// from retry 1. The first draw spreads a fleet dropped together over one
// period and the constant period keeps it spread, so a server back after
// a restart sees the fleet over FirstRetry, not all at once, and none
// waits disconnectedRetryTimeout for it. Off at 0 (RTB1 as specified); the
// study that chose it: docs/storms.md, "A sooner first retry".

import (
	"time"

	"github.com/reconnect-go/reconnect"
)

// DefaultFirstRetry is Defaults()'s Config.FirstRetry: the period the
// restart study chose (docs/storms.md), ahead of socket.io and
// centrifuge-js in time to 99 % back for no higher accept peak.
const DefaultFirstRetry = 3500 * time.Millisecond

// earlyRetries is the first-retry rule's state across attempts: live from
// an immediate reconnect after a drop (or network-down) until CONNECTED,
// SUSPENDED, a fresh connect, or disconnectedRetryTimeout after it.
type earlyRetries struct {
	on   bool
	from time.Time // the immediate reconnect
	n    int       // early retries scheduled so far
}

// validateFirstRetry checks Config.FirstRetry.
func (c Config) validateFirstRetry() error {
	if c.FirstRetry < 0 || c.FirstRetry > c.Timeouts.DisconnectedRetry {
		return &reconnect.FieldError{Field: "Config.FirstRetry", Value: c.FirstRetry.String(),
			Problem: "must be between 0 (off: RTB1 as specified) and Timeouts.DisconnectedRetry, " + c.Timeouts.DisconnectedRetry.String()}
	}
	return nil
}

// startEarlyRetries arms the rule at an immediate reconnect. The rule
// shortens RTB1's first retries: with another retry family
// (Config.Retry) that family's own delays govern from the first retry,
// and the rule stays off.
func (e *Engine) startEarlyRetries() {
	e.early = earlyRetries{on: e.cfg.FirstRetry > 0 && e.cfg.Retry.Family == reconnect.FamilyRTB1, from: e.now}
}

// earlyRetry returns the wait before the next DISCONNECTED retry under
// the first-retry rule, drawing once for the first (none for the later
// ones), and false when the rule does not apply: off, no immediate
// reconnect to follow, or disconnectedRetryTimeout passed since it (which
// ends the rule until the next one).
func (e *Engine) earlyRetry() (time.Duration, bool) {
	if !e.early.on {
		return 0, false
	}
	if e.now.Sub(e.early.from) >= e.cfg.Timeouts.DisconnectedRetry {
		e.early = earlyRetries{}
		return 0, false
	}
	e.early.n++
	if e.early.n > 1 {
		return e.cfg.FirstRetry, true
	}
	// FirstRetry × u, rounded to the nanosecond, u clamped to [0, 1]: the
	// reconnect window's arithmetic with no immediate share.
	return reconnect.WindowWait(e.cfg.FirstRetry, 0, e.src.Float64()), true
}
