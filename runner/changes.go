package runner

import (
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// StateChange is one change of the connection state, as the SDK reports it
// to its users (a ConnectionStateChange).
type StateChange struct {
	// At is the time the runner fed the event that caused the change to
	// the engine.
	At time.Time
	// From and To are the states before and after.
	From, To engine.State
	// Reason says why the change happened.
	Reason engine.Reason
	// RetryIn is the delay before the next attempt, for a change to
	// DISCONNECTED or SUSPENDED (RTN14d, RTN14e); 0 otherwise, and 0 for
	// the DISCONNECTED of an immediate reconnect (RTN15a).
	RetryIn time.Duration
	// Failure is the failure that caused the change, the engine's
	// Action.Failure: how the active transport was lost for ReasonDropped,
	// the attempt's failure for ReasonConnectFailed (FailureTimeout when a
	// transport's realtimeRequestTimeout ran out), the fatal error for
	// ReasonFatal; the zero Failure (FailureNone) when none did.
	Failure reconnect.Failure
	// Transport and Host are the kind and host of the transport that
	// became active, for a change to CONNECTED; zero otherwise.
	Transport reconnect.Transport
	Host      string
	// Missed is how many changes before this one were dropped because
	// Options.OnStateChange fell MaxQueuedChanges behind; usually 0.
	Missed int
	// Stopped is true for the runner's last change, to CLOSED with
	// engine.ReasonClosed, when its context is done (see New); the engine
	// did not make it.
	Stopped bool
}

// deliver queues c for OnStateChange and makes sure a delivery goroutine
// runs.
func (r *Runner) deliver(c StateChange) {
	if r.onChange == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.changes) >= MaxQueuedChanges {
		copy(r.changes, r.changes[1:])
		r.changes = r.changes[:len(r.changes)-1]
		r.missed++
	}
	r.changes = append(r.changes, c)
	r.spawn(&r.sending, (*Runner).send)
}

// send calls OnStateChange for each queued change, in order, and ends when
// none is left.
func (r *Runner) send() {
	defer r.wg.Done()
	for {
		r.mu.Lock()
		if len(r.changes) == 0 {
			r.sending = false
			r.changes = r.changes[:0]
			r.mu.Unlock()
			return
		}
		c := r.changes[0]
		r.changes[0] = StateChange{}
		r.changes = r.changes[1:]
		c.Missed, r.missed = r.missed, 0
		r.mu.Unlock()
		r.callOnChange(c)
	}
}

// callOnChange calls OnStateChange; a change whose callback panicked
// counts as delivered.
func (r *Runner) callOnChange(c StateChange) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("OnStateChange", 0, v)
		}
	}()
	r.onChange(c)
}
