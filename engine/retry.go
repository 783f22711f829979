package engine

// The retry policy of the DISCONNECTED retries (Config.Retry) and what a
// drop does (Config.ImmediateReconnect): with both at their zero values
// the engine is RTB1 and RTN15a as specified. The families:
// docs/retry-policies.md; what each choice does to a server restart:
// docs/storms.md.

import (
	"fmt"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
)

// ImmediateReconnect says what an unexpected drop of the active transport
// (or network-down while connected) does: RTN15a's reconnect at once, or
// not, or at most once per Config.ImmediateReconnectInterval.
type ImmediateReconnect uint8

const (
	// ImmediateOn is RTN15a, the default: a drop goes DISCONNECTED and
	// reconnects at once, without consuming a retry number; a drop within
	// a second of the last immediate reconnect goes DISCONNECTED for a
	// retry delay instead (so a server that accepts and drops every
	// connection gets at most one reconnect a second from each client).
	ImmediateOn ImmediateReconnect = iota
	// ImmediateOff never reconnects at once: a drop goes DISCONNECTED for
	// the retry delay of the next retry number, as a failed attempt does.
	ImmediateOff
	// ImmediateLimited is ImmediateOn with Config.ImmediateReconnectInterval
	// in place of the second: a drop reconnects at once only when no
	// immediate reconnect happened in the interval before it (measured
	// from the last immediate reconnect, whatever happened since);
	// otherwise it goes DISCONNECTED for the retry delay of the next retry
	// number.
	ImmediateLimited
	numImmediate
)

var immediateNames = [numImmediate]string{"on", "off", "limited"}

// String returns "on", "off" or "limited", the names the fixtures use.
func (m ImmediateReconnect) String() string {
	return enumName(immediateNames[:], int(m), "ImmediateReconnect")
}

// The bounds of Config.ImmediateReconnectInterval under ImmediateLimited:
// below the spec's second it would not limit anything the default does
// not; beyond an hour it is ImmediateOff in all but name.
const (
	MinImmediateReconnectInterval = time.Second
	MaxImmediateReconnectInterval = time.Hour
)

// immediateReconnectGap is the least time between two immediate
// reconnects under ImmediateOn.
const immediateReconnectGap = time.Second

// validateRetry checks Config.Retry, ImmediateReconnect and
// ImmediateReconnectInterval.
func (c Config) validateRetry() error {
	if err := c.Retry.Validate(); err != nil {
		fe := *err.(*reconnect.FieldError)
		fe.Field = "Config.Retry." + strings.TrimPrefix(fe.Field, "RetryPolicy.")
		return &fe
	}
	r := c.Retry
	switch {
	case r.Family == reconnect.FamilyRTB1 && r.Base != 0:
		return &reconnect.FieldError{Field: "Config.Retry.Base", Value: r.Base.String(), Problem: "must be 0 for RTB1: its initial delay is Timeouts.DisconnectedRetry"}
	case r.Family != reconnect.FamilyRTB1 && c.RetrySpread != 0:
		return &reconnect.FieldError{Field: "Config.RetrySpread", Value: fmt.Sprint(c.RetrySpread), Problem: "must be 0 with Config.Retry's family " + r.Family.String() + ": RetrySpread widens RTB1's jitter only"}
	case c.ImmediateReconnect >= numImmediate:
		return &reconnect.FieldError{Field: "Config.ImmediateReconnect", Value: c.ImmediateReconnect.String(), Problem: "must be ImmediateOn, ImmediateOff or ImmediateLimited"}
	case c.ImmediateReconnect == ImmediateLimited && (c.ImmediateReconnectInterval < MinImmediateReconnectInterval || c.ImmediateReconnectInterval > MaxImmediateReconnectInterval):
		return &reconnect.FieldError{Field: "Config.ImmediateReconnectInterval", Value: c.ImmediateReconnectInterval.String(), Problem: "must be from MinImmediateReconnectInterval, 1s, to MaxImmediateReconnectInterval, 1h0m0s, under ImmediateLimited"}
	case c.ImmediateReconnect != ImmediateLimited && c.ImmediateReconnectInterval != 0:
		return &reconnect.FieldError{Field: "Config.ImmediateReconnectInterval", Value: c.ImmediateReconnectInterval.String(), Problem: "must be 0 unless Config.ImmediateReconnect is ImmediateLimited"}
	case c.ImmediateReconnect == ImmediateOff && c.ReconnectWindow != 0:
		return &reconnect.FieldError{Field: "Config.ReconnectWindow", Value: c.ReconnectWindow.String(), Problem: "must be 0 under ImmediateOff: it spreads the immediate reconnect, which is off"}
	}
	return nil
}

// reconnectsAtOnce reports whether a drop now reconnects at once
// (Config.ImmediateReconnect), rather than going DISCONNECTED for a retry
// delay.
func (e *Engine) reconnectsAtOnce() bool {
	gap := immediateReconnectGap
	switch e.cfg.ImmediateReconnect {
	case ImmediateOff:
		return false
	case ImmediateLimited:
		gap = e.cfg.ImmediateReconnectInterval
	}
	return !e.hadReconnect || e.now.Sub(e.lastReconnect) >= gap
}

// retryDelay is the wait before DISCONNECTED retry n, drawing once: RTB1
// (with Config.RetrySpread), or Config.Retry's family, which
// decorrelated jitter reads the previous delay of.
func (e *Engine) retryDelay(n int) time.Duration {
	switch {
	case e.cfg.Retry.Family != reconnect.FamilyRTB1:
		e.lastRetryIn = e.cfg.Retry.Delay(n, e.lastRetryIn, e.src.Float64())
		return e.lastRetryIn
	case e.cfg.RetrySpread == 0:
		return reconnect.RetryDelay(e.cfg.Timeouts.DisconnectedRetry, n, e.src.Float64())
	}
	return reconnect.SpreadRetryDelay(e.cfg.Timeouts.DisconnectedRetry, n, e.cfg.RetrySpread, e.src.Float64())
}
