package engine

// The adaptive short circuit: a websocket reports its dial (TCP, and TLS)
// early with the time it took, and the short-circuit timer is brought
// forward to a multiple of that round trip.

import (
	"fmt"
	"math"
	"time"

	"github.com/reconnect-go/reconnect"
)

// AdaptiveShortCircuit brings the short-circuit timer forward once the
// first websocket of an attempt reports that its TCP (and TLS) connection
// is up (EventTransportDialed, with the time that took as Event.RTT), in
// the spirit of RFC 8305's connection attempt delay: HTTP then starts at
//
//	dial start + clamp(Multiple × RTT, Floor, Config.ShortCircuit)
//
// if that is earlier than the timer already armed (the dial start plus
// Config.ShortCircuit), and never before the report itself. A websocket
// whose handshake completes first changes nothing; without the report
// nothing changes. It applies only where the short-circuit timer runs:
// PolicyWebSocketFirst with HTTP available, outside the flapping guard's
// HTTP hold. PolicyWebSocketCheck (ably-js 2.28.0's behaviour) and
// PolicyHTTPFirst ignore the report.
//
// The zero value is off. Defaults sets DefaultAdaptiveShortCircuit;
// AblyConfig keeps it off, as Ably's SDKs have no such rule.
type AdaptiveShortCircuit struct {
	// Multiple is k, how many observed round trips the websocket's
	// handshake gets after the dial started: 0 turns the rule off;
	// otherwise at least 1 and at most 100 (a finite number). The
	// handshake needs about one more round trip after the dial, so 1 is
	// the least that can work; 3 leaves room for jitter.
	Multiple float64
	// Floor is the least head start the rule gives the websocket, from
	// the dial's start: at least 0. A Floor at or above
	// Config.ShortCircuit leaves the configured short circuit in force.
	Floor time.Duration
}

// The adaptive short circuit's defaults, as Defaults sets them: three
// observed round trips, at least 50 ms. The floor binds only when the
// dial took under 17 ms; there it is the server's allowance to answer the
// upgrade beyond the round trips. Half of RFC 8305's minimum recommended
// connection attempt delay (100 ms), which guards a second address on a
// path not yet measured, where this race is a second transport to the
// same server after a dial that has just measured the path fast
// (docs/short-circuit.md, the floor: tied with 100 ms on the default mix
// and every built-in profile; 50 ms faster behind a blackholing proxy
// next to the client; an HTTP transport thrown away when a server that
// near takes more than about 50 ms to answer).
const (
	DefaultAdaptiveMultiple = 3
	DefaultAdaptiveFloor    = 50 * time.Millisecond
)

// DefaultAdaptiveShortCircuit returns the rule Defaults turns on:
// Multiple DefaultAdaptiveMultiple and Floor DefaultAdaptiveFloor.
func DefaultAdaptiveShortCircuit() AdaptiveShortCircuit {
	return AdaptiveShortCircuit{Multiple: DefaultAdaptiveMultiple, Floor: DefaultAdaptiveFloor}
}

// On reports whether the rule is on (Multiple above 0).
func (a AdaptiveShortCircuit) On() bool { return a.Multiple > 0 }

// HeadStart returns the websocket's head start under the rule for a dial
// that took rtt, with ceiling the configured short circuit:
// clamp(Multiple × rtt, Floor, ceiling), the product computed in double
// precision on rtt's whole nanoseconds and rounded to the nearest
// nanosecond, halves away from zero (as every delay the engine computes
// is). A negative rtt counts as 0, so the Floor applies; a product beyond
// the ceiling (or overflowing) gives the ceiling, and so does a Floor
// above it.
func (a AdaptiveShortCircuit) HeadStart(rtt, ceiling time.Duration) time.Duration {
	rtt = max(rtt, 0)
	d := ceiling
	if p := a.Multiple * float64(rtt); p < float64(ceiling) {
		d = time.Duration(math.Round(p))
	}
	return min(max(d, a.Floor), ceiling)
}

// Validate reports an invalid field of a as a *reconnect.FieldError
// (named as Config.Adaptive's), or nil; Config.Validate calls it.
func (a AdaptiveShortCircuit) Validate() error {
	switch {
	case a.Multiple != 0 && !(a.Multiple >= 1 && a.Multiple <= 100):
		v := fmt.Sprint(a.Multiple)
		if math.IsNaN(a.Multiple) {
			v = "NaN"
		}
		return &reconnect.FieldError{Field: "Config.Adaptive.Multiple", Value: v, Problem: "must be 0 (off) or between 1 and 100: how many observed round trips the websocket's handshake gets"}
	case a.Floor < 0:
		return &reconnect.FieldError{Field: "Config.Adaptive.Floor", Value: a.Floor.String(), Problem: "must not be negative: the least head start, from the dial's start"}
	}
	return nil
}

// onDialed brings the short-circuit timer forward when the attempt's
// first websocket reports its dial (AdaptiveShortCircuit). Anything else
// is ignored: another transport, a websocket already viable, a second
// report, no short-circuit timer running, the rule off or another policy.
func (e *Engine) onDialed(out []Action, s *transportSlot, rtt time.Duration) []Action {
	if !e.adaptsShortCircuit() || e.state != Connecting || s.role != roleShortCircuit || s.status != slotOpening ||
		!e.hasTimer(TimerShortCircuit) || !e.scWaiting {
		return out
	}
	// The timer armed is due at the open + ShortCircuit: the first report
	// is the only one that moves it.
	head := e.cfg.Adaptive.HeadStart(rtt, e.cfg.ShortCircuit)
	due := e.scStart.Add(head)
	e.scWaiting = false
	if head >= e.cfg.ShortCircuit {
		return out
	}
	if due.Before(e.now) {
		due = e.now
	}
	return e.startTimer(out, TimerShortCircuit, due.Sub(e.now), 0)
}
