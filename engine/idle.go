package engine

// Liveness (RTN23a): the idle timer of the active transport, the activity
// the SDK reports, and what the timer does when it fires.

import (
	"math"
	"time"

	"github.com/reconnect-go/reconnect"
)

// idleLimit is how long the active transport may go without activity:
// maxIdleInterval + Timeouts.IdleSlack (RTN23a), saturating, when the
// server announced a maxIdleInterval; else Config.IdleLimit, the
// client-side limit (the server's value wins, as RTN21 makes its
// connectionDetails override the options). 0: no limit, no idle timer.
func (e *Engine) idleLimit() time.Duration {
	if e.srv.maxIdle <= 0 {
		return e.cfg.IdleLimit
	}
	d := e.srv.maxIdle + e.cfg.Timeouts.IdleSlack
	if d < e.srv.maxIdle {
		return math.MaxInt64
	}
	return d
}

// armIdle starts the idle timer from now for the active transport's
// idle limit, or cancels a running one when there is none.
func (e *Engine) armIdle(out []Action) []Action {
	if e.idleLimit() <= 0 {
		return e.cancelKind(out, TimerIdle)
	}
	return e.startTimer(out, TimerIdle, e.idleLimit(), 0)
}

// onActivity records the active transport's latest activity: the event's
// LastActivity (no later than now), or now. It emits nothing.
func (e *Engine) onActivity(ev Event) {
	s := e.slot(ev.Transport)
	if s == nil || s.status != slotActive {
		return
	}
	t := ev.LastActivity
	if t.IsZero() || t.After(e.now) {
		t = e.now
	}
	if t.After(e.srv.lastActivity) {
		e.srv.lastActivity = t
	}
}

// onIdleTimer is the idle timer firing: with activity since it started,
// it starts again for what remains of the limit after that activity;
// without, the transport has been idle for the whole limit (the limit
// reached counts, as in ably-js) and is disposed as a drop with
// FailureTimeout, which reconnects by RTN15. In CLOSING it does nothing:
// the close timer bounds that state.
func (e *Engine) onIdleTimer(out []Action) []Action {
	limit := e.idleLimit()
	if e.state != Connected || e.find(slotActive) == nil || limit <= 0 {
		return out
	}
	if quiet := e.now.Sub(e.srv.lastActivity); quiet < limit {
		return e.startTimer(out, TimerIdle, limit-quiet, 0)
	}
	return e.onDrop(out, reconnect.Failure{Kind: reconnect.FailureTimeout})
}
