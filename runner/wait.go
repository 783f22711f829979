package runner

import (
	"context"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// ConnectError is WaitConnected's error when the connection did not
// connect: the change that ended the wait instead of CONNECTED, or the
// state the wait found. errors.As(err, &ce) gives it; errors.Is and
// errors.As see through it to its Failure and the SDK's error inside
// (reconnect.Failure.WithError).
type ConnectError struct {
	// State is the state the connection went to (DISCONNECTED, SUSPENDED,
	// FAILED, CLOSING or CLOSED), or the one WaitConnected found it in
	// (INITIALIZED, DISCONNECTED, SUSPENDED, CLOSING, CLOSED or FAILED).
	State engine.State
	// Reason is that change's reason (for a state found, the reason of
	// the change that entered it).
	Reason engine.Reason
	// Failure is that change's failure (for a state found, the
	// connection's errorReason, Runner.LastError): the zero Failure for
	// none, as for a close.
	Failure reconnect.Failure
	// RetryIn is the change's delay before the next attempt (DISCONNECTED,
	// SUSPENDED); 0 for a state found.
	RetryIn time.Duration
	// Stopped is true when the runner stopped (its context is done),
	// before WaitConnected or while it waited.
	Stopped bool
}

// Error renders the error as "runner: not connected: STATE (REASON)",
// then ": " and the Failure's Error when there is one, or
// "runner: not connected: the runner has stopped".
func (e *ConnectError) Error() string {
	if e.Stopped {
		return "runner: not connected: the runner has stopped"
	}
	s := "runner: not connected: " + e.State.String() + " (" + e.Reason.String() + ")"
	if e.Failure.Kind != reconnect.FailureNone {
		s += ": " + e.Failure.Error()
	}
	return s
}

// Unwrap returns the Failure, when there is one (Kind other than
// reconnect.FailureNone), else nil.
func (e *ConnectError) Unwrap() error {
	if e.Failure.Kind == reconnect.FailureNone {
		return nil
	}
	return e.Failure
}

// WaitConnected waits for the outcome of the connection attempt in
// flight, for a Connect-style API that returns the first attempt's error:
//
//	r.Connect()
//	if err := r.WaitConnected(ctx); err != nil { … } // a *ConnectError, or ctx's error
//
// The wait is an event like the SDK's other calls, queued after every
// call the same goroutine made before it (the Connect above), and it
// looks at the state the runner has reached once it has processed them:
//
//   - CONNECTED: nil at once.
//   - CONNECTING: it waits for the first change that leaves CONNECTING:
//     to CONNECTED, nil; to DISCONNECTED, SUSPENDED or FAILED (the
//     attempt failed, connectionStateTtl passed, a fatal error),
//     CLOSING or CLOSED (Close was called, or the runner stopped), a
//     *ConnectError with that change's state, reason, Failure and
//     RetryIn. Updates never end it, and nor does a change within
//     CONNECTING. So a failure counts only when it ends the attempt: a
//     transport that fails while another host or transport is still to
//     be tried does not.
//   - any other state (INITIALIZED or CLOSED with no Connect, CLOSING,
//     or DISCONNECTED, SUSPENDED or FAILED when the attempt has already
//     ended): a *ConnectError at once, with that state, the reason that
//     entered it and the connection's errorReason (LastError). It never
//     waits for a retry: call Connect first to connect now.
//   - the runner stopped, before the call or while it waits: a
//     *ConnectError with Stopped set.
//   - ctx done first: ctx.Err().
//
// It blocks, so it must not be called from the SDK's code the runner
// calls (OnStateChange, Dialer.Open, a Transport's methods): with
// Options.Inline that would deadlock, and without it stall the delivery
// of changes. It allocates one small waiter per call.
func (r *Runner) WaitConnected(ctx context.Context) error {
	w := &waiter{done: make(chan *ConnectError, 1)}
	r.mu.Lock()
	if r.sh.stopping || r.set.ctx.Err() != nil {
		r.mu.Unlock()
		return &ConnectError{State: r.State(), Stopped: true}
	}
	r.sh.inbox = append(r.sh.inbox, item{kind: itemWait, w: w})
	r.turn(sdkCaller)
	select {
	case err := <-w.done:
		if err == nil {
			return nil
		}
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waiter is one WaitConnected call: its outcome err (nil for CONNECTED)
// is set by the core and sent once on done, which has room for it, so
// the send never blocks. The send waits for the calls into transports
// queued before it (see wake): WaitConnected returns nil only once Active
// returns the transport.
type waiter struct {
	done chan *ConnectError
	err  *ConnectError
}

// wait registers w on the goroutine running the engine (itemWait), or
// answers it at once (see WaitConnected).
func (c *core) wait(w *waiter) {
	switch c.state {
	case engine.Connected:
		c.wake(w, nil)
	case engine.Connecting:
		c.waits = append(c.waits, w)
	default:
		c.wake(w, &ConnectError{State: c.state, Reason: c.reason, Failure: c.eng.LastError()})
	}
}

// wake queues w's answer err for the shell (see Runner.wake).
func (c *core) wake(w *waiter, err *ConnectError) {
	w.err = err
	c.out.wakes = append(c.out.wakes, w)
}

// wake sends w's answer once every call into a transport queued before it
// is made (an Activated, the hand-out of Active), or at once when none
// waits; r.mu is held.
func (r *Runner) wake(w *waiter) {
	if q := &r.sh.ops; len(q.queue) > 0 || q.busy {
		q.queue = append(q.queue, op{kind: opWake, w: w})
		return
	}
	w.done <- w.err
}

// settle answers the waiters on change ch, unless it stays in
// CONNECTING; it is called for every state change while some wait.
func (c *core) settle(ch *StateChange) {
	var err *ConnectError
	switch ch.To {
	case engine.Connecting:
		return
	case engine.Connected:
	default:
		err = &ConnectError{State: ch.To, Reason: ch.Reason, Failure: ch.Failure, RetryIn: ch.RetryIn, Stopped: ch.Stopped}
	}
	for i, w := range c.waits {
		c.wake(w, err)
		c.waits[i] = nil
	}
	c.waits = c.waits[:0]
}
