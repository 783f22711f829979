package runner

import (
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// StateChange is one change of the connection state, as the SDK reports it
// to its users (a ConnectionStateChange), or an UPDATE (RTN4h): a change
// of the connection's conditions while it stays CONNECTED, marked Update,
// with From and To both CONNECTED. An SDK that only follows the state
// skips changes with Update set (or whose From equals To); one that emits
// UPDATE events emits them for those.
type StateChange struct {
	// At is the time the runner fed the event that caused the change to
	// the engine.
	At time.Time
	// From and To are the states before and after.
	From, To engine.State
	// Reason says why the change happened. For an Update:
	// engine.ReasonDetails when the active transport received another
	// CONNECTED message (Reporter.Details, RTN24), engine.ReasonTransport
	// when another transport became the active one (the upgrade websocket
	// taking over from HTTP).
	Reason engine.Reason
	// TransportKind is the kind of the transport the change names (see
	// TransportID below); NoTransport when it names none.
	TransportKind reconnect.TransportKind
	// Update is true for an UPDATE (RTN4h): the connection stays
	// CONNECTED (From and To are both engine.Connected) and Reason says
	// what changed. Code that switches on To sees a CONNECTED it already
	// saw: check Update first to tell them apart.
	Update bool
	// Stopped is true for the runner's last change, to CLOSED with
	// engine.ReasonClosed, when its context is done in any state but
	// CLOSED or FAILED (see New); the engine did not make it. A runner
	// stopped in CLOSED or FAILED delivers no such change: Done is the
	// signal that it has stopped.
	Stopped bool
	// RetryIn is the delay before the next attempt, for a change to
	// DISCONNECTED or SUSPENDED (RTN14d, RTN14e); 0 otherwise, and 0 for
	// the DISCONNECTED of an immediate reconnect (RTN15a).
	RetryIn time.Duration
	// Failure is the failure that caused the change, the engine's
	// Action.Failure: how the active transport was lost for ReasonDropped,
	// the attempt's failure for ReasonConnectFailed (FailureTimeout when a
	// transport's connect timeout, Timeouts.Connect, ran out), the fatal error for
	// ReasonFatal; the zero Failure (FailureNone) when none did. For a
	// change to CONNECTED and for an Update, the error the CONNECTED
	// message carried (RTN15c7, RTN24: a resume the server could not
	// honour, say), which is the connection's errorReason from then on.
	Failure reconnect.Failure
	// TransportID, TransportKind and Host name the transport the change
	// concerns, and Transport is what Dialer.Open returned for it (nil
	// while its Open has not returned): the transport whose report or
	// timer caused the change (its CONNECTED, its failure or drop, its
	// connect or idle timeout, its fatal error), for the first change an
	// event makes; else, for a change from CONNECTED or CLOSING, the
	// transport that was active (NetworkDown's, Close's CLOSING and
	// CLOSED, Runner.Fatal's, the stop's). An Update names the active
	// transport (for ReasonTransport, the one that has just become
	// active). All zero when no transport is concerned: a change from
	// INITIALIZED, DISCONNECTED, SUSPENDED, CLOSED or FAILED that no
	// transport caused (Connect, a retry, a check's answer), and the
	// second change of an immediate reconnect (DISCONNECTED → CONNECTING).
	TransportID engine.TransportID
	Host        string
	Transport   Transport
	// Missed is how many changes before this one were dropped because
	// Options.OnStateChange fell MaxQueuedChanges behind; usually 0.
	Missed int
}

// changeQueue holds the state changes waiting for OnStateChange, in
// order; the shell's, under Runner.mu.
type changeQueue struct {
	list   []StateChange // list[head:] wait
	head   int
	missed int  // dropped since the last one delivered
	busy   bool // a goroutine is calling OnStateChange
}

// push queues c. With MaxQueuedChanges waiting, the oldest is dropped and
// counted in the next one delivered.
func (q *changeQueue) push(c *StateChange) {
	if len(q.list)-q.head >= MaxQueuedChanges {
		q.list[q.head] = StateChange{}
		q.head++
		q.missed++
	}
	if len(q.list) == cap(q.list) && q.head > 0 { // reuse the room of those delivered
		n := copy(q.list, q.list[q.head:])
		clear(q.list[n:])
		q.list, q.head = q.list[:n], 0
	}
	q.list = append(q.list, *c)
}

// waiting reports whether a change waits and nobody is inside
// OnStateChange to deliver it.
func (q *changeQueue) waiting() bool { return q.head < len(q.list) && !q.busy }

// pop takes the oldest queued change, with the count of those dropped
// before it; a change is queued.
func (q *changeQueue) pop() StateChange {
	c := q.list[q.head]
	q.list[q.head] = StateChange{}
	if q.head++; q.head == len(q.list) {
		q.list, q.head = q.list[:0], 0
	}
	c.Missed, q.missed = q.missed, 0
	return c
}

// callOnChange calls OnStateChange; a change whose callback panicked
// counts as delivered.
func (r *Runner) callOnChange(c *StateChange) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("OnStateChange", 0, v)
		}
	}()
	r.set.onChange(*c)
}
