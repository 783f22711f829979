package runner

import "github.com/reconnect-go/reconnect"

// The effects are the calls into the SDK's code that running the engine
// decides on, made outside the engine's turn and on the runner's own
// goroutines: the transports' RequestClose and Close (r.ops, one call at a
// time, in the order decided) and OnStateChange (r.changes, one change at
// a time, in order). A goroutine in effects makes the transport calls
// first, then delivers changes; while one goroutine is inside
// OnStateChange, transport calls go on on another, so a slow callback
// delays later changes, never a transport.

// op is one call to a transport.
type op struct {
	kind   opKind
	rep    *reporter
	t      Transport
	active bool   // opClose: the transport was active once
	gen    uint64 // opActivate: r.activeGen when it was queued
}

type opKind uint8

const (
	opClose        opKind = iota // t.Close, then end Open's context
	opRequestClose               // t.RequestClose
	opActivate                   // Active returns t from now, unless it changed since
)

// effectsWaiting reports whether a call waits that no goroutine is making:
// a transport call, or a change while nobody is inside OnStateChange. r.mu
// is held.
func (r *Runner) effectsWaiting() bool {
	return len(r.ops) > 0 && !r.opsBusy || r.head < len(r.changes) && !r.sending
}

// runEffects is an effects goroutine started by turn (as r.effectsFn).
func (r *Runner) runEffects() {
	defer r.wg.Done()
	r.mu.Lock()
	_, _ = r.effects(false, false)
}

// effects makes the waiting calls until none is left that it may make; the
// caller counted itself in r.workers, and effects uncounts it on return.
// A goroutine counted in r.workers looks at both queues again before it
// returns, so turn starts another only when none is counted. r.mu is held
// on entry and released on return; with turn, effects ends the caller's
// turn (r.turns) as it returns, and with open (inlineTurn's lead) it
// returns the transport whose Open is next (see nextOpen), if any, or
// else, when nothing is queued either, ends the lead's r.busy and reports
// done.
func (r *Runner) effects(turn, open bool) (next *reporter, done bool) {
	for {
		switch {
		case len(r.ops) > 0 && !r.opsBusy:
			r.opsBusy = true
			r.ops, r.opsRun = r.opsRun[:0], r.ops
			r.mu.Unlock()
			for _, o := range r.opsRun {
				switch o.kind {
				case opClose:
					r.closeTransport(o.rep, o.t)
				case opRequestClose:
					r.requestClose(o.rep, o.t)
				case opActivate:
					r.mu.Lock()
					if r.activeGen == o.gen {
						r.active, r.activeRep = o.t, o.rep
					}
					r.mu.Unlock()
				}
			}
			r.mu.Lock()
			for i, o := range r.opsRun {
				if o.kind == opClose {
					if o.active {
						r.closingActive--
					}
					r.release(o.rep)
				}
				r.opsRun[i] = op{}
			}
			r.opsBusy = false
		case r.head < len(r.changes) && !r.sending:
			// No transport call waits here unless a goroutine is making
			// them (opsBusy), and that one looks again.
			r.sending = true
			r.workers-- // inside a callback: not looking at the queues
			c := r.nextChange()
			r.mu.Unlock()
			r.callOnChange(c)
			r.mu.Lock()
			r.sending = false
			r.workers++
		default:
			r.workers--
			if turn {
				r.turns.done()
			}
			if open {
				next = r.nextOpen()
				if next == nil && len(r.inbox) == 0 {
					r.busy, done = false, true // inlineTurn's lead is done: nothing queued, nothing to open
				}
			}
			r.mu.Unlock()
			return next, done
		}
	}
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

// closeTransport calls t.Close; the caller then releases p (see release).
// A Close that panics counts as closed.
func (r *Runner) closeTransport(p *reporter, t Transport) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Transport.Close", p.id, v)
		}
	}()
	t.Close()
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
	if len(r.free) < maxFree {
		r.free = append(r.free, p)
	}
}
