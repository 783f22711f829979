package runner

import "github.com/reconnect-go/reconnect"

// The effects are the calls into the SDK's code that running the engine
// decides on, made outside the engine's turn and on the runner's own
// goroutines: the calls into the transports (r.sh.ops, one call at a
// time, in the order decided) and OnStateChange (r.sh.changes, one change
// at a time, in order). A change is delivered once the transport calls
// queued before it are made; while one goroutine is inside OnStateChange,
// transport calls go on on another, so a slow callback delays later
// changes, never a transport.

// op is one call to a transport.
type op struct {
	kind       opKind
	cause      Cause // opClose: why (CloseFor, Deactivated)
	active     bool  // opClose: the transport was active once
	deactivate bool  // opClose: it is the active one and Notified: Deactivated first
	rep        *reporter
	t          Transport
	gen        uint64  // opActivate: activeView.gen when it was queued
	w          *waiter // opWake
}

type opKind uint8

const (
	opClose        opKind = iota // t.Close (or CloseFor), then end Open's context
	opRequestClose               // t.RequestClose
	opActivate                   // Active returns t from now, unless it changed since
	opActivated                  // t.Activated (a Notified transport)
	opWake                       // answer WaitConnected's w (not a transport call)
)

// opQueue holds the transport calls waiting for an effects goroutine; the
// shell's, under Runner.mu.
type opQueue struct {
	queue []op
	spare []op // the buffer of the last calls made, for the next ones; nil while busy
	busy  bool // a goroutine is making the calls it took from queue
}

// waiting reports whether a call waits and nobody is making calls.
func (q *opQueue) waiting() bool { return len(q.queue) > 0 && !q.busy }

// effectsWaiting reports whether a call waits that no goroutine is making:
// a transport call, or a change while nobody is inside OnStateChange. r.mu
// is held.
func (r *Runner) effectsWaiting() bool {
	return r.sh.ops.waiting() || r.sh.changes.waiting()
}

// runEffects is an effects goroutine started by turn (as settings.effectsFn).
func (r *Runner) runEffects() {
	defer r.wg.Done()
	r.mu.Lock()
	r.effects()
	r.mu.Unlock()
}

// effects makes the waiting calls until none is left that it may make; the
// caller counted itself in r.sh.workers, and effects uncounts it before it
// returns. A goroutine counted in r.sh.workers looks at both queues again
// before it returns, so turn starts another only when none is counted.
// r.mu is held on entry and on return, released during the calls.
func (r *Runner) effects() {
	sh := &r.sh
	for {
		switch {
		case sh.ops.waiting():
			r.makeCalls()
		case sh.changes.waiting() && !sh.ops.busy:
			// No transport call waits here, and none is being made: a
			// change is delivered after the calls into the transports
			// queued before it (an event's notices and Close come before
			// its change). A goroutine making calls (ops.busy) looks at
			// the changes again once it is done.
			sh.changes.busy = true
			sh.workers-- // inside a callback: not looking at the queues
			c := sh.changes.pop()
			r.mu.Unlock()
			r.callOnChange(&c) // by pointer: the effects goroutine's stack stays small (a new one starts at 2 KiB)
			r.mu.Lock()
			sh.changes.busy = false
			sh.workers++
		default:
			sh.workers--
			return
		}
	}
}

// makeCalls makes the queued transport calls, in order; r.mu is held on
// entry and on return, released during the calls.
func (r *Runner) makeCalls() {
	q := &r.sh.ops
	q.busy = true
	run := q.queue
	q.queue, q.spare = q.spare[:0], nil
	r.mu.Unlock()
	for _, o := range run {
		switch o.kind {
		case opClose:
			if o.deactivate {
				r.deactivated(o.rep, o.t, o.cause)
			}
			r.closeTransport(o.rep, o.t, o.cause)
		case opActivated:
			r.activated(o.rep, o.t)
		case opWake:
			o.w.done <- o.w.err
		case opRequestClose:
			r.requestClose(o.rep, o.t)
		case opActivate:
			r.mu.Lock()
			if a := &r.sh.active; a.gen == o.gen {
				a.t, a.rep = o.t, o.rep
			}
			r.mu.Unlock()
		}
	}
	r.mu.Lock()
	for i, o := range run {
		if o.kind == opClose {
			if o.active {
				r.sh.active.closing--
			}
			r.release(o.rep)
		}
		run[i] = op{}
	}
	q.spare, q.busy = run[:0], false
}

// requestClose calls t.RequestClose; one that panics closed the transport
// with FailureOther.
func (r *Runner) requestClose(p *reporter, t Transport) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Transport.RequestClose", p.id, v)
			p.reporter().Closed(reconnect.Failure{Kind: reconnect.FailureOther})
		}
	}()
	t.RequestClose()
}

// closeTransport calls t.Close, or t.CloseFor(why) for a CauseCloser; the
// caller then releases p (see release). A Close that panics counts as
// closed.
func (r *Runner) closeTransport(p *reporter, t Transport, why Cause) {
	if p.notify&notifyClose != 0 {
		defer func() {
			if v := recover(); v != nil {
				r.recovered("Transport.CloseFor", p.id, v)
			}
		}()
		t.(CauseCloser).CloseFor(why)
		return
	}
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Transport.Close", p.id, v)
		}
	}()
	t.Close()
}

// activated calls t.Activated (t is Notified); one that panics closed the
// transport with FailureOther, as RequestClose's does: the connection
// drops and reconnects.
func (r *Runner) activated(p *reporter, t Transport) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Transport.Activated", p.id, v)
			p.reporter().Closed(reconnect.Failure{Kind: reconnect.FailureOther})
		}
	}()
	t.(Notified).Activated()
}

// deactivated calls t.Deactivated(why) (t is Notified); one that panics
// changes nothing: Close follows anyway.
func (r *Runner) deactivated(p *reporter, t Transport, why Cause) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Transport.Deactivated", p.id, v)
		}
	}()
	t.(Notified).Deactivated(why)
}

// maxFree is how many released slots a runner keeps for later transports:
// as many as it has transports at once, at most (a websocket, an HTTP
// transport, and one being closed).
const maxFree = 3

// release keeps p for a later transport: its transport is closed and its
// Open has returned, so nothing of the runner's refers to it any more, and
// any report still made through its Reporter is ignored (see reporter).
// r.mu is held.
func (r *Runner) release(p *reporter) {
	if len(r.sh.free) < maxFree {
		r.sh.free = append(r.sh.free, p)
	}
}
